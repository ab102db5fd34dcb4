// The viewer's library on the web: the list ("Tủ phim") behind every heart, and "Xem tiếp". A member's
// come from the account (/api/me/*), written through the outbox of lib/library-sync.ts; a visitor's
// live on the device and merge into the account at sign-in (docs/decisions/0800-member-library.md).
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { createContext, createElement, type ReactNode, useContext, useMemo, useSyncExternalStore } from 'react';
import type { FilmCard } from '../../../worker/schemas/catalogue';
import type { HistoryResponse, WatchlistItem, WatchlistResponse } from '../../../worker/schemas/library';
import { api, unwrap } from './api-client';
import { authedCall } from './auth-request';
import {
  flushOutbox,
  forgetListCopy,
  queueProgressItems,
  queueWatchlist,
  readListCopy,
  saveListCopy,
  startLibrarySync,
} from './library-sync';
import { getSession, onSessionChanged, useSession } from './session';
import { clearWatchEntries, removeWatchEntry, useWatchHistory, type WatchEntry } from './watch-history';

// ---------------------------------------------------------------------------------------------
// A visitor's list, on the device

const VISITOR_KEY = 'phimviet:watchlist';
interface VisitorEntry {
  slug: string;
  addedAt: number;
  film: FilmCard;
}
const visitorListeners = new Set<() => void>();
let visitorCache: VisitorEntry[] | undefined;

/** The one empty list, the server snapshot's too: a device with none hydrates without rendering again at once. */
const NO_ENTRIES: VisitorEntry[] = [];

function visitorList(): VisitorEntry[] {
  if (visitorCache) return visitorCache;
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(VISITOR_KEY) ?? '[]');
    const list = Array.isArray(parsed) ? parsed.filter((e): e is VisitorEntry => !!e && typeof e.slug === 'string') : [];
    visitorCache = list.length ? list : NO_ENTRIES;
  } catch {
    visitorCache = NO_ENTRIES;
  }
  return visitorCache;
}

function storeVisitorList(list: VisitorEntry[]) {
  try {
    if (list.length) localStorage.setItem(VISITOR_KEY, JSON.stringify(list));
    else localStorage.removeItem(VISITOR_KEY);
  } catch {
    return;
  }
  visitorCache = undefined;
  for (const l of visitorListeners) l();
}

function subscribeVisitor(cb: () => void) {
  visitorListeners.add(cb);
  const onStorage = (e: StorageEvent) => {
    if (e.key !== VISITOR_KEY && e.key !== null) return;
    visitorCache = undefined;
    cb();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    visitorListeners.delete(cb);
    window.removeEventListener('storage', onStorage);
  };
}

function useVisitorList(): VisitorEntry[] {
  return useSyncExternalStore(subscribeVisitor, visitorList, () => NO_ENTRIES);
}

// ---------------------------------------------------------------------------------------------
// A member's list, from the account

export const watchlistKey = (userId: string) => ['me', userId, 'watchlist'] as const;

/** GET /api/me/watchlist; offline, the last copy kept on the device. */
export const watchlistQuery = (userId: string) =>
  queryOptions({
    queryKey: watchlistKey(userId),
    queryFn: async (): Promise<WatchlistResponse & { offline?: boolean }> => {
      try {
        const list = await unwrap(authedCall((headers) => api.api.me.watchlist.$get({}, { headers })));
        void saveListCopy(list);
        return list;
      } catch (error) {
        const copy = await readListCopy<WatchlistResponse>();
        if (copy && (error instanceof TypeError || !navigator.onLine)) return { ...copy, offline: true };
        throw error;
      }
    },
    staleTime: 30_000,
    networkMode: 'always',
  });

export interface WatchlistSlugs {
  slugs: ReadonlySet<string>;
  ready: boolean;
}

/**
 * The list the hearts read: the member's from the account (signed in) or the device's (visitor). Read once
 * for the whole page (WatchlistSlugsProvider), not once per heart: a page of cards had a query observer and a
 * Set per card, a tenth of a home page's render on the host.
 */
