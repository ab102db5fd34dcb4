import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './context';

interface CachedResponse {
  body: string;
  headers: [string, string][];
}

/**
 * Reuses whole 200 responses of anonymous GETs for a few seconds, in the app instance's
 * c.var.caches.responses (see TtlCache). Requests that carry credentials always reach the handler, so
 * nothing personal is ever cached.
 */
export const publicResponseCache = createMiddleware<AppEnv>(async (c, next) => {
  const cache = c.var.caches.responses;
  if (c.req.method !== 'GET' || c.req.header('authorization')) return next();
  const key = c.req.url;
  const hit = cache.get(key);
  if (hit) {
    c.res = new Response(hit.body, { status: 200, headers: hit.headers });
    c.res.headers.set('X-Cache', 'hit');
    return;
  }
  await next();
  if (c.res.status !== 200) return;
  const body = await c.res.clone().text();
  cache.set(key, { body, headers: [...c.res.headers] });
  c.res.headers.set('X-Cache', 'miss');
});

export type { CachedResponse };
