// The downloader (issue 26, DESIGN §18): loaded with import() when a viewer downloads, or at start-up when a
// download was left unfinished. One runner per browser (Web Locks), a few segments at once, each streamed
// from the network into the episode's cache (never a whole episode in memory), resumable at segment
// granularity: what the cache holds is never fetched again.
import type { FilmDetailResponse } from '../../../../../worker/schemas/catalogue';
import {
  cacheNameOf,
  type DownloadPlan,
  type DownloadRecord,
  downloadId,
  getDownload,
  getPlan,
  listDownloads,
  offlineUrl,
  onDownloadsChanged,
  type PlanItem,
  saveDownload,
  updateDownload,
} from '../../../lib/downloads/store';
import {
  DownloadProblem,
  estimateBytes,
  type Level,
  localMaster,
  localMediaPlaylist,
  MESSAGES,
  type Master,
  readMaster,
  renditionsFor,
} from './hls-plan';

/** Segments fetched at once: browsers open 6 connections per host over HTTP/1.1; one is left for the player. */
export const CONCURRENCY = 5;
const RETRIES = 4;
/** A file with nothing arriving for this long is dropped and asked again (a host that stopped answering). */
const STALL_MS = 20_000;
const LOCK = 'phimviet-downloader';

export interface Probe {
  master: Master;
  /** Seconds of film (after the ad filter), from the default level's playlist. */
  duration: number;
  /** Bytes the device may still use (quota − usage), if the browser says. */
  free?: number;
  quota?: number;
  usage?: number;
}

/**
 * Reads a cross-origin playlist. A host that refuses cross-origin reads fails the CORS fetch but answers a
 * no-cors one: that is "Nguồn này không cho phép tải về", not a dead network.
 */
async function fetchText(url: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, { mode: 'cors', credentials: 'omit', cache: 'no-store' });
  } catch {
    const reachable = await fetch(url, { mode: 'no-cors', credentials: 'omit', cache: 'no-store' }).then(
      () => true,
      () => false,
    );
    throw reachable ? new DownloadProblem(MESSAGES.cors, 'cors') : new DownloadProblem(MESSAGES.unreachable, 'unreachable');
  }
  if (!res.ok) throw new DownloadProblem(`Nguồn phim trả lỗi ${res.status} nên không tải về được.`, 'http');
  return res.text();
}

/** The quality dialog's data: levels, duration and free space. Stores nothing. */
export async function probe(m3u8: string): Promise<Probe> {
  if (!m3u8) throw new DownloadProblem(MESSAGES.embed, 'embed');
  // Links may be relative to the site (the demo clip is served by the app itself, decision 0005).
  const url = new URL(m3u8, location.href).href;
  const master = readMaster(await fetchText(url), url);
  const first = master.levels[0]!;
  const media = localMediaPlaylist(await fetchText(first.url), first.url, 'v');
  if (first.bandwidth === 0) {
    // A media playlist alone: no bandwidth declared; estimate from the first segment's size.
    const head = await fetch(media.items.find((i) => /\/\d+\.\w+$/.test(i.path))?.src ?? first.url, { method: 'HEAD', mode: 'cors' }).catch(
      () => undefined,
    );
    const size = Number(head?.headers.get('content-length')) || 0;
    if (size > 0) first.bandwidth = Math.round((size * 8 * media.segments) / media.duration);
  }
  const estimate = await navigator.storage?.estimate?.().catch(() => undefined);
  const quota = estimate?.quota;
  const usage = estimate?.usage;
  return { master, duration: media.duration, quota, usage, free: quota !== undefined ? Math.max(0, quota - (usage ?? 0)) : undefined };
}

/** Whether a level fits: its estimate under 90% of the space left (the estimate is approximate). */
export const fits = (p: Probe, level: Level) => p.free === undefined || estimateBytes(level, p.duration) <= p.free * 0.9;

export interface NewDownload {
  film: FilmDetailResponse;
  episode: number;
  server: string;
  m3u8: string;
  probe: Probe;
  level: Level;
}

/**
 * Writes the episode's local playlists (master, level, subtitles) into its cache, its plan and record into
 * the database, then starts the runner. Everything it fetches here is small (playlists).
 */
