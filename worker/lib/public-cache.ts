import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { catalogueVersions } from '../services/catalogue/version';
import type { AppEnv } from './context';

interface CachedResponse {
  body: string;
  headers: [string, string][];
}

/** Misses being answered now, per response cache: the requests for the same URL that arrive meanwhile wait for it. */
const inFlight = new WeakMap<object, Map<string, Promise<CachedResponse | null>>>();

function answerFrom(entry: CachedResponse): Response {
  const res = new Response(entry.body, { status: 200, headers: entry.headers });
  res.headers.set('X-Cache', 'hit');
  return res;
}

/**
 * Empties the app instance's caches when the catalogue versions moved on (a write here or in any other
 * process, seen within PUBLIC_CACHE_SECONDS): a crawl or an admin edit is never hidden behind them. The film
 * records go with any change; the whole responses (all of them lists: home, listings, search, categories) only
 * with a change that can move a list, as the hosts' cache keys them (docs/decisions/1020). False when the
 * version cannot be read: the request then goes without the caches.
 */
async function catalogueCachesCurrent(c: Context<AppEnv>): Promise<boolean> {
  const { deps, caches } = c.var;
  const ttl = deps.config.PUBLIC_CACHE_SECONDS * 1000;
  if (ttl <= 0) return false;
  let versions: Awaited<ReturnType<typeof catalogueVersions>>;
  try {
    versions = await catalogueVersions(deps.db, deps.now(), ttl);
  } catch {
    return false;
  }
  const lists = Math.max(versions.epoch, versions.lists);
  if (caches.lists !== lists) {
    caches.responses.clear();
    caches.lists = lists;
  }
  if (caches.version !== versions.version) {
    caches.films.clear();
    caches.version = versions.version;
  }
  return true;
}

/** The film-record cache is used only while it belongs to the current catalogue version. */
export const currentCatalogueCaches = createMiddleware<AppEnv>(async (c, next) => {
  if (!(await catalogueCachesCurrent(c))) c.var.caches.films.clear();
  await next();
});

/**
 * Reuses whole 200 responses of anonymous GETs for a few seconds, in the app instance's
 * c.var.caches.responses (see TtlCache). Requests that carry credentials always reach the handler, so
 * nothing personal is ever cached. Concurrent misses of one URL run the handler once (the others wait
 * for its answer): when an entry expires under load, hundreds of requests for the home page would
 * otherwise each run its dozen queries at the same moment (bench/load.ts: timeouts).
 */
export const publicResponseCache = createMiddleware<AppEnv>(async (c, next) => {
  const cache = c.var.caches.responses;
  if (c.req.method !== 'GET' || c.req.header('authorization')) return next();
  if (!(await catalogueCachesCurrent(c))) return next();
  // Path and query only: the Host header names no different answer.
  const url = new URL(c.req.url);
  const key = url.pathname + url.search;
  const hit = cache.get(key);
  if (hit) {
    c.res = answerFrom(hit);
    return;
  }
  let pending = inFlight.get(cache);
  if (!pending) {
    pending = new Map();
    inFlight.set(cache, pending);
  }
  const running = pending.get(key);
  if (running) {
    const shared = await running;
    if (shared) {
      c.res = answerFrom(shared);
      return;
    }
    return next();
  }
  let settle: (entry: CachedResponse | null) => void = () => undefined;
  pending.set(
    key,
    new Promise((resolve) => {
      settle = resolve;
    }),
  );
  let entry: CachedResponse | null = null;
  try {
    await next();
    if (c.res.status === 200) {
      entry = { body: await c.res.clone().text(), headers: [...c.res.headers] };
      cache.set(key, entry);
      c.res.headers.set('X-Cache', 'miss');
    }
  } finally {
    pending.delete(key);
    settle(entry);
  }
});

export type { CachedResponse };
