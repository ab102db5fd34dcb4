import { AUTH_MESSAGES } from '../../../worker/schemas/values';
import { api } from './api-client';
import { clearTabSession, getRefreshToken, getSession, getToken, isRemembered, signOut, storeSession, storeTokens } from './session';

/** What the viewer is told when the session cannot be renewed (the API's own 401 text). */
export const SESSION_EXPIRED_MESSAGE = AUTH_MESSAGES.sessionExpired;

/** No refresh token, or the API refused it (expired, revoked, replayed): the session is over. */
export class SessionExpiredError extends Error {
  constructor() {
    super(SESSION_EXPIRED_MESSAGE);
    this.name = 'SessionExpiredError';
  }
}

type Headers = Record<string, string>;
const bearer = (token: string): Headers => ({ Authorization: `Bearer ${token}` });

let goToLogin: () => void = () => window.location.assign('/dang-nhap');

/** main.tsx hands in the router's navigation, so an expired session goes to /dang-nhap without a reload. */
export function onSessionExpired(navigate: () => void): void {
  goToLogin = navigate;
}

/**
 * True when the access token's exp (JWT payload, not verified here: the API does that) is past or
 * within `marginMs`. A token we cannot read is left for the API to judge.
 */
export function tokenExpiring(token: string, marginMs = 30_000, now = Date.now()): boolean {
  try {
    const part = token.split('.')[1];
    if (!part) return false;
    const json = atob(
      part
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(part.length / 4) * 4, '='),
    );
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' && exp * 1000 - marginMs <= now;
  } catch {
    return false;
  }
}

let inflight: Promise<string> | null = null;

/**
 * Exchanges the refresh token for a new access token (POST /api/refresh_token) and stores both.
 * One exchange at a time in this tab: concurrent callers share the same promise, because the API
 * revokes the whole session when a refresh token is used twice (docs/decisions/0200).
 * Rejects with SessionExpiredError when there is no refresh token or the API refuses it; other
 * failures (offline, 5xx) reject with the error itself and leave the session as it is.
 */
export function refreshAccessToken(): Promise<string> {
  inflight ??= (async () => {
    const refreshToken = getRefreshToken();
    // A remembered session has no refresh token in storage: the HttpOnly cookie carries it.
    if (!refreshToken && !isRemembered()) throw new SessionExpiredError();
    const exchange = async () => {
      const res = await api.api.refresh_token.$post({ json: refreshToken ? { token: refreshToken } : {} });
      // The route's type knows only its 200; errors come from the app's onError.
      const status: number = res.status;
      if (status === 400 || status === 401 || status === 403) throw new SessionExpiredError();
      if (!res.ok) throw new Error(`Request failed with status code ${res.status}`);
      const body = await res.json();
      storeTokens(body.tokennew, body.refreshToken);
      return body.tokennew;
    };
    return refreshToken ? exchange() : acrossTabs(exchange);
  })().finally(() => {
    inflight = null;
  });
  return inflight;
}

/**
 * Every tab of a remembered session spends the same cookie: two exchanges at once would be a replay and
 * sign the session out everywhere (docs/decisions/0200), so they take turns through a Web Lock; each
 * then sends the cookie the previous one left. Without Web Locks (old browsers) the tab goes alone.
 */
function acrossTabs<T>(exchange: () => Promise<T>): Promise<T> {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  return locks ? locks.request('phimviet-refresh-cookie', exchange) : exchange();
}

/**
 * A new tab or a relaunch of a remembered session: an access token through the cookie, then who the
 * viewer is now (GET /api/account: name, roles and permissions as the API applies them), kept in this
 * tab's session storage like any sign-in. Nothing happens for a session that is not remembered or is
 * already in this tab. Offline or failing: the page starts signed out and the flag stays for next time;
 * refused (expired, revoked): the flag is dropped.
 */
export async function restoreRememberedSession(): Promise<boolean> {
  if (getToken() || !isRemembered()) return false;
  try {
    const token = await refreshAccessToken();
    const res = await api.api.account.$get(undefined, { headers: bearer(token) });
    if (!res.ok) throw new SessionExpiredError();
    const account = await res.json();
    storeSession({ token, ...account });
    return true;
  } catch (error) {
    // Refused: the session is over. Offline or failing half-way: no half session in this tab, try next time.
    if (error instanceof SessionExpiredError) signOut();
    else clearTabSession();
    return false;
  }
}

/** Alert, clear the session, go to /dang-nhap. Once, however many calls hit it together. */
function expireSession(): void {
  if (!getSession() && !getRefreshToken()) return;
  window.alert(SESSION_EXPIRED_MESSAGE);
  signOut({ expired: true });
  goToLogin();
}

async function renew(mode: 'interactive' | 'quiet'): Promise<string> {
  try {
    return await refreshAccessToken();
  } catch (error) {
    if (error instanceof SessionExpiredError) {
      if (mode === 'interactive') expireSession();
      else signOut();
    }
    throw error;
  }
}

/**
 * A call that needs the viewer (comment, reply, rating, account): sent with the Bearer token; on
 * 401/403 the token is renewed and the same call retried once. When the session cannot
 * be renewed the viewer is told and sent to /dang-nhap, and SessionExpiredError is thrown.
 * The caller checks that someone is signed in first (the spec's own alerts differ per action).
 */
export async function authedCall<R extends { status: number }>(call: (headers: Headers) => Promise<R>): Promise<R> {
  const stored = getToken();
  if (!stored) throw new SessionExpiredError();
  // An access token we know is stale costs a 401 round trip for nothing: renew it first.
  const token = tokenExpiring(stored) ? await renew('interactive') : stored;
  const res = await call(bearer(token));
  if (res.status !== 401 && res.status !== 403) return res;
  // Another call may have renewed the token while this one was in flight: use that one.
  const current = getToken();
  const next = current && current !== token ? current : await renew('interactive');
  return call(bearer(next));
}

/**
 * Headers for a read that is personal only when signed in (film detail: VIP access and the
 * viewer's own rating; episode links of VIP films). A stale token is renewed first; if the session
 * cannot be renewed the viewer quietly continues signed out (browsing needs no alert).
 */
export async function readHeaders(): Promise<Headers> {
  const token = getToken();
  if (!token) return {};
  if (!tokenExpiring(token)) return bearer(token);
  try {
    return bearer(await renew('quiet'));
  } catch {
    // Offline or 5xx: the stale token at worst reads as anonymous.
    const again = getToken();
    return again ? bearer(again) : {};
  }
}
