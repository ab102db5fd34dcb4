// The build's hashed files (/assets/*) from memory on the Node host. A film page asks for ~40 of them; through
// @hono/node-server's serveStatic each cost the host ~2.4 ms of CPU (two or three stats, a read stream turned into a
// web stream), on the same cores as the viewer's browser when both run on one machine. Their names change with their
// content, so each is read once (its .br, .gz and plain copies from scripts/precompress.ts) and kept while the
// process lives, up to a bound. A range request, a missing file or anything past the bound goes on to serveStatic
// as before.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';
import { chooseEncoding } from './compress-dynamic';

/** The build's asset names: a path of plain segments under /assets/, never `.` or `..`. */
const ASSET_PATH = /^\/assets\/(?:[\w-][\w.-]*\/)*[\w-][\w.-]*$/;
/** The whole build is ~4 MB with its compressed copies. */
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;
/** The copy scripts/precompress.ts writes for each encoding (both, or neither for a file too small to gain). */
const SUFFIX = { br: '.br', gzip: '.gz' } as const;

export function immutableAssets(webDist: string, maxBytes = DEFAULT_MAX_BYTES): MiddlewareHandler {
  const kept = new Map<string, Uint8Array<ArrayBuffer>>();
  /** Copies a kept file does not have (precompress.ts skips files too small to gain): not looked for again. */
  const noCopy = new Set<string>();
  let keptBytes = 0;
  /**
   * The file's bytes once kept; 'missing' when there is none (a miss is not kept: the names asked for are not ours to
   * bound); 'unkept' when it would pass the bound (serveStatic streams it).
   */
  const read = (path: string): Uint8Array<ArrayBuffer> | 'missing' | 'unkept' => {
    const known = kept.get(path);
    if (known) return known;
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = readFileSync(path);
    } catch {
      return 'missing';
    }
    if (keptBytes + bytes.byteLength > maxBytes) return 'unkept';
    kept.set(path, bytes);
    keptBytes += bytes.byteLength;
    return bytes;
  };
  return async (c, next) => {
    const method = c.req.method;
    if ((method !== 'GET' && method !== 'HEAD') || c.req.header('range') || !ASSET_PATH.test(c.req.path)) return next();
    const path = join(webDist, c.req.path);
    const plain = read(path);
    if (typeof plain === 'string') return next();
    // The same choice as the answers compressed per request (br, else gzip, q=0 honoured); without that copy, plain.
    const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
    const copyPath = encoding ? path + SUFFIX[encoding] : '';
    const copy = !copyPath || noCopy.has(copyPath) ? 'missing' : read(copyPath);
    // Bounded by the kept files: only a kept file's copies are remembered as absent.
    if (copy === 'missing' && copyPath) noCopy.add(copyPath);
    if (copy === 'unkept') return next();
    const body = copy === 'missing' ? plain : copy;
    c.header('Content-Type', getMimeType(path) ?? 'application/octet-stream');
    if (encoding && copy !== 'missing') {
      c.header('Content-Encoding', encoding);
      c.header('Vary', 'Accept-Encoding', { append: true });
    }
    c.header('Content-Length', String(body.byteLength));
    if (method === 'HEAD') return c.body(null, 200);
    return c.body(body, 200);
  };
}
