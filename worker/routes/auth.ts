import { type Context, Hono } from 'hono';
import type { AppEnv } from '../lib/context';
import { badRequest } from '../lib/errors';
import { assertSameOrigin, clearRefreshCookie, readRefreshCookie, setRefreshCookie } from '../lib/refresh-cookie';
import { validate } from '../lib/validate';
import { login, logout, refreshSession, registerUser } from '../services/auth/accounts';
import {
  type LoginResponse,
  type RefreshResponse,
  loginBodySchema,
  refreshBodySchema,
  refreshCallSchema,
  registerBodySchema,
} from '../schemas/auth';
import { clientIp } from '../services/rate-limit';

const SIGNED_OUT = { ok: true as const, message: 'Bạn đã đăng xuất thành công!' };

/** A remembered session's refresh: the cookie's token, spent only from this site, its successor back in the cookie. */
async function refreshThroughCookie(c: Context<AppEnv>): Promise<RefreshResponse> {
  const cookie = readRefreshCookie(c);
  if (!cookie) throw badRequest('token', 'is required');
  assertSameOrigin(c);
  try {
    const { refreshToken, tokennew } = await refreshSession(c.var.deps, cookie);
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
    return c.json({ message: 'Đăng ký thành công', user }, 201);
  })
  .post('/dang-nhap', validate('json', loginBodySchema), async (c) => {
    const input = c.req.valid('json');
    const { refreshToken, ...session } = await login(c.var.deps, { ...input, ip: clientIp(c.req.raw.headers) });
    if (input.remember) setRefreshCookie(c, refreshToken);
    const body: LoginResponse = input.remember ? session : { ...session, refreshToken };
    return c.json(body, 200);
  })
  .post('/refresh_token', validate('json', refreshCallSchema), async (c) => {
    const { token } = c.req.valid('json');
    const body: RefreshResponse = token ? await refreshSession(c.var.deps, token) : await refreshThroughCookie(c);
    return c.json(body, 200);
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
