import { useSyncExternalStore } from 'react';

/**
 * The viewer's session: logged in when a token and a name are in session storage.
 * Components read `useSession()`; the router context carries the same value as `auth`. Sign-in,
 * refresh and sign-out (features/auth) write it through the store functions below.
 */
export interface Session {
  token: string;
  id: string;
  name: string;
  email: string;
  roles: string[];
  permissions: string[];
}

const listeners = new Set<() => void>();
let cached: { session: Session | null } | undefined;

/** Read once and kept: notifySessionChanged() and 'storage' events drop the copy. */
function read(): Session | null {
  if (cached) return cached.session;
  try {
    sessionStorage.getItem('token');
  } catch {
    cached = { session: null };
    return null;
  }
  const get = (k: string) => sessionStorage.getItem(k) ?? '';
  const list = (k: string) =>
    get(k)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const session =
    get('token') && get('name')
      ? {
          token: get('token'),
          id: get('id'),
          name: get('name'),
          email: get('email'),
          roles: list('roles'),
          permissions: list('permissions'),
        }
      : null;
  cached = { session };
  return session;
}

/** Call after changing session storage so every reader re-renders. */
export function notifySessionChanged(): void {
  cached = undefined;
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  const onStorage = () => {
    cached = undefined;
    listener();
  };
  listeners.add(listener);
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Outside React (the library's sync): called whenever the session may have changed (sign-in, sign-out, other tabs). */
export function onSessionChanged(listener: () => void): () => void {
  return subscribe(listener);
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, read, () => null);
}

export function getSession(): Session | null {
  return read();
}

/** The session storage keys the product specifies. */
export const SESSION_KEYS = ['token', 'refreshToken', 'id', 'name', 'email', 'roles', 'permissions'] as const;

/** What sign-in answers (POST /api/dang-nhap, and a password change): stored under the specified keys. */
export interface SignedIn {
  token: string;
  /** Absent for a remembered session: its refresh token is in an HttpOnly cookie, out of script's reach. */
  refreshToken?: string;
  id: number | string;
  name: string;
  email: string;
  roles: string[];
  permissions: string[];
}

export function storeSession(s: SignedIn): void {
  sessionStorage.setItem('token', s.token);
  setOrRemove('refreshToken', s.refreshToken);
  sessionStorage.setItem('id', String(s.id));
  sessionStorage.setItem('name', s.name);
  sessionStorage.setItem('email', s.email);
  sessionStorage.setItem('roles', s.roles.join(','));
  sessionStorage.setItem('permissions', s.permissions.join(','));
  notifySessionChanged();
}

/** After a refresh: the new access token and the rotated refresh token (none when the cookie holds it). */
export function storeTokens(token: string, refreshToken?: string): void {
  sessionStorage.setItem('token', token);
  setOrRemove('refreshToken', refreshToken);
  notifySessionChanged();
}

function setOrRemove(key: string, value: string | undefined): void {
  if (value) sessionStorage.setItem(key, value);
  else sessionStorage.removeItem(key);
}

/**
 * "Ghi nhớ đăng nhập" (docs/decisions/0204-remembered-sessions.md): this browser holds a remembered
 * session, whose refresh token is in the HttpOnly cookie. Only this flag is in local storage, no secret:
 * it tells a new tab or a relaunch to ask the API for an access token through the cookie.
 */
const REMEMBER_KEY = 'phimviet:remember';

export function isRemembered(): boolean {
  try {
    return localStorage.getItem(REMEMBER_KEY) === '1';
  } catch {
    return false;
  }
}

export function setRemembered(on: boolean): void {
  try {
    if (on) localStorage.setItem(REMEMBER_KEY, '1');
    else localStorage.removeItem(REMEMBER_KEY);
  } catch {
    // Storage refused (private mode): the session simply is not remembered.
  }
}

/** Roles and permissions as the API reads them now (they may change while signed in). */
export function storeRights(roles: string[], permissions: string[]): void {
  sessionStorage.setItem('roles', roles.join(','));
  sessionStorage.setItem('permissions', permissions.join(','));
  notifySessionChanged();
}

/** The access token as stored right now (not the render cache): what an API call must send. */
export function getToken(): string | null {
  try {
    return sessionStorage.getItem('token') || null;
  } catch {
    return null;
  }
}

export function getRefreshToken(): string | null {
  try {
    return sessionStorage.getItem('refreshToken') || null;
  } catch {
    return null;
  }
}

/** Removes this tab's tokens and identity (a remembered session stays remembered), then tells every reader. */
export function clearTabSession(): void {
  for (const k of SESSION_KEYS) sessionStorage.removeItem(k);
  notifySessionChanged();
}

/** Logout: removes this tab's tokens and identity and forgets a remembered session, then tells every reader. */
let endedByExpiry = false;

/**
 * Signs this tab out. `expired`: the API refused the session (a device signed out from another, a password
 * reset elsewhere): pages that leave on sign-out then send the viewer to /dang-nhap rather than home.
 */
export function signOut(options: { expired?: boolean } = {}): void {
  endedByExpiry = options.expired === true;
  setRemembered(false);
  clearTabSession();
}

/** Whether the latest sign-out of this tab was the API ending the session (see signOut). */
export const sessionEndedByExpiry = (): boolean => endedByExpiry;

export const isAdmin = (s: Session | null) => !!s?.roles.includes('admin');
export const hasVip2 = (s: Session | null) => !!s?.permissions.includes('VIP2');
