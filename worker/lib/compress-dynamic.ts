// Node host: compression of the answers made per request (API JSON, the shell). Static files are
// compressed once at build time (scripts/precompress.ts) and never here.
import type { MiddlewareHandler } from 'hono';
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { TtlCache } from './ttl-cache';

/** Below this the headers outweigh the saving. */
const MIN_BYTES = 1024;
const COMPRESSIBLE = /^(?:application\/(?:json|javascript|xml)|text\/(?!event-stream)|image\/svg\+xml)/;

/**
 * Brotli quality 5: on the four first pages (43–80 KB of HTML) 0.6–0.8 ms a compression against quality 4's
 * 0.4–0.5 ms, for 6–7 % fewer bytes, which keep the home page's HTML inside a new connection's first round trip
 * (TCP's initial window, 14.6 KB with the headers; docs/decisions/0009). Quality 4 had been chosen as as cheap as
 * gzip level 4 and smaller; both are a fraction of gzip through CompressionStream (hono/compress), which pays for a
 * stream per response on top of level 6. The cost is paid once a body (compressOnce).
 */
const BROTLI = { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT };
const GZIP_LEVEL = 4;

/** The encoding to use for an Accept-Encoding header: br, else gzip, honouring q=0. */
export function chooseEncoding(accept: string | undefined): 'br' | 'gzip' | null {
  if (!accept) return null;
  const allowed = new Set<string>();
  for (const part of accept.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    allowed.add(name.trim());
  }
  if (allowed.has('br')) return 'br';
  if (allowed.has('gzip') || allowed.has('*')) return 'gzip';
  return null;
}

export function compressBody(body: Uint8Array, encoding: 'br' | 'gzip'): Uint8Array<ArrayBuffer> {
  return encoding === 'br'
    ? brotliCompressSync(body, { params: { ...BROTLI, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength } })
    : gzipSync(body, { level: GZIP_LEVEL });
}

/**
 * Bodies compressed lately, by encoding and digest: the host's cache answers the same page to a crowd (a premiere's
 * watch page: hundreds of hits a second), and brotli took about three quarters of each hit's CPU. A digest costs a
 * few percent of a compression; what comes out is the same bytes.
 */
const compressedLately = new TtlCache<Uint8Array<ArrayBuffer>>(60_000, 512, Date.now, {
  weigh: (body) => body.byteLength + 128,
  maxWeight: 16 * 2 ** 20,
});

function compressOnce(body: Uint8Array, encoding: 'br' | 'gzip'): Uint8Array<ArrayBuffer> {
  const key = `${encoding}:${createHash('sha256').update(body).digest('base64')}`;
  let compressed = compressedLately.get(key);
  if (!compressed) {
    compressed = compressBody(body, encoding);
    compressedLately.set(key, compressed);
  }
  return compressed;
}

/**
 * One synchronous compression of the whole body: API answers are small and complete (no streaming),
 * so a stream per response (hono/compress) costs more than the compression itself.
 */
export const compressDynamic: MiddlewareHandler = async (c, next) => {
  await next();
  const res = c.res;
  const type = res.headers.get('Content-Type') ?? '';
  if (!res.body || c.req.method === 'HEAD' || res.status === 204 || res.status === 206 || !COMPRESSIBLE.test(type)) return;
  if (res.headers.has('Content-Encoding')) return;
  res.headers.append('Vary', 'Accept-Encoding');
  const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
  if (!encoding) return;
  const length = Number(res.headers.get('Content-Length') ?? Number.NaN);
  if (length < MIN_BYTES) return;
  const body = new Uint8Array(await res.arrayBuffer());
  if (body.byteLength < MIN_BYTES) {
    c.res = new Response(body, res);
    return;
  }
  const compressed = compressOnce(body, encoding);
  c.res = new Response(compressed, res);
  c.res.headers.set('Content-Encoding', encoding);
  c.res.headers.set('Content-Length', String(compressed.byteLength));
};
