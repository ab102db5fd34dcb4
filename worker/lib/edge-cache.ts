// Whole public responses (server-rendered pages, public API reads, sitemaps) kept by the host in front of the
// app: on Workers in the Cache API (caches.default), on Node in memory. Keyed by PUBLIC_URL + path + query +
// the catalogue version, which every catalogue write raises (docs/decisions/0900-edge-cache.md). Only what a
// response marks `public` is stored, and only for a request without credentials: a signed-in or personal
// response is never stored, nor answered from the cache. On Workers the isolate's memory stands in front of the
// Cache API (layeredStore): a view the isolate answered before costs no Cache API lookup.
import { TtlCache } from './ttl-cache';

/** What the host keeps responses in: caches.default on Workers, a bounded map on Node. */
export interface ResponseStore {
  match(key: string): Promise<Response | undefined>;
  put(key: string, response: Response): Promise<void>;
}

export interface EdgeCacheOptions {
  store: ResponseStore;
  /** PUBLIC_URL: the key's origin, whatever Host the request named. */
  publicUrl: string;
  /** PUBLIC_CACHE_SECONDS: how long an entry is fresh; 0 turns the cache off. */
  freshSeconds: number;
  /**
   * The catalogue version a path's entries are keyed by (services/catalogue/version.ts scopeVersion with
   * lib/cache-scope.ts): a film's pages by that film's, lists by the lists', anything else by every change.
   */
  version: (pathname: string) => Promise<number>;
  /** Runs work after the answer (Workers: ctx.waitUntil); a stale entry is refreshed there. */
  waitUntil: (task: Promise<unknown>) => void;
  now: () => number;
}

/** After it is no longer fresh, an entry is still answered (and refreshed behind it) this long. */
export const STALE_WHILE_REVALIDATE_SECONDS = 60;
/** How long an entry may be answered at all, fresh then stale: what every store keeps it for. */
const keptSeconds = (freshSeconds: number) => freshSeconds + STALE_WHILE_REVALIDATE_SECONDS;
const STORED_AT = 'x-stored-at';
/** The response's own Cache-Control, kept beside the store's (which says how long the store keeps it). */
const CONTROL = 'x-cache-control';

/** The Cache-Control of a public response: browsers revalidate, shared caches keep it a while. */
export const publicCacheControl = (freshSeconds: number) =>
  `public, max-age=0, s-maxage=${freshSeconds}, stale-while-revalidate=${STALE_WHILE_REVALIDATE_SECONDS}`;

/** A request the cache may answer: a GET carrying no credentials. */
export function isAnonymousRead(request: Request): boolean {
  return request.method === 'GET' && !request.headers.has('authorization') && !request.headers.has('cookie');
}

/** A response the cache may keep: 200 or 404, marked public, setting no cookie, varying on nothing personal. */
export function isStorable(response: Response): boolean {
  if (response.status !== 200 && response.status !== 404) return false;
  const control = response.headers.get('cache-control') ?? '';
  if (!/\bpublic\b/.test(control) || /\b(private|no-store)\b/.test(control)) return false;
  if (response.headers.has('set-cookie')) return false;
  return !/\b(authorization|cookie)\b/i.test(response.headers.get('vary') ?? '');
}

function keyOf(url: URL, publicUrl: string, version: number): string {
  const key = new URL(url.pathname + url.search, publicUrl);
  // The version goes in the key's URL (the Cache API keys by URL); the request's own query stays first.
  key.searchParams.append('__catalogue', String(version));
  return key.href;
}

/** A response as the cache shares it: its bytes, once read, answered to every request that asked for it. */
interface Kept {
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
}

/**
 * Renders in flight per store (the Node process's, or one isolate's), by key: concurrent misses of one key wait
 * for one render, and a stale entry has one refresh at a time. Done here rather than left to the host's admission
 * (Node runs one request per turn, but a render spans many turns) or to the platform (the Cache API collapses
 * nothing).
 */
const flights = new WeakMap<ResponseStore, Map<string, Promise<Kept | null>>>();

function flightsOf(store: ResponseStore): Map<string, Promise<Kept | null>> {
  let running = flights.get(store);
  if (!running) {
    running = new Map();
    flights.set(store, running);
  }
  return running;
}

/**
 * The response for `request`: from the store when a fresh (or stale but revalidating) entry of the current
 * catalogue version exists, else from `produce`, kept when storable. Concurrent misses of one key run `produce`
 * once; the others answer its response. `X-Cache` says which: `hit` (from the store, or another request's render
 * waited for), `stale` (answered while one refresh runs behind it), `miss` (rendered for this request).
 */