function useWatchlistSlugsOnce(): WatchlistSlugs {
  const session = useSession();
  const visitor = useVisitorList();
  const member = useQuery({ ...watchlistQuery(session?.id ?? ''), enabled: !!session });
  const memberData = member.data;
  const ready = !session || member.isSuccess;
  return useMemo(
    () => ({
      slugs: new Set(session ? (memberData?.data.map((i) => i.slug) ?? []) : visitor.map((e) => e.slug)),
      ready,
    }),
    [session, visitor, memberData, ready],
  );
}

const WatchlistSlugsContext = createContext<WatchlistSlugs | null>(null);

/** Holds the hearts' list for everything below it (the app's root). */
export function WatchlistSlugsProvider({ children }: { children: ReactNode }) {
  return createElement(WatchlistSlugsContext.Provider, { value: useWatchlistSlugsOnce() }, children);
}

export function useWatchlistSlugs(): WatchlistSlugs {
  const value = useContext(WatchlistSlugsContext);
  if (!value) throw new Error('useWatchlistSlugs needs a WatchlistSlugsProvider above it');
  return value;
}

/** Items of the list page: the member's (with what is new) or the visitor's. */
export function useWatchlistItems() {
  const session = useSession();
  const visitor = useVisitorList();
  const member = useQuery({ ...watchlistQuery(session?.id ?? ''), enabled: !!session });
  if (!session) {
    const data: WatchlistItem[] = visitor.map((e) => ({ slug: e.slug, addedAt: e.addedAt, notify: false, film: e.film, newEpisodes: [] }));
    return { data, seenAt: null, offline: false, isPending: false, error: null as Error | null };
  }
  return {
    data: member.data?.data ?? [],
    seenAt: member.data?.seenAt ?? null,
    offline: !!member.data?.offline,
    isPending: member.isPending,
    error: member.error,
  };
}

function setMemberList(queryClient: QueryClient, userId: string, change: (list: WatchlistItem[]) => WatchlistItem[]) {
  queryClient.setQueryData<WatchlistResponse & { offline?: boolean }>(watchlistKey(userId), (old) => {
    const next = { ...(old ?? { seenAt: null }), data: change(old?.data ?? []) };
    void saveListCopy({ data: next.data, seenAt: next.seenAt });
    return next;
  });
}

/**
 * Adds or removes a film. A member's change shows at once and goes through the outbox (sent now, or
 * when the connection returns); a visitor's stays on the device until sign-in.
 */
export async function setInWatchlist(queryClient: QueryClient, film: FilmCard, on: boolean): Promise<void> {
  const session = getSession();
  if (!session) {
    const rest = visitorList().filter((e) => e.slug !== film.slug);
    storeVisitorList(on ? [{ slug: film.slug, addedAt: Date.now(), film }, ...rest] : rest);
    return;
  }
  setMemberList(queryClient, session.id, (list) => {
    const rest = list.filter((i) => i.slug !== film.slug);
    return on ? [{ slug: film.slug, addedAt: Date.now(), notify: true, film, newEpisodes: [] }, ...rest] : rest;
  });
  await queueWatchlist(film.slug, on);
  if (navigator.onLine) await queryClient.invalidateQueries({ queryKey: watchlistKey(session.id) });
}

/** Turns new-episode pushes for one film on or off (the bell on the list page). */
export async function setNotify(queryClient: QueryClient, slug: string, notify: boolean): Promise<void> {
  const session = getSession();
  if (!session) return;
  setMemberList(queryClient, session.id, (list) => list.map((i) => (i.slug === slug ? { ...i, notify } : i)));
  await queueWatchlist(slug, true, notify);
}

/** The list page was opened: what is "mới" is counted from now next time. */
export async function markListSeen(): Promise<void> {
  if (!getSession()) return;
  await authedCall((headers) => api.api.me.watchlist.seen.$post({}, { headers })).catch(() => undefined);
}

// ---------------------------------------------------------------------------------------------
// History and "Xem tiếp"

export const historyKey = (userId: string) => ['me', userId, 'history'] as const;

