import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { REFRESH_TOKEN_TTL_MS } from '../services/auth/refresh-tokens';
import type { AppEnv } from './context';
import { ApiError } from './errors';

/**
 * The refresh token of a session kept when the viewer ticked "Ghi nhớ đăng nhập"
 * (docs/decisions/0204-remembered-sessions.md): in a cookie script cannot read (HttpOnly), sent only over
 * HTTPS (Secure; browsers count http://localhost as secure, so the local demo works too), never on a
 * request another site starts (SameSite=Strict), and only to the refresh path, so no other API call
 * carries it. It lives as long as the refresh token it holds; every rotation writes the successor.
 */
export const REFRESH_COOKIE = 'phimviet_refresh';
export const REFRESH_COOKIE_PATH = '/api/refresh_token';

const COOKIE_OPTIONS = { path: REFRESH_COOKIE_PATH, httpOnly: true, secure: true, sameSite: 'Strict' } as const;

export function setRefreshCookie(c: Context, token: string): void {
  setCookie(c, REFRESH_COOKIE, token, { ...COOKIE_OPTIONS, maxAge: Math.floor(REFRESH_TOKEN_TTL_MS / 1000) });
}

export function clearRefreshCookie(c: Context): void {
  deleteCookie(c, REFRESH_COOKIE, COOKIE_OPTIONS);
}

export function readRefreshCookie(c: Context): string | undefined {
  return getCookie(c, REFRESH_COOKIE) || undefined;
}

/**
 * A call that spends the cookie must come from the site's own pages: its Origin is the public URL's or
 * the request's own. SameSite=Strict already keeps other sites' requests cookie-less; this also refuses
 * same-site neighbours (another subdomain) and requests with no Origin at all.
 */
export function assertSameOrigin(c: Context<AppEnv>): void {
  const origin = c.req.header('origin');
  const allowed = new Set([new URL(c.var.deps.config.PUBLIC_URL).origin, new URL(c.req.url).origin]);
  if (!origin || !allowed.has(origin)) throw new ApiError(403, 'forbidden_origin', 'origin: yêu cầu phải đến từ chính trang web');
}
