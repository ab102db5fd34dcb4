import { useSyncExternalStore } from 'react';

/** Where this device stopped in each film: feeds "Xem tiếp" on home and resume on the watch page. */
export interface WatchEntry {
  slug: string;
  title: string;
  poster: string;
  episode: number;
  server: string;
  /** Seconds into the episode. */
  time: number;
  duration: number;
  updatedAt: number;
}

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

/** Records progress; the film moves to the front. Quota errors are ignored (history is a nicety). */
export function saveWatchEntry(entry: Omit<WatchEntry, 'updatedAt'>): void {
  const list = [{ ...entry, updatedAt: Date.now() }, ...load().filter((e) => e.slug !== entry.slug)].slice(0, MAX);
  try {
    localStorage.setItem(KEY, JSON.stringify(list));
  } catch {
    return;
  }
  cache = undefined;
  for (const l of listeners) l();
}

export function removeWatchEntry(slug: string): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(load().filter((e) => e.slug !== slug)));
  } catch {
    return;
  }
  cache = undefined;
  for (const l of listeners) l();
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
