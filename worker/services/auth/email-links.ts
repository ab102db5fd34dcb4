// Single-use links mailed to a member: a password reset (30 minutes) or an address verification (24 hours).
// The token is 256 random bits (43 base64url characters) handed out once, in the mail; only its SHA-256 is
// stored. Issuing a link voids the older unused ones of the same purpose; a link is spent by one conditional
// update, so two clicks at once cannot both use it.
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { emailTokens } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { randomBytes, sha256Hex, toBase64Url } from '../../lib/bytes';
import { RECOVERY_MESSAGES } from '../../schemas/account-texts';
import { RESET_LINK_MINUTES, VERIFY_LINK_HOURS } from '../mail/templates';

export type LinkPurpose = 'password_reset' | 'verify_email';

export const LINK_LIFETIME_MS: Record<LinkPurpose, number> = {
  password_reset: RESET_LINK_MINUTES * 60_000,
  verify_email: VERIFY_LINK_HOURS * 60 * 60_000,
};

/** A fresh token and the statements that store its hash and void the older links of the purpose (for a batch). */
export async function newLink(db: Db, input: { userId: number; purpose: LinkPurpose; email: string; now: number }) {
  const token = toBase64Url(randomBytes(32));
  const statements = [
    voidLinks(db, input.userId, [input.purpose], input.now),
    db.insert(emailTokens).values({
      userId: input.userId,
      purpose: input.purpose,
      tokenHash: await sha256Hex(token),
      email: input.email,
      expiresAt: input.now + LINK_LIFETIME_MS[input.purpose],
      createdAt: input.now,
    }),
  ] as const;
  return { token, statements };
}

/** Voids the user's unused links of these purposes (a newer link, a password change, an address change). */
export function voidLinks(db: Db, userId: number, purposes: LinkPurpose[], now: number) {
  return db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.userId, userId), inArray(emailTokens.purpose, purposes), isNull(emailTokens.usedAt)));
}

const invalidToken = (message: string) => new ApiError(400, 'invalid_token', `token: ${message}`);

export interface LinkRow {
  id: number;
  userId: number;
  email: string;
}

/** The link behind a token, if it can still be used; otherwise the 400 that says why (forged, used, expired). */
export async function findUsableLink(db: Db, token: string, purpose: LinkPurpose, now: number): Promise<LinkRow> {
  const [row] = await db
    .select({
      id: emailTokens.id,
      userId: emailTokens.userId,
      email: emailTokens.email,
      usedAt: emailTokens.usedAt,
      expiresAt: emailTokens.expiresAt,
    })
    .from(emailTokens)
    .where(and(eq(emailTokens.tokenHash, await sha256Hex(token)), eq(emailTokens.purpose, purpose)))
    .limit(1);
  if (!row) throw invalidToken(RECOVERY_MESSAGES.tokenInvalid);
  if (row.usedAt !== null) throw invalidToken(RECOVERY_MESSAGES.tokenUsed);
  if (row.expiresAt <= now) throw invalidToken(RECOVERY_MESSAGES.tokenExpired);
  return { id: row.id, userId: row.userId, email: row.email };
}

/** Spends a link found usable: true for the one caller whose update marked it used. */
export async function spendLink(db: Db, link: LinkRow, now: number): Promise<void> {
  const spent = await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.id, link.id), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, now)))
    .returning({ id: emailTokens.id });
  if (spent.length === 0) throw invalidToken(RECOVERY_MESSAGES.tokenUsed);
}
