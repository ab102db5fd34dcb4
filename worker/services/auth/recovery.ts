// "Quên mật khẩu?": a reset link by mail (docs/decisions/0980, OWASP's Forgot Password cheat sheet). The
// answer is the same whether or not the address has an account; requests are limited per address and per
// IP; the link carries 256 random bits, is stored hashed, lasts 30 minutes and works once; a newer link or a
// password change voids it. Setting the password ends every session (the epoch) and mails a notice.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { ApiError, unauthorized } from '../../lib/errors';
import {
  type ForgotPasswordInput,
  type PasswordResetAvailability,
  RECOVERY_MESSAGES,
  type ResetPasswordInput,
  type ResetTokenStatus,
} from '../../schemas/auth';
import { readSettings } from '../admin/settings';
import { mailConfigured } from '../mail/message';
import { outboxInsert, outboxRow } from '../mail/outbox';
import { enforceRateLimits, RATE_LIMITS } from '../rate-limit';
import { type AuthDeps, findUserByEmail, findUserById, passwordChangedStatements } from './accounts';
import { findUsableLink, newLink, spendLink } from './email-links';
import { hashPassword } from './password';
import { revokeAllForUser } from './refresh-tokens';

/** Outside production mail always has somewhere to go (npm start's catcher, a test's server, the outbox). */
function canMail(deps: Pick<AuthDeps, 'config'>): boolean {
  return deps.config.APP_ENV !== 'production' || mailConfigured(deps.config);
}

async function unavailableMessage(db: Db, deps: Pick<AuthDeps, 'config'>): Promise<string> {
  const { hotline } = await readSettings(db, deps.config);
  return RECOVERY_MESSAGES.mailUnavailable.replace('{hotline}', hotline);
}

/** GET /api/auth/forgot-password: can this server mail a link, or should the page send the member to the hotline. */
export async function passwordResetAvailability(deps: Pick<AuthDeps, 'db' | 'config'>): Promise<PasswordResetAvailability> {
  const { hotline } = await readSettings(deps.db, deps.config);
  const available = canMail(deps);
  return { available, hotline, message: available ? null : RECOVERY_MESSAGES.mailUnavailable.replace('{hotline}', hotline) };
}

/**
 * Puts a reset mail in the outbox for the address's account, if there is one: a link for an account with a
 * password, a "sign in with Google" note for a Google-only one. Answers nothing either way (the caller
 * answers the same sentence); 429 past the per-address or per-IP limit, 503 when no mail can leave.
 * Answers whether a mail was queued (for the caller's background send only, never to the client).
 */
export async function requestPasswordReset(deps: AuthDeps, input: ForgotPasswordInput & { ip: string }): Promise<boolean> {
  const { db } = deps;
  if (!canMail(deps)) throw new ApiError(503, 'mail_unavailable', await unavailableMessage(db, deps));
  const now = deps.now();
  await enforceRateLimits(
    db,
    [
      { key: `forgot:ip:${input.ip}`, ...RATE_LIMITS.forgotPasswordPerIp },
      { key: `forgot:email:${input.email}`, ...RATE_LIMITS.forgotPasswordPerEmail },
    ],
    now,
    RECOVERY_MESSAGES.tooManyResets,
  );
  const user = await findUserByEmail(db, input.email);
  if (!user) return false;
  if (!user.passwordHash) {
    const mail = await outboxRow(
      deps.config,
      { kind: 'password_reset_google', to: user.email, userId: user.id, params: { name: user.username } },
      now,
    );
    await outboxInsert(db, [mail]);
    return true;
  }
  const link = await newLink(db, { userId: user.id, purpose: 'password_reset', email: user.email, now });
  const mail = await outboxRow(
    deps.config,
    { kind: 'password_reset', to: user.email, userId: user.id, params: { name: user.username, token: link.token } },
    now,
  );
  await db.batch([...link.statements, outboxInsert(db, [mail])]);
  return true;
}

/** The link's account when it can still set a password: forged, used, expired, or for an address the account no longer has → 400. */
async function usableResetLink(deps: AuthDeps, token: string, ip: string) {
  const now = deps.now();
  // Guessing 256 bits is hopeless; the limit only keeps the endpoint from being an oracle for floods.
  await enforceRateLimits(deps.db, [{ key: `reset:ip:${ip}`, ...RATE_LIMITS.resetPasswordPerIp }], now, RECOVERY_MESSAGES.tooManyResets);
  const link = await findUsableLink(deps.db, token, 'password_reset', now);
  const user = await findUserById(deps.db, link.userId);
  if (!user || user.email !== link.email) throw new ApiError(400, 'invalid_token', `token: ${RECOVERY_MESSAGES.tokenUsed}`);
  return { link, user };
}

export async function checkResetToken(deps: AuthDeps, token: string, ip: string): Promise<ResetTokenStatus> {
  const { user } = await usableResetLink(deps, token, ip);
  return { ok: true, email: user.email };
}

/**
 * Sets the new password through a reset link: the link is spent first (one conditional update, so a second
 * click fails), then in one batch the password, the session epoch (every access token of the account stops),
 * the notice mail and the voiding of other links; every refresh token is revoked. Opening the link proved
 * the mailbox, so the address counts as verified.
 */
export async function resetPassword(deps: AuthDeps, input: ResetPasswordInput & { ip: string }): Promise<void> {
  const { link, user } = await usableResetLink(deps, input.token, input.ip);
  const passwordHash = await hashPassword(input.password);
  const now = deps.now();
  await spendLink(deps.db, link, now);
  const [updated] = await deps.db.batch([
    deps.db
      .update(users)
      .set({
        passwordHash,
        sessionEpoch: sql`${users.sessionEpoch} + 1`,
        emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now})`,
        updatedAt: now,
      })
      .where(eq(users.id, user.id))
      .returning({ id: users.id }),
    ...(await passwordChangedStatements(deps, user, now)),
  ]);
  if (updated.length === 0) throw unauthorized();
  await revokeAllForUser(deps.db, user.id, now);
}
