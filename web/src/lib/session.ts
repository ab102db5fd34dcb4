import { useSyncExternalStore } from 'react';

/**
 * The viewer's session as the header and comments need it (SPEC.md §4: logged in when a token and a
 * name are in session storage). The "Accounts" issue owns sign-in/out and replaces the storage
 * details; components only read `useSession()` and call `signOut()`.
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
  const list = (k: string) => get(k).split(',').map((s) => s.trim()).filter(Boolean);
  const session = get('token') && get('name')
    ? { token: get('token'), id: get('id'), name: get('name'), email: get('email'), roles: list('roles'), permissions: list('permissions') }
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

export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, read, () => null);
}

export function getSession(): Session | null {
  return read();
}

/** SPEC.md §4 logout: removes the tokens and identity, then tells every reader. */
/** Session storage keys of SPEC.md §3. */
export const SESSION_KEYS = ['token', 'refreshToken', 'id', 'name', 'email', 'roles', 'permissions'] as const;

export function signOut(): void {
  for (const k of SESSION_KEYS) sessionStorage.removeItem(k);
  notifySessionChanged();
}

export const isAdmin = (s: Session | null) => !!s?.roles.includes('admin');
export const hasVip2 = (s: Session | null) => !!s?.permissions.includes('VIP2');
