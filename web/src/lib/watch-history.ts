import { useEffect, useSyncExternalStore } from 'react';
import { api } from './api-client';
import { readHeaders } from './auth-request';
import { queueProgress } from './library-sync';
import { getSession, useSession } from './session';

/**
 * Where this device stopped in each film: feeds "Xem tiếp" on home and resume on the watch page. For a
 * signed-in member every save is also sent to the account (lib/library-sync.ts), and the account's
 * newest position of a film replaces this device's when it is newer (useWatchEntry).
 */
export interface WatchEntry {
  slug: string;
  title: string;
  poster: string;
  episode: number;
  server: string;
  /** Seconds into the episode. */
  time: number;
  duration: number;
  /** Where the episode's credits start, as viewers taught (issue 40 §7); the film page's resume rule reads it. */
  credits?: number;
  updatedAt: number;
}

/** Also read by lib/resume-point.ts (the stream's start path, which cannot wait for this module). */
const KEY = 'phimviet:watch-history';
const MAX = 20;
const listeners = new Set<() => void>();
let cache: { raw: string | null; list: WatchEntry[] } | undefined;

/** Parsed once and kept; our writes and other tabs' 'storage' events drop the copy. */
function load(): WatchEntry[] {
  if (cache) return cache.list;
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(KEY);
  } catch {
    cache = { raw: null, list: [] };
    return cache.list;
  }
  let list: WatchEntry[] = [];
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (Array.isArray(parsed))
      list = parsed.filter((e): e is WatchEntry => !!e && typeof e.slug === 'string' && typeof e.episode === 'number');
  } catch {
    list = [];
  }
  cache = { raw, list };
  return list;
}

export function getWatchEntry(slug: string): WatchEntry | undefined {
  return load().find((e) => e.slug === slug);
}

function store(list: WatchEntry[]): boolean {
  try {
    localStorage.setItem(KEY, JSON.stringify(list.slice(0, MAX)));
  } catch {
    return false;
  }
  cache = undefined;
  for (const l of listeners) l();
  return true;
}

/**
 * Records progress; the film moves to the front. Quota errors are ignored (history is a nicety). A
 * member's progress also goes to the account, batched (lib/library-sync.ts).
 */
export function saveWatchEntry(entry: Omit<WatchEntry, 'updatedAt'>): void {
  const prev = getWatchEntry(entry.slug);
  // Saving the same position again (the watch page opening an episode) is not progress: it keeps its
  // time, so a newer position from another device still wins, and is not sent.
  const moved = !prev || prev.episode !== entry.episode || prev.time !== entry.time || prev.duration !== entry.duration;
  const updatedAt = prev && !moved ? prev.updatedAt : Date.now();
  store([{ ...entry, updatedAt }, ...load().filter((e) => e.slug !== entry.slug)]);
  // A position of 0 with no duration is "opened the episode", not progress worth sending.
  if (moved && (entry.time > 0 || entry.duration > 0)) {
    queueProgress({
      slug: entry.slug,
      episode: entry.episode,
      position: Math.max(0, entry.time),
      duration: Math.max(0, Number.isFinite(entry.duration) ? entry.duration : 0),
      updatedAt,
    });
  }
}

export function removeWatchEntry(slug: string): void {
  store(load().filter((e) => e.slug !== slug));
}

/** Forgets every film on this device (the history page's "clear all"). */
export function clearWatchEntries(): void {
  store([]);
}

/** The account's position of a film, kept on the device when newer than the device's own (not sent back). */
function adoptServerEntry(entry: WatchEntry): void {
  const current = getWatchEntry(entry.slug);
  // An entry at 0 s is the watch page having opened the episode here, not a position: the account's wins.
  if (current && current.updatedAt >= entry.updatedAt && current.time > 0) return;
  store([entry, ...load().filter((e) => e.slug !== entry.slug)].sort((a, b) => b.updatedAt - a.updatedAt));
}

function subscribe(cb: () => void) {
  listeners.add(cb);
  const onStorage = (e: StorageEvent) => {
    if (e.key !== KEY && e.key !== null) return;
    cache = undefined;
    cb();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(cb);
    window.removeEventListener('storage', onStorage);
  };
}

const EMPTY: WatchEntry[] = [];
export function useWatchHistory(): WatchEntry[] {
  return useSyncExternalStore(subscribe, load, () => EMPTY);
}

/**
 * Where the viewer stopped in this film: the device's entry, replaced for a member by the account's
 * newest position when that is newer (another device watched further). `film` names the entry.
 */
export function useWatchEntry(slug: string, film: { title: string; poster: string }): WatchEntry | undefined {
  const entry = useWatchHistory().find((e) => e.slug === slug);
  const member = useSession()?.id;
  const { title, poster } = film;
  useEffect(() => {
    if (!member) return;
    let live = true;
    void (async () => {
      try {
        const res = await api.api.me.progress.$get({ query: { slug } }, { headers: await readHeaders() });
        if (!res.ok || !live || getSession()?.id !== member) return;
        const newest = (await res.json()).data[0];
        if (!newest) return;
        const local = getWatchEntry(slug);
        adoptServerEntry({
          slug,
          title,
          poster,
          episode: newest.episode,
          server: local?.episode === newest.episode ? local.server : '',
          time: newest.position,
          duration: newest.duration,
          updatedAt: newest.updatedAt,
        });
      } catch {
        // Offline: the device's own entry stands.
      }
    })();
    return () => {
      live = false;
    };
  }, [member, slug, title, poster]);
  return entry;
}
