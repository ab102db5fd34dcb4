import { type Context, Hono } from 'hono';
import type { AppEnv } from '../lib/context';
import { badRequest } from '../lib/errors';
import { assertSameOrigin, clearRefreshCookie, readRefreshCookie, setRefreshCookie } from '../lib/refresh-cookie';
import { validate } from '../lib/validate';
import { login, logout, refreshSession, registerUser } from '../services/auth/accounts';
import { verifyEmail } from '../services/auth/email-address';
import { loginWithPasskey, passkeyLoginOptions } from '../services/auth/passkeys';
import { checkResetToken, passwordResetAvailability, requestPasswordReset, resetPassword } from '../services/auth/recovery';
import {
  type ForgotPasswordResponse,
  forgotPasswordBodySchema,
  type LoginResponse,
  loginBodySchema,
  passkeyLoginBodySchema,
  RECOVERY_MESSAGES,
  type RefreshResponse,
  refreshBodySchema,
  refreshCallSchema,
  registerBodySchema,
  resetPasswordBodySchema,
  resetTokenQuerySchema,
  verifyEmailBodySchema,
} from '../schemas/auth';
import { clientIp } from '../services/rate-limit';
import { sendMailSoon } from '../lib/mail-soon';

const userAgent = (c: Context<AppEnv>) => c.req.header('user-agent') ?? '';

/** A session's answer: a remembered one puts its refresh token in the HttpOnly cookie, never in the body. */
function sessionAnswer(c: Context<AppEnv>, { refreshToken, ...session }: LoginResponse & { refreshToken: string }, remember: boolean) {
  if (remember) setRefreshCookie(c, refreshToken);
  const body: LoginResponse = remember ? session : { ...session, refreshToken };
  return body;
}

const SIGNED_OUT = { ok: true as const, message: 'Bạn đã đăng xuất thành công!' };

/** A remembered session's refresh: the cookie's token, spent only from this site, its successor back in the cookie. */
async function refreshThroughCookie(c: Context<AppEnv>): Promise<RefreshResponse> {
  const cookie = readRefreshCookie(c);
  if (!cookie) throw badRequest('token', 'is required');
  assertSameOrigin(c);
  try {
    const { refreshToken, tokennew } = await refreshSession(c.var.deps, cookie, { userAgent: userAgent(c) });
    setRefreshCookie(c, refreshToken);
    return { tokennew };
  } catch (error) {
    // Spent, revoked or expired: the browser should stop sending it.
    clearRefreshCookie(c);
    throw error;
  }
}

/**
 * The product's account calls, at its paths (/api/dang-ky, /api/dang-nhap, /api/refresh_token) plus logout.
 * A remembered sign-in (`remember: true`) keeps its refresh token in the HttpOnly cookie of
 * lib/refresh-cookie.ts and never in an answer; refreshing and signing out such a session go through
 * /api/refresh_token, the one path the cookie is sent to.
 */
export const authRoutes = new Hono<AppEnv>()
  .post('/dang-ky', validate('json', registerBodySchema), async (c) => {
    const user = await registerUser(c.var.deps, { ...c.req.valid('json'), ip: clientIp(c.req.raw.headers) });
    // The verification link the sign-up put in the outbox.
    sendMailSoon(c);
    return c.json({ message: 'Đăng ký thành công', user }, 201);
  })
  .post('/dang-nhap', validate('json', loginBodySchema), async (c) => {
    const input = c.req.valid('json');
    const session = await login(c.var.deps, { ...input, ip: clientIp(c.req.raw.headers), userAgent: userAgent(c) });
    return c.json(sessionAnswer(c, session, input.remember), 200);
  })
  .post('/refresh_token', validate('json', refreshCallSchema), async (c) => {
    const { token } = c.req.valid('json');
    const body: RefreshResponse = token
      ? await refreshSession(c.var.deps, token, { userAgent: userAgent(c) })
      : await refreshThroughCookie(c);
    return c.json(body, 200);
  })
  // ---- "Quên mật khẩu?" and mailed links (docs/decisions/0980) ----
  .get('/auth/forgot-password', async (c) => c.json(await passwordResetAvailability(c.var.deps), 200))
  .post('/auth/forgot-password', validate('json', forgotPasswordBodySchema), async (c) => {
    const queued = await requestPasswordReset(c.var.deps, { ...c.req.valid('json'), ip: clientIp(c.req.raw.headers) });
    if (queued) sendMailSoon(c);
    // The same answer whether or not the address has an account.
    const body: ForgotPasswordResponse = { ok: true, message: RECOVERY_MESSAGES.forgotSent };
    return c.json(body, 200);
  })
  .get('/auth/reset-password', validate('query', resetTokenQuerySchema), async (c) =>
    c.json(await checkResetToken(c.var.deps, c.req.valid('query').token, clientIp(c.req.raw.headers)), 200),
  )
  .post('/auth/reset-password', validate('json', resetPasswordBodySchema), async (c) => {
    await resetPassword(c.var.deps, { ...c.req.valid('json'), ip: clientIp(c.req.raw.headers) });
    sendMailSoon(c);
    return c.json({ ok: true as const, message: RECOVERY_MESSAGES.passwordReset }, 200);
  })
  .post('/auth/verify-email', validate('json', verifyEmailBodySchema), async (c) => {
    const { email } = await verifyEmail(c.var.deps, c.req.valid('json').token, clientIp(c.req.raw.headers));
    return c.json({ ok: true as const, email, message: RECOVERY_MESSAGES.emailVerified }, 200);
  })
  // ---- passkeys: sign in with a discoverable credential ----
  .post('/auth/passkey/options', async (c) => c.json(await passkeyLoginOptions(c.var.deps, clientIp(c.req.raw.headers)), 200))
  .post('/auth/passkey/login', validate('json', passkeyLoginBodySchema), async (c) => {
    const input = c.req.valid('json');
    const session = await loginWithPasskey(c.var.deps, { ...input, ip: clientIp(c.req.raw.headers), userAgent: userAgent(c) });
    return c.json(sessionAnswer(c, session, input.remember === true), 200);
  })
  // Signing out of a remembered session: revokes the cookie's family and removes the cookie.
  .delete('/refresh_token', async (c) => {
    assertSameOrigin(c);
    const cookie = readRefreshCookie(c);
    if (cookie) await logout(c.var.deps, cookie);
    clearRefreshCookie(c);
    return c.json(SIGNED_OUT, 200);
  })
  .post('/dang-xuat', validate('json', refreshBodySchema), async (c) => {
    await logout(c.var.deps, c.req.valid('json').token);
    return c.json(SIGNED_OUT, 200);
  });
