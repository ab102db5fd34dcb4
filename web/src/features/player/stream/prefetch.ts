// The stream's first bytes, fetched over the network before the player runs, and handed to hls.js when it asks
// for them (decision 0952): the master and the level's playlists and the segment of the first frame. hls.js's
// loaders (hls-config.ts) take an entry by URL, once; anything not here (or failed) hls.js loads itself.
import { filterAds } from '../../../lib/hls/ad-filter';
import { chooseStartVariant, isMasterPlaylist, parseVariants, segmentAt } from './playlist';

export interface Prefetched {
  /** The URL the answer came from (after redirects): relative URIs resolve against it, as in hls.js. */
  url: string;
  data: string | ArrayBuffer;
  /** `performance.now()` when the request went out, its first byte came, its last byte came. */
  start: number;
  first: number;
  end: number;
  bytes: number;
}

/** Entries nobody took (the viewer left for another page) are dropped after this long. */
const KEEP_MS = 120_000;
const store = new Map<string, { answer: Promise<Prefetched>; timer: ReturnType<typeof setTimeout> }>();

/** Fetches `url` into the store (once; a second call for the same URL shares the first). */
export function prefetch(url: string, as: 'text' | 'bytes', signal?: AbortSignal): Promise<Prefetched> {
  const kept = store.get(url);
  if (kept) return kept.answer;
  const answer = (async (): Promise<Prefetched> => {
    const start = performance.now();
    // The same request hls.js would make: CORS, cookies only to our own origin.
    const res = await fetch(url, { mode: 'cors', credentials: 'same-origin', signal });
    const first = performance.now();
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const data = as === 'text' ? await res.text() : await res.arrayBuffer();
    const bytes = typeof data === 'string' ? data.length : data.byteLength;
    return { url: res.url || url, data, start, first, end: performance.now(), bytes };
  })();
  const timer = setTimeout(() => store.delete(url), KEEP_MS);
  store.set(url, { answer, timer });
  // A failed prefetch is forgotten at once: hls.js then asks the host itself and meets the error itself.
  answer.catch(() => {
    if (store.get(url)?.answer === answer) forget(url);
  });
  return answer;
}

/** Hands the prefetched answer for `url` over, once; undefined when there is none. */
export function takePrefetched(url: string): Promise<Prefetched> | undefined {
  const kept = store.get(url);
  if (!kept) return undefined;
  forget(url);
  return kept.answer;
}

function forget(url: string): void {
  const kept = store.get(url);
  if (!kept) return;
  clearTimeout(kept.timer);
  store.delete(url);
}

/** What a prepared stream will start with: hls.js is told the level, and finds the bytes in the store. */
export interface PreparedStream {
  /** The media playlist of the level to start with. */
  levelUrl: string;
  /** The segment of the first frame, when it could be known (no key, map or byte range). */
  segmentUrl?: string;
}

/**
 * Fetches what the first frame needs, one after the other: the playlist (`m3u8`), the level chosen for the
 * viewer's bandwidth (or the quality they chose), and the segment that holds `position` on the film's timeline (the ad filter applied, as
 * hls.js will see it). Resolves once the segment is in; rejects when the host refuses any of it (hls.js will then
 * meet the same error).
 */
export async function prepareStream(
  m3u8: string,
  options: {
    position: number;
    bandwidthBps: number;
    preferHeight?: number;
    /** False: the playlists only (a film page getting ready at idle; the segment comes with the viewer's intent). */
    segment?: boolean;
    signal?: AbortSignal;
  },
): Promise<PreparedStream> {
  const top = await prefetch(m3u8, 'text', options.signal);
  const text = top.data as string;
  let levelUrl = m3u8;
  let level = top;
  if (isMasterPlaylist(text)) {
    const variant = chooseStartVariant(parseVariants(text, top.url), options.bandwidthBps, options.preferHeight);
    if (!variant) throw new Error('no level in the master playlist');
    levelUrl = variant.url;
    level = await prefetch(levelUrl, 'text', options.signal);
  }
  const filtered = filterAds(level.data as string, level.url).text;
  const segment = segmentAt(filtered, level.url, options.position);
  if (segment && options.segment !== false) await prefetch(segment.url, 'bytes', options.signal);
  return { levelUrl, segmentUrl: segment?.url };
}
