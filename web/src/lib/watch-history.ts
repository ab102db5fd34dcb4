import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { ProgressEntry } from '../../../worker/schemas/library';
import { api } from './api-client';
import { readHeaders } from './auth-request';
import { queueProgress } from './library-sync';
import { type EpisodeMark, type EpisodeProgress, episodeMarks } from './resume-point';
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
  /** Every episode of the film this device played: [seconds, duration, updatedAt] by episode (the lists' ✓ and bars). */
  episodes?: Record<string, [number, number, number]>;
}

/** Episodes kept per film in `episodes` (the newest): a long series' list stays small. */
const MAX_EPISODES = 300;

/** Also read by lib/resume-point.ts (the stream's start path, which cannot wait for this module). */
const KEY = 'phimviet:watch-history';
const MAX = 20;
const listeners = new Set<() => void>();
let cache: { raw: string | null; list: WatchEntry[] } | undefined;

/** Parsed once and kept; our writes and other tabs' 'storage' events drop the copy. */
/**
 * The one empty list: what the host rendered with (useWatchHistory's server snapshot) and what a device with no
 * history reads, so hydrating such a page finds the same value and does not render it again at once (React
 * re-renders a store's readers synchronously when the client's snapshot differs from the server's).
 */
const EMPTY: WatchEntry[] = [];

function load(): WatchEntry[] {
  if (cache) return cache.list;
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(KEY);
  } catch {
    cache = { raw: null, list: EMPTY };
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
  cache = { raw, list: list.length ? list : EMPTY };
  return cache.list;
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
  // An episode opened at 0 s is not progress: an episode watched before keeps its mark.
  const episodes = moved && (entry.time > 0 || entry.duration > 0) ? withEpisode(prev?.episodes, entry, updatedAt) : prev?.episodes;
  store([{ ...entry, updatedAt, ...(episodes ? { episodes } : {}) }, ...load().filter((e) => e.slug !== entry.slug)]);
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

function withEpisode(
  episodes: WatchEntry['episodes'],
  entry: Pick<WatchEntry, 'episode' | 'time' | 'duration'>,
  updatedAt: number,
): NonNullable<WatchEntry['episodes']> {
  const next: NonNullable<WatchEntry['episodes']> = { ...episodes, [entry.episode]: [entry.time, entry.duration || 0, updatedAt] };
  const keys = Object.keys(next);
  if (keys.length <= MAX_EPISODES) return next;
  const oldest = keys.sort((a, b) => next[a]![2] - next[b]![2]).slice(0, keys.length - MAX_EPISODES);
  for (const key of oldest) delete next[key];
  return next;
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
  const adopted = current?.episodes ? { ...entry, episodes: current.episodes } : entry;
  store([adopted, ...load().filter((e) => e.slug !== entry.slug)].sort((a, b) => b.updatedAt - a.updatedAt));
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

export function useWatchHistory(): WatchEntry[] {
  return useSyncExternalStore(subscribe, load, () => EMPTY);
}

/** GET /api/me/progress?slug=: every episode of the film the member has progress in (any device), newest first. */
const filmProgressQuery = (member: string, slug: string) =>
  queryOptions({
    queryKey: ['me', member, 'progress', slug] as const,
    queryFn: async (): Promise<ProgressEntry[]> => {
      const res = await api.api.me.progress.$get({ query: { slug } }, { headers: await readHeaders() });
      if (!res.ok) throw new Error(`progress ${res.status}`);
      return (await res.json()).data;
    },
    staleTime: 15_000,
    retry: false,
  });

/** A member's progress in the film from the account (every device's); nothing for a visitor or offline. */
function useAccountProgress(slug: string): ProgressEntry[] | undefined {
  const member = useSession()?.id;
  return useQuery({ ...filmProgressQuery(member ?? '', slug), enabled: !!member }).data;
}

/**
 * Where the viewer stopped in this film: the device's entry, replaced for a member by the account's
 * newest position when that is newer (another device watched further). `film` names the entry.
 */
export function useWatchEntry(slug: string, film: { title: string; poster: string }): WatchEntry | undefined {
  const entry = useWatchHistory().find((e) => e.slug === slug);
  const member = useSession()?.id;
  const account = useAccountProgress(slug);
  const { title, poster } = film;
  useEffect(() => {
    const newest = account?.[0];
    if (!member || !newest || getSession()?.id !== member) return;
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
  }, [account, member, slug, title, poster]);
  return entry;
}

/**
 * The film's episode list marks (✓ watched, a bar for partly watched): this device's plays of each episode and, for a
 * member, the account's (the member's other devices), the newer of the two per episode (lib/resume-point.ts).
 */
export function useEpisodeMarks(slug: string): ReadonlyMap<number, EpisodeMark> {
  const entry = useWatchHistory().find((e) => e.slug === slug);
  const account = useAccountProgress(slug);
  return useMemo(() => {
    const records: EpisodeProgress[] = [];
    if (entry) {
      for (const [episode, [time, duration, updatedAt]] of Object.entries(entry.episodes ?? {}))
        records.push({ episode: Number(episode), time, duration, updatedAt });
      // The entry itself (an account's adopted position, or one saved before episodes were kept), unless it is an
      // episode just opened at 0 s, which says nothing of an earlier play of it.
      if (entry.time > 0 || entry.duration > 0) records.push(entry);
    }
    for (const p of account ?? []) records.push({ episode: p.episode, time: p.position, duration: p.duration, updatedAt: p.updatedAt });
    return episodeMarks(records);
  }, [entry, account]);
}
