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

const KEYS = ['token', 'refreshToken', 'id', 'name', 'email', 'roles', 'permissions'] as const;
const listeners = new Set<() => void>();
let cached: { raw: string; session: Session | null } = { raw: '', session: null };

function read(): Session | null {
  let raw = '';
  try {
    raw = KEYS.map((k) => sessionStorage.getItem(k) ?? '').join('\u0000');
  } catch {
    return null;
  }
  if (raw === cached.raw) return cached.session;
  const get = (k: string) => sessionStorage.getItem(k) ?? '';
  const list = (k: string) => get(k).split(',').map((s) => s.trim()).filter(Boolean);
  const session = get('token') && get('name')
    ? { token: get('token'), id: get('id'), name: get('name'), email: get('email'), roles: list('roles'), permissions: list('permissions') }
    : null;
  cached = { raw, session };
  return session;
}

/** Call after changing session storage so every reader re-renders. */
export function notifySessionChanged(): void {
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, read, () => null);
}

export function getSession(): Session | null {
  return read();
}

/** SPEC.md §4 logout: removes the tokens and identity, then tells every reader. */
export function signOut(): void {
  for (const k of ['token', 'email', 'refreshToken', 'id', 'name', 'roles', 'permissions']) sessionStorage.removeItem(k);
  notifySessionChanged();
}

export const isAdmin = (s: Session | null) => !!s?.roles.includes('admin');
export const hasVip2 = (s: Session | null) => !!s?.permissions.includes('VIP2');
