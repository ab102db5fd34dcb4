// Downloads kept on the device (issue 26, DESIGN §18, docs/decisions/0960-offline-downloads.md).
// Bytes (playlists, segments, keys, subtitles) live in Cache Storage, one cache per episode, under synthetic
// same-origin URLs `/offline-media/{id}/…` that only the player's offline loader answers. What was downloaded,
// its state and progress live here, in IndexedDB through `idb`: a versioned database whose upgrades migrate,
// never drop, so an app update keeps every download. Shared by the player (offline playback), the downloads
// feature and the routes; it holds no React beyond the two hooks at the end.
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import { useEffect, useState } from 'react';
import type { FilmDetailResponse } from '../../../../worker/schemas/catalogue';
import { CACHE_PREFIX, cacheNameOf } from './names';

export type DownloadState = 'queued' | 'downloading' | 'paused' | 'error' | 'done';
/** Why an episode is paused or failed: the viewer paused it, the device ran out of space, the source failed. */
export type DownloadReason = 'user' | 'quota' | 'network' | 'source';

export interface DownloadRecord {
  /** `${slug}~${episode}`: one copy per episode, whatever its server. */
  id: string;
  slug: string;
  episode: number;
  server: string;
  filmTitle: string;
  poster: string;
  /** The chosen level's height (540), 0 when the stream does not say. */
  height: number;
  bandwidth: number;
  state: DownloadState;
  reason?: DownloadReason;
  /** Files to store (segments, keys, init segments, subtitle files) and how many are stored. */
  total: number;
  done: number;
  /** Bytes stored so far, and the estimate (bandwidth × duration) before it is all there. */
  bytes: number;
  estimate: number;
  /** Seconds of film (after the ad filter). */
  duration: number;
  createdAt: number;
  updatedAt: number;
}

/** One file to fetch: where it comes from, and its path under the episode's offline URL. */
export interface PlanItem {
  src: string;
  path: string;
  /** `bytes=a-b` for #EXT-X-BYTERANGE segments. */
  range?: string;
}

export interface DownloadPlan {
  id: string;
  items: PlanItem[];
}

interface Schema extends DBSchema {
  episodes: { key: string; value: DownloadRecord; indexes: { slug: string } };
  plans: { key: string; value: DownloadPlan };
  /** The film's detail as the watch page shows it, so a downloaded episode's page opens with no network. */
  films: { key: string; value: { slug: string; data: FilmDetailResponse; savedAt: number } };
}

export const DB_NAME = 'phimviet-downloads';
/** Bump with a new `upgrade` step below; never delete a store that holds downloads. */
export const DB_VERSION = 1;

let db: Promise<IDBPDatabase<Schema>> | undefined;
function open(): Promise<IDBPDatabase<Schema>> {
  db ??= openDB<Schema>(DB_NAME, DB_VERSION, {
    upgrade(database, oldVersion) {
      // Version 1. Later versions add steps guarded by `oldVersion < N` and migrate records in place.
      if (oldVersion < 1) {
        database.createObjectStore('episodes', { keyPath: 'id' }).createIndex('slug', 'slug');
        database.createObjectStore('plans', { keyPath: 'id' });
        database.createObjectStore('films', { keyPath: 'slug' });
      }
    },
    blocking() {
      // A newer version of the app wants to upgrade: let it, and reopen on next use.
      void db?.then((d) => d.close());
      db = undefined;
    },
  });
  return db;
}

export { CACHE_PREFIX, cacheNameOf, downloadId, OFFLINE_PREFIX, offlineIdOf, offlineUrl } from './names';

/** Whether this browser can download at all: IndexedDB, Cache Storage, Media Source Extensions. */
export function downloadsSupported(): boolean {
  if (typeof window === 'undefined') return false;
  const w = window as Window & { ManagedMediaSource?: unknown };
  return 'indexedDB' in w && 'caches' in w && (typeof MediaSource !== 'undefined' || !!w.ManagedMediaSource);
}

