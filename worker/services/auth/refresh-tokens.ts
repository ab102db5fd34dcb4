import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { refreshTokens } from '../../db/schema';
import { retentionMs } from '../../schemas/retention';
import { randomBytes, sha256Hex, toBase64Url } from '../../lib/bytes';

/** Sliding lifetime: each rotation grants another 30 days; an idle session ends after 30 days. */
export const REFRESH_TOKEN_TTL_MS = retentionMs('session');

export type RotateResult =
  | { ok: true; userId: number; familyId: string; token: string }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'reused' };

/** What the device list shows of a session: the browser that holds it and when it signed in. */
export interface DeviceInfo {
  userAgent: string;
  signedInAt: number;
}

/** The longest User-Agent kept (browsers send 100–300 characters). */
const USER_AGENT_MAX = 400;

/** Stores only the SHA-256 of a fresh opaque token and hands the token back once. */
export async function issueRefreshToken(
  db: Db,
  userId: number,
  now: number,
  familyId: string = crypto.randomUUID(),
  device: DeviceInfo = { userAgent: '', signedInAt: now },
): Promise<string> {
  const token = toBase64Url(randomBytes(32));
  await db.insert(refreshTokens).values({
    userId,
    familyId,
    tokenHash: await sha256Hex(token),
    expiresAt: now + REFRESH_TOKEN_TTL_MS,
    userAgent: device.userAgent.slice(0, USER_AGENT_MAX),
    signedInAt: device.signedInAt,
    createdAt: now,
  });
  return token;
}

/**
 * Exchanges a refresh token for its successor in the same family. Marking it used is one
 * conditional UPDATE, so two concurrent uses cannot both succeed; the loser is a replay, and a
 * replay means the token leaked: the whole family is revoked.
 */
export async function rotateRefreshToken(db: Db, token: string, now: number, userAgent?: string): Promise<RotateResult> {
  const tokenHash = await sha256Hex(token);
  const [claimed] = await db
    .update(refreshTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(refreshTokens.tokenHash, tokenHash),
        isNull(refreshTokens.usedAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, now),
      ),
    )
    .returning({
      userId: refreshTokens.userId,
      familyId: refreshTokens.familyId,
      userAgent: refreshTokens.userAgent,
      signedInAt: refreshTokens.signedInAt,
    });
  if (claimed) {
    // The successor keeps the sign-in time and takes the browser's current User-Agent (it updates itself).
    const next = await issueRefreshToken(db, claimed.userId, now, claimed.familyId, {
      userAgent: userAgent || claimed.userAgent,
      signedInAt: claimed.signedInAt,
    });
    return { ok: true, userId: claimed.userId, familyId: claimed.familyId, token: next };
  }
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1);
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.usedAt !== null) {
    await revokeFamily(db, row.familyId, now);
    return { ok: false, reason: 'reused' };
  }
  if (row.revokedAt !== null) return { ok: false, reason: 'revoked' };
  return { ok: false, reason: 'expired' };
}

export async function revokeFamily(db: Db, familyId: string, now: number): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Logout: revokes the family the token belongs to. Unknown tokens are ignored (logout always succeeds). */
export async function revokeFamilyOfToken(db: Db, token: string, now: number): Promise<boolean> {
  const [row] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, await sha256Hex(token)))
    .limit(1);
  if (!row) return false;
  await revokeFamily(db, row.familyId, now);
  return true;
}

export async function revokeAllForUser(db: Db, userId: number, now: number): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}