export async function startDownload(input: NewDownload): Promise<void> {
  const { film, episode, level, probe: p } = input;
  const slug = film.datafilm.slug;
  const id = downloadId(slug, episode);
  if (!fits(p, level)) throw new DownloadProblem('Hết dung lượng: máy không còn đủ chỗ cho chất lượng này.', 'space');
  const video = localMediaPlaylist(await fetchText(level.url), level.url, 'v');
  const renditions = renditionsFor(level, p.master.renditions);
  const dirs = renditions.map((r, i) => (r.type === 'SUBTITLES' ? `s${i}` : `a${i}`));
  const extra = await Promise.all(renditions.map(async (r, i) => localMediaPlaylist(await fetchText(r.url), r.url, dirs[i]!, false)));
  // A new quality replaces an old copy.
  await caches.delete(cacheNameOf(id));
  const cache = await caches.open(cacheNameOf(id));
  const playlist = (text: string) => new Response(text, { headers: { 'Content-Type': 'application/vnd.apple.mpegurl' } });
  await cache.put(offlineUrl(id, 'index.m3u8'), playlist(localMaster(level, renditions, dirs)));
  await cache.put(offlineUrl(id, 'v/index.m3u8'), playlist(video.text));
  for (const [i, e] of extra.entries()) await cache.put(offlineUrl(id, `${dirs[i]}/index.m3u8`), playlist(e.text));
  // Small files first (keys, subtitles), then the film in order, so a partial copy is watchable from its start.
  const items: PlanItem[] = [...extra.flatMap((e) => e.items), ...video.items];
  const now = Date.now();
  const record: DownloadRecord = {
    id,
    slug,
    episode,
    server: input.server,
    filmTitle: film.datafilm.title,
    poster: film.datafilm.thumb || film.datafilm.hinhanh || '',
    height: level.height,
    bandwidth: level.bandwidth,
    state: 'queued',
    total: items.length,
    done: 0,
    bytes: 0,
    estimate: estimateBytes(level, video.duration),
    duration: video.duration,
    createdAt: now,
    updatedAt: now,
  };
  const plan: DownloadPlan = { id, items };
  // Only the episode's own links and the film's public detail are kept (no token, no viewer data).
  await saveDownload(record, plan, film);
  kick();
}

export async function pauseDownload(id: string): Promise<void> {
  await updateDownload(id, { state: 'paused', reason: 'user' });
}

export async function resumeDownload(id: string): Promise<void> {
  await updateDownload(id, { state: 'queued', reason: undefined });
  kick();
}

// --- the runner -------------------------------------------------------------------------------------------

let queued = false;
let running = false;
let again = false;
/**
 * Asks for the runner: this tab runs the queue once it holds the browser-wide lock (another tab may hold it). While
 * this tab runs it, a kick (its own progress heard by auto-resume, a new episode queued) only asks for one more pass:
 * the tab then never waits in line behind itself, so the tab next in line for the lock is another one, which takes
 * the queue over at once when this tab closes.
 */
export function kick(): void {
  if (running) {
    again = true;
    return;
  }
  if (queued) return;
  queued = true;
  const run = async () => {
    queued = false;
    running = true;
    try {
      do {
        again = false;
        await runQueue();
      } while (again);
    } finally {
      running = false;
    }
  };
  if (navigator.locks?.request) void navigator.locks.request(LOCK, run).catch(() => undefined);
  else void run();
}

/** Runs while anything is queued (or was downloading when a tab closed). */
async function runQueue(): Promise<void> {
  for (;;) {
    const list = await listDownloads();
    const next = list.find((r) => r.state === 'downloading') ?? list.find((r) => r.state === 'queued');
    if (!next) return;
    await runEpisode(next);
  }
}

class Stop extends Error {
  constructor(readonly why: 'paused' | 'deleted' | 'quota') {
    super(why);
  }
}

const isQuota = (e: unknown) => e instanceof DOMException && (e.name === 'QuotaExceededError' || e.code === 22);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const whenOnline = () =>
  navigator.onLine ? Promise.resolve() : new Promise<void>((r) => window.addEventListener('online', () => r(), { once: true }));