// Change notices: this tab's listeners, and other tabs through a BroadcastChannel.
const listeners = new Set<() => void>();
let channel: BroadcastChannel | undefined;
function ensureChannel(): void {
  if (channel || typeof BroadcastChannel === 'undefined') return;
  channel = new BroadcastChannel('phimviet-downloads');
  channel.onmessage = () => emit(false);
}
function emit(broadcast = true): void {
  for (const l of listeners) l();
  if (broadcast) {
    ensureChannel();
    channel?.postMessage('changed');
  }
}
export function onDownloadsChanged(listener: () => void): () => void {
  ensureChannel();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export async function getDownload(id: string): Promise<DownloadRecord | undefined> {
  return (await open()).get('episodes', id);
}

export async function listDownloads(): Promise<DownloadRecord[]> {
  const all = await (await open()).getAll('episodes');
  return all.sort((a, b) => a.createdAt - b.createdAt);
}

export async function getPlan(id: string): Promise<DownloadPlan | undefined> {
  return (await open()).get('plans', id);
}

export async function getStoredFilm(slug: string): Promise<FilmDetailResponse | undefined> {
  return (await (await open()).get('films', slug))?.data;
}

/** A new download (or a new quality for one): record, plan and film in one transaction. */
export async function saveDownload(record: DownloadRecord, plan: DownloadPlan, film: FilmDetailResponse): Promise<void> {
  const d = await open();
  const tx = d.transaction(['episodes', 'plans', 'films'], 'readwrite');
  await Promise.all([
    tx.objectStore('episodes').put(record),
    tx.objectStore('plans').put(plan),
    tx.objectStore('films').put({ slug: film.datafilm.slug, data: film, savedAt: Date.now() }),
    tx.done,
  ]);
  emit();
}

/** Changes an episode's record if it still exists (a deleted one stays deleted). Returns the new record. */
export async function updateDownload(id: string, change: Partial<DownloadRecord>): Promise<DownloadRecord | undefined> {
  const d = await open();
  const tx = d.transaction('episodes', 'readwrite');
  const current = await tx.store.get(id);
  if (!current) {
    await tx.done;
    return undefined;
  }
  const next = { ...current, ...change, updatedAt: Date.now() };
  await tx.store.put(next);
  await tx.done;
  emit();
  return next;
}

/** Frees every byte of an episode: its cache, its plan and its record (the film's snapshot with its last episode). */
export async function deleteDownload(id: string): Promise<void> {
  const d = await open();
  const record = await d.get('episodes', id);
  const tx = d.transaction(['episodes', 'plans', 'films'], 'readwrite');
  await tx.objectStore('episodes').delete(id);
  await tx.objectStore('plans').delete(id);
  if (record) {
    const others = await tx.objectStore('episodes').index('slug').count(record.slug);
    if (others === 0) await tx.objectStore('films').delete(record.slug);
  }
  await tx.done;
  await caches.delete(cacheNameOf(id));
  emit();
}

export async function deleteAllDownloads(): Promise<void> {
  for (const r of await listDownloads()) await deleteDownload(r.id);
  // Caches of ours that no record names (a crash between a put and its record).
  for (const name of await caches.keys()) if (name.startsWith(CACHE_PREFIX)) await caches.delete(name);
  emit();
}

/**
 * Calls `onList` with every download now and again after each change (this tab's and other tabs'; progress
 * writes come often, so at most every 250 ms). Returns the stop.
 */
function watchDownloads(onList: (list: DownloadRecord[]) => void): () => void {
  let live = true;
  let pending: number | undefined;
  const read = () => {
    listDownloads().then(
      (list) => live && onList(list),
      () => live && onList([]),
    );
  };
  const schedule = () => {
    if (pending !== undefined) return;
    pending = window.setTimeout(() => {
      pending = undefined;
      read();
    }, 250);
  };
  read();
  const stop = onDownloadsChanged(schedule);
  return () => {
    live = false;
    window.clearTimeout(pending);
    stop();
  };
}

/** Every download, kept fresh (this tab's and other tabs' changes). Undefined until first read. */
export function useDownloads(): DownloadRecord[] | undefined {
  const [list, setList] = useState<DownloadRecord[] | undefined>(undefined);
  useEffect(() => {
    if (!downloadsSupported()) {
      setList([]);
      return;
    }
    return watchDownloads(setList);
  }, []);
  return list;
}

/**
 * A film's episodes that are whole on the device, sorted by episode. Re-renders only when that set changes
 * (not on every progress write): the watch page reads it.
 */
export function useDownloadedEpisodes(slug: string): DownloadRecord[] | undefined {
  const [done, setDone] = useState<{ key: string; list: DownloadRecord[] } | undefined>(undefined);
  useEffect(() => {
    if (!downloadsSupported()) {
      setDone({ key: '', list: [] });
      return;
    }
    return watchDownloads((all) => {
      const list = all.filter((r) => r.slug === slug && r.state === 'done').sort((a, b) => a.episode - b.episode);
      const key = list.map((r) => `${r.id}@${r.createdAt}`).join(',');
      setDone((prev) => (prev?.key === key ? prev : { key, list }));
    });
  }, [slug]);
  return done?.list;
}

/**
 * A film's episode as the device holds it: by the record's film and episode, not its id (an episode downloaded under
 * a film's old slug keeps its id and its bytes after the film was merged into another: adoptMergedDownloads).
 */
export const isDownloadOf = (r: Pick<DownloadRecord, 'slug' | 'episode'>, slug: string, episode: number) =>
  r.slug === slug && r.episode === episode;

/** One episode's download, if any (undefined while reading or when there is none). */
export function useDownload(slug: string, episode: number): DownloadRecord | undefined {
  const list = useDownloads();
  return list?.find((r) => isDownloadOf(r, slug, episode));
}

/**
 * Episodes downloaded under the old slug of a film merged into another (issue 32; the API names them in
 * `datafilm.aliases`) become the kept film's: each record's film is the kept one (its id, cache and bytes stay, so it
 * plays offline as before and its progress is the kept film's), and the film's stored detail is the kept film's.
 * Nothing is fetched again. Returns how many episodes moved.
 */
export async function adoptMergedDownloads(film: FilmDetailResponse): Promise<number> {
  const aliases = film.datafilm.aliases ?? [];
  if (!aliases.length || !downloadsSupported()) return 0;
  const d = await open();
  const tx = d.transaction(['episodes', 'films'], 'readwrite');
  let moved = 0;
  for (const alias of aliases) {
    const records = await tx.objectStore('episodes').index('slug').getAll(alias);
    for (const r of records) {
      await tx.objectStore('episodes').put({ ...r, slug: film.datafilm.slug, filmTitle: film.datafilm.title, updatedAt: Date.now() });
      moved++;
    }
    if (records.length) await tx.objectStore('films').delete(alias);
  }
  if (moved) await tx.objectStore('films').put({ slug: film.datafilm.slug, data: film, savedAt: Date.now() });
  await tx.done;
  if (moved) emit();
  return moved;
}

/** Runs adoptMergedDownloads when the film's detail names films merged into it. */
export function useAdoptMergedDownloads(film: FilmDetailResponse | undefined): void {
  const aliases = film?.datafilm.aliases?.join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per film and set of merged slugs.
  useEffect(() => {
    if (film && aliases) adoptMergedDownloads(film).catch(() => undefined);
  }, [film?.datafilm.slug, aliases]);
}

/** A film's detail kept with its downloads, for the watch page with no network. */
export function useStoredFilm(slug: string, wanted: boolean): FilmDetailResponse | undefined {
  const [data, setData] = useState<FilmDetailResponse | undefined>(undefined);
  useEffect(() => {
    if (!wanted || !downloadsSupported()) return;
    let live = true;
    getStoredFilm(slug).then(
      (d) => live && setData(d),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [slug, wanted]);
  return data;
}

/** "135 MB", "1,2 GB" (Vietnamese decimal comma). */
export function formatBytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1024) return `${(mb / 1024).toFixed(1).replace('.', ',')} GB`;
  if (mb >= 10) return `${Math.round(mb)} MB`;
  return `${mb.toFixed(1).replace('.', ',')} MB`;
}