export const historyQuery = (userId: string, page: number) =>
  queryOptions({
    queryKey: [...historyKey(userId), page] as const,
    queryFn: (): Promise<HistoryResponse> =>
      unwrap(authedCall((headers) => api.api.me.history.$get({ query: { page: String(page) } }, { headers }))),
    staleTime: 15_000,
  });

/** An account history row as the device's watch entry (what the history list and "Xem tiếp" show). */
export function entryOf(h: HistoryResponse['data'][number]): WatchEntry {
  return {
    slug: h.slug,
    title: h.film.title,
    poster: h.film.thumb || h.film.hinhanh,
    episode: h.episode,
    server: '',
    time: h.position,
    duration: h.duration,
    updatedAt: h.updatedAt,
  };
}

/** "Xem tiếp": the account's history for a member (the device's while it loads or offline), the device's for a visitor. */
export function useContinueWatching(): WatchEntry[] {
  const session = useSession();
  const device = useWatchHistory();
  const server = useQuery({ ...historyQuery(session?.id ?? '', 1), enabled: !!session });
  if (!session || !server.data) return device;
  return server.data.data.map(entryOf);
}

/** Removes a film from "Xem tiếp" and the history (the account's too for a member). */
export async function forgetWatched(queryClient: QueryClient, slug: string): Promise<void> {
  removeWatchEntry(slug);
  const session = getSession();
  if (!session) return;
  await unwrap(authedCall((headers) => api.api.me.history[':slug'].$delete({ param: { slug } }, { headers })));
  await queryClient.invalidateQueries({ queryKey: historyKey(session.id) });
}

/** Clears the whole history (the account's and this device's). */
export async function clearWatched(queryClient: QueryClient): Promise<void> {
  const session = getSession();
  if (session) await unwrap(authedCall((headers) => api.api.me.history.$delete({}, { headers })));
  clearWatchEntries();
  if (session) await queryClient.invalidateQueries({ queryKey: historyKey(session.id) });
}

// ---------------------------------------------------------------------------------------------
// Sign-in merge

const mergedKey = (userId: string) => `phimviet:library-merged:${userId}`;

/**
 * A visitor's list and this device's progress since the last merge go into the account of whoever
 * signs in on it, then the outbox is sent.
 */
async function mergeIntoAccount(queryClient: QueryClient): Promise<void> {
  const session = getSession();
  if (!session) return;
  let since = 0;
  try {
    since = Number(localStorage.getItem(mergedKey(session.id)) ?? 0) || 0;
  } catch {
    return;
  }
  const now = Date.now();
  const progress = JSON.parse(localStorage.getItem('phimviet:watch-history') ?? '[]') as WatchEntry[];
  const items = (Array.isArray(progress) ? progress : [])
    .filter((e) => e && e.updatedAt > since && (e.time > 0 || e.duration > 0))
    .map((e) => ({ slug: e.slug, episode: e.episode, position: e.time, duration: e.duration || 0, updatedAt: Math.min(e.updatedAt, now) }));
  const visitor = visitorList();
  // Into the outbox first (it survives a reload), then the device's copies are forgotten. Oldest first,
  // so the list's newest-first order matches the visitor's.
  for (const entry of [...visitor].reverse()) await queueWatchlist(entry.slug, true, undefined, false);
  await queueProgressItems(items, false);
  storeVisitorList([]);
  localStorage.setItem(mergedKey(session.id), String(now));
  await flushOutbox();
  if (visitor.length || items.length) await queryClient.invalidateQueries({ queryKey: ['me', session.id] });
}

let wired = false;
/** Starts the library in the browser: the outbox's triggers, and the merge whenever someone signs in. */
export function startLibrary(queryClient: QueryClient): void {
  if (wired || typeof window === 'undefined') return;
  wired = true;
  startLibrarySync();
  let member = getSession()?.id ?? null;
  void mergeIntoAccount(queryClient);
  onSessionChanged(() => {
    const now = getSession()?.id ?? null;
    if (now === member) return;
    if (member && !now) {
      void forgetListCopy(member);
      queryClient.removeQueries({ queryKey: ['me', member] });
    }
    member = now;
    if (now) void mergeIntoAccount(queryClient);
  });
}