export async function withEdgeCache(request: Request, options: EdgeCacheOptions, produce: () => Promise<Response>): Promise<Response> {
  if (options.freshSeconds <= 0 || !isAnonymousRead(request)) return produce();
  const url = new URL(request.url);
  let key: string;
  try {
    key = keyOf(url, options.publicUrl, await options.version(url.pathname));
  } catch (error) {
    // The database cannot say its version: answer without the cache rather than fail the request.
    console.error('[edge-cache] catalogue version unavailable:', error);
    return produce();
  }
  const running = flightsOf(options.store);
  // A render in flight as the store is asked: if it ends (and leaves `running`) while the store answers "none", this
  // request still joins it instead of rendering again.
  const flightAtStart = running.get(key);
  const hit = await options.store.match(key);
  const age = hit ? (options.now() - Number(hit.headers.get(STORED_AT) ?? 0)) / 1000 : Number.POSITIVE_INFINITY;
  // Past its stale window an entry is a miss, whichever store still held it (an isolate's copy of a Cache API
  // entry lives from when it was copied).
  if (hit && age < keptSeconds(options.freshSeconds)) {
    const stale = age >= options.freshSeconds;
    // One refresh at a time: the stale hits that arrive while it runs only answer.
    if (stale && !running.has(key)) options.waitUntil(lead(key, options, produce, running).catch(refreshFailed));
    const answer = new Response(hit.body, hit);
    answer.headers.set('Cache-Control', hit.headers.get(CONTROL) ?? 'no-cache');
    answer.headers.delete(CONTROL);
    answer.headers.delete(STORED_AT);
    answer.headers.set('X-Cache', stale ? 'stale' : 'hit');
    answer.headers.set('Age', String(Math.max(0, Math.floor(age))));
    return answer;
  }
  hit?.body?.cancel().catch(() => undefined);
  const inFlight = running.get(key) ?? flightAtStart;
  if (inFlight) {
    const shared = await inFlight;
    // Another request's render, waited for: a hit. Its answer was not storable (or it failed): render our own.
    return shared ? answerOf(shared, 'hit') : produce();
  }
  const led = await lead(key, options, produce, running);
  return 'kept' in led ? answerOf(led.kept, 'miss') : led.response;
}

const refreshFailed = (error: unknown) => console.error('[edge-cache] refresh failed:', error);

function answerOf(kept: Kept, cache: 'hit' | 'miss'): Response {
  const answer = new Response(kept.body.slice(0), { status: kept.status, headers: kept.headers });
  answer.headers.set('X-Cache', cache);
  if (cache === 'hit') answer.headers.set('Age', '0');
  return answer;
}

/**
 * Renders `key` for every request waiting on it: the render is in `running` from its start until the store holds
 * its answer (a request in between joins it rather than rendering again). A storable answer is read once and
 * shared; any other is this request's alone, and those waiting render their own. On Workers the render runs
 * under waitUntil, so those waiting are answered even if the request that started it goes away.
 */
async function lead(
  key: string,
  options: EdgeCacheOptions,
  produce: () => Promise<Response>,
  running: Map<string, Promise<Kept | null>>,
): Promise<{ kept: Kept } | { response: Response }> {
  let settle: (kept: Kept | null) => void = () => undefined;
  running.set(
    key,
    new Promise<Kept | null>((resolve) => {
      settle = resolve;
    }),
  );
  const done = (kept: Kept | null) => {
    settle(kept);
    if (!kept) running.delete(key);
  };
  try {
    const produced = produce();
    options.waitUntil(produced.catch(() => undefined));
    const response = await produced;
    if (!isStorable(response)) {
      done(null);
      return { response };
    }
    const headers = [...response.headers].filter(([name]) => name.toLowerCase() !== 'x-cache');
    const kept: Kept = { status: response.status, headers, body: await response.arrayBuffer() };
    settle(kept);
    options.waitUntil(store(key, kept, options).finally(() => running.delete(key)));
    return { kept };
  } catch (error) {
    done(null);
    throw error;
  }
}

async function store(key: string, kept: Kept, options: EdgeCacheOptions): Promise<void> {
  const entry = new Response(kept.body.slice(0), { status: kept.status, headers: kept.headers });
  entry.headers.set(STORED_AT, String(options.now()));
  entry.headers.set(CONTROL, entry.headers.get('cache-control') ?? '');
  // The store keeps it while it may be answered: fresh, then stale while a refresh runs.
  entry.headers.set('Cache-Control', `public, max-age=${keptSeconds(options.freshSeconds)}`);
  try {
    await options.store.put(key, entry);
  } catch (error) {
    console.error('[edge-cache] put failed:', error);
  }
}

/**
 * Entries in a bounded in-process map, each kept while it may be answered (`freshSeconds` of the cache, then
 * stale-while-revalidate): the Node host's store (a Node process is one long-lived isolate), and on Workers the
 * isolate's memory in front of the Cache API (layeredStore).
 */
export function memoryStore(freshSeconds: number, now: () => number, maxBytes = 64 * 2 ** 20): ResponseStore {
  const entries = new TtlCache<Kept>(keptSeconds(freshSeconds) * 1000, 5_000, now, {
    weigh: (e) => e.body.byteLength + 512,
    maxWeight: maxBytes,
  });
  return {
    match: async (key) => {
      const kept = entries.get(key);
      return kept && new Response(kept.body.slice(0), { status: kept.status, headers: kept.headers });
    },
    put: async (key, response) => {
      entries.set(key, { status: response.status, headers: [...response.headers], body: await response.arrayBuffer() });
    },
  };
}

/**
 * `near` in front of `far` (Workers: the isolate's memory before caches.default). A hit in `near` is answered
 * from it; a hit in `far` only is answered and copied into `near`; an entry is put in both. Both hold the
 * same headers (stored-at included), so an entry's age and staleness are the same whichever layer answers.
 */
export function layeredStore(near: ResponseStore, far: ResponseStore): ResponseStore {
  return {
    match: async (key) => {
      const kept = await near.match(key);
      if (kept) return kept;
      const found = await far.match(key);
      if (!found) return undefined;
      const body = await found.arrayBuffer();
      await near.put(key, new Response(body, found));
      return new Response(body, found);
    },
    put: async (key, response) => {
      const body = await response.arrayBuffer();
      await Promise.all([near.put(key, new Response(body, response)), far.put(key, new Response(body, response))]);
    },
  };
}
