// The member's address: verified by a mailed link (sign-up, "Gửi lại", a change), changed from /account with
// a link to the new address and a notice to the old one (docs/decisions/0980). Nothing else waits for it.
import { and, eq, isNull } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/errors';
import { users } from '../../db/schema';
import { ApiError, badRequest, conflict, unauthorized } from '../../lib/errors';
import type { ChangeEmailInput } from '../../schemas/account';
import { AUTH_MESSAGES, RECOVERY_MESSAGES } from '../../schemas/auth';
import { outboxInsert, outboxRow } from '../mail/outbox';
import { enforceRateLimits, RATE_LIMITS } from '../rate-limit';
import { type AuthDeps, findUserByEmail, findUserById, verificationStatements } from './accounts';
import { findUsableLink, spendLink, voidLinks } from './email-links';
import { verifyPassword } from './password';

/** "Gửi lại": a new verification link to the current address (the older ones stop working). */
export async function resendVerification(deps: AuthDeps, userId: number): Promise<string> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw unauthorized();
  if (user.emailVerifiedAt !== null) throw conflict(RECOVERY_MESSAGES.alreadyVerified);
  const now = deps.now();
  await enforceRateLimits(
    deps.db,
    [{ key: `verify-mail:user:${userId}`, ...RATE_LIMITS.accountMailPerUser }],
    now,
    RECOVERY_MESSAGES.tooManyMails,
  );
  await deps.db.batch(await verificationStatements(deps, user, now));
  return RECOVERY_MESSAGES.verificationSent;
}

/** Opens a verification link: the address it was sent to becomes verified, if it is still the account's. */
export async function verifyEmail(deps: AuthDeps, token: string, ip: string): Promise<{ email: string }> {
  const now = deps.now();
  await enforceRateLimits(deps.db, [{ key: `verify:ip:${ip}`, ...RATE_LIMITS.resetPasswordPerIp }], now);
  const link = await findUsableLink(deps.db, token, 'verify_email', now);
  await spendLink(deps.db, link, now);
  const verified = await deps.db
    .update(users)
    .set({ emailVerifiedAt: now, updatedAt: now })
    .where(and(eq(users.id, link.userId), eq(users.email, link.email), isNull(users.emailVerifiedAt)))
    .returning({ email: users.email });
  if (verified.length > 0) return { email: link.email };
  const user = await findUserById(deps.db, link.userId);
  if (user && user.email === link.email) return { email: link.email }; // verified meanwhile
  throw new ApiError(400, 'invalid_token', `token: ${RECOVERY_MESSAGES.verifyAddressChanged}`);
}

/**
 * Changes the address at once (it signs in with the new one), unverified: a link goes to the new address and
 * a notice to the old one, and links mailed to the old address stop working. The current password is asked
 * when the account has one, so a borrowed session cannot take the account's mail.
 */
export async function changeEmail(deps: AuthDeps, userId: number, input: ChangeEmailInput): Promise<{ email: string; message: string }> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw unauthorized();
  const now = deps.now();
  await enforceRateLimits(
    deps.db,
    [{ key: `email-change:user:${userId}`, ...RATE_LIMITS.accountMailPerUser }],
    now,
    RECOVERY_MESSAGES.tooManyMails,
  );
  if (user.passwordHash) {
    if (!input.currentPassword) throw badRequest('currentPassword', 'is required');
    if (!(await verifyPassword(input.currentPassword, user.passwordHash)))
      throw badRequest('currentPassword', RECOVERY_MESSAGES.wrongPassword);
  }
  if (input.email === user.email) throw badRequest('email', RECOVERY_MESSAGES.sameEmail);
  if (await findUserByEmail(deps.db, input.email)) throw new ApiError(409, 'conflict', `email: ${AUTH_MESSAGES.emailTaken}`);
  const moved = { ...user, email: input.email };
  const notice = await outboxRow(
    deps.config,
    { kind: 'email_changed', to: user.email, userId: user.id, params: { name: user.username, newEmail: input.email } },
    now,
  );
  try {
    await deps.db.batch([
      deps.db.update(users).set({ email: input.email, emailVerifiedAt: null, updatedAt: now }).where(eq(users.id, userId)),
      voidLinks(deps.db, userId, ['password_reset', 'verify_email'], now),
      ...(await verificationStatements(deps, moved, now)),
      outboxInsert(deps.db, [notice]),
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(409, 'conflict', `email: ${AUTH_MESSAGES.emailTaken}`);
    throw err;
  }
  return { email: input.email, message: RECOVERY_MESSAGES.emailChanged };
}