async function runEpisode(start: DownloadRecord): Promise<void> {
  const id = start.id;
  const plan = await getPlan(id);
  if (!plan) {
    await updateDownload(id, { state: 'error', reason: 'source' });
    return;
  }
  let record = await updateDownload(id, { state: 'downloading', reason: undefined });
  if (!record) return;
  const cache = await caches.open(cacheNameOf(id));
  const prefix = offlineUrl(id, '');
  const stored = new Set((await cache.keys()).map((r) => r.url.slice(prefix.length)));
  const todo = plan.items.filter((item) => !stored.has(item.path));
  let done = plan.items.length - todo.length;
  let bytes = record.bytes;
  const abort = new AbortController();
  let stop: Stop | undefined;
  // Pause and delete may come from this tab or another one: re-read the record when anything changes.
  const check = async () => {
    const now = await getDownload(id);
    if (!now) stop ??= new Stop('deleted');
    else if (now.state === 'paused') stop ??= new Stop('paused');
    if (stop?.why === 'deleted') abort.abort();
  };
  const unsubscribe = onDownloadsChanged(() => void check());
  let lastWrite = 0;
  const progress = async () => {
    if (performance.now() - lastWrite < 500) return;
    lastWrite = performance.now();
    record = await updateDownload(id, { done, bytes });
    if (!record) stop ??= new Stop('deleted');
  };

  let failure: 'network' | 'source' | undefined;
  let next = 0;
  const worker = async () => {
    while (!stop && !failure && next < todo.length) {
      const item = todo[next++]!;
      try {
        // Read the total after the await: several workers add to it.
        const size = await fetchInto(cache, prefix, item, abort.signal);
        bytes += size;
        done++;
        await progress();
      } catch (error) {
        if (isQuota(error)) stop ??= new Stop('quota');
        else if (!stop) failure = error instanceof SourceError ? 'source' : 'network';
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, todo.length) }, worker));
  unsubscribe();

  if (stop?.why === 'deleted' || !(await getDownload(id))) {
    // Deleted meanwhile: a put that finished after the delete may have recreated the cache.
    await caches.delete(cacheNameOf(id));
    return;
  }
  if (stop?.why === 'quota') {
    await updateDownload(id, { state: 'paused', reason: 'quota', done, bytes });
    return;
  }
  if (stop?.why === 'paused') {
    await updateDownload(id, { done, bytes });
    return;
  }
  if (failure) {
    await updateDownload(id, { state: 'error', reason: failure, done, bytes });
    return;
  }
  // Resumed after a closed tab: the last progress write may have missed a few segments' bytes; count the cache.
  if (stored.size > 0) bytes = await storedBytes(cache);
  await updateDownload(id, { state: 'done', reason: undefined, done: plan.items.length, bytes });
}

/** Bytes in an episode's cache (each entry's size, read as a disk-backed Blob: nothing held in memory). */
async function storedBytes(cache: Cache): Promise<number> {
  let total = 0;
  for (const request of await cache.keys()) total += (await (await cache.match(request))?.blob())?.size ?? 0;
  return total;
}

class SourceError extends Error {}

/** Fetches one file into the cache, streamed; retried with backoff; waits for the network when it is gone. Returns its bytes. */
async function fetchInto(cache: Cache, prefix: string, item: PlanItem, signal: AbortSignal): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    await whenOnline();
    signal.throwIfAborted();
    // A host that stops answering (a request held open, a body that stops coming) would hold this file, and the
    // episode, for ever: with nothing arriving for STALL_MS the attempt is dropped and retried like a failure.
    const request = new AbortController();
    const cancel = () => request.abort(signal.reason);
    signal.addEventListener('abort', cancel, { once: true });
    let stalled: number | undefined;
    const arrived = () => {
      window.clearTimeout(stalled);
      stalled = window.setTimeout(() => request.abort(new DOMException('no bytes', 'TimeoutError')), STALL_MS);
    };
    arrived();
    try {
      const res = await fetch(item.src, {
        mode: 'cors',
        credentials: 'omit',
        cache: 'no-store',
        signal: request.signal,
        headers: item.range ? { Range: item.range } : undefined,
      });
      if (!res.ok || !res.body) throw new SourceError(`HTTP ${res.status}`);
      arrived();
      let size = 0;
      const counter = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          arrived();
          size += chunk.byteLength;
          controller.enqueue(chunk);
        },
      });
      const type = res.headers.get('Content-Type') ?? 'application/octet-stream';
      await cache.put(prefix + item.path, new Response(res.body.pipeThrough(counter), { headers: { 'Content-Type': type } }));
      return size;
    } catch (error) {
      if (isQuota(error) || signal.aborted) throw error;
      if (!navigator.onLine) continue;
      if (attempt >= RETRIES) throw error;
      await sleep(1000 * 2 ** attempt);
    } finally {
      window.clearTimeout(stalled);
      signal.removeEventListener('abort', cancel);
    }
  }
}

/** At start-up: continue what a closed tab, a reload or a lost network left unfinished. */
export async function resumeUnfinished(): Promise<void> {
  const list = await listDownloads();
  if (list.some((r) => r.state === 'queued' || r.state === 'downloading')) kick();
  window.addEventListener('online', () => kick());
}
