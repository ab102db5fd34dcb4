import { and, eq, isNull, max } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { refreshTokens } from '../../db/schema';
import type { Session } from '../../lib/context';
import { ApiError } from '../../lib/errors';
import { ACCOUNT_DATA_TEXTS, FRESH_SIGN_IN_MINUTES } from '../../schemas/account-data';

/**
 * A fresh sign-in (docs/decisions/1041): the device's session (its refresh-token family, the token's sid) began
 * with a sign-in (password, passkey or Google: every way ends in startSession, which stamps signed_in_at) at most
 * FRESH_SIGN_IN_MINUTES ago. Renewals keep the original time, so only signing in again makes a session fresh.
 * 403 reauth_required otherwise; the page then offers "Đăng nhập lại".
 */
export async function assertFreshSignIn(db: Db, session: Session | null, now: number): Promise<void> {
  const sid = session?.sid;
  if (sid) {
    const [row] = await db
      .select({ at: max(refreshTokens.signedInAt) })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.familyId, sid), eq(refreshTokens.userId, session.userId), isNull(refreshTokens.revokedAt)));
    if (row?.at != null && row.at >= now - FRESH_SIGN_IN_MINUTES * 60_000) return;
  }
  throw new ApiError(403, 'reauth_required', ACCOUNT_DATA_TEXTS.reauthRequired);
}
