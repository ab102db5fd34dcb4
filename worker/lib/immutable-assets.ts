// The build's hashed files (/assets/*) from memory on the Node host. A film page asks for ~40 of them; through
// @hono/node-server's serveStatic each cost the host ~2.4 ms of CPU (two or three stats, a read stream turned into a
// web stream), on the same cores as the viewer's browser when both run on one machine. Their names change with their
// content, so each is read once (its .br, .gz and plain copies from scripts/precompress.ts, chosen as serveStatic
// chooses them) and kept while the process lives, up to a bound. A range request, a missing file or anything past
// the bound goes on to serveStatic as before.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { MiddlewareHandler } from 'hono';
import { getMimeType } from 'hono/utils/mime';

/** The copies tried, in serveStatic's order, for a client that accepts them. */
const ENCODINGS = [
  ['br', '.br'],
  ['gzip', '.gz'],
] as const;
/** The build's asset names: a path of plain segments under /assets/, never `.` or `..`. */
const ASSET_PATH = /^\/assets\/(?:[\w-][\w.-]*\/)*[\w-][\w.-]*$/;
/** The whole build is ~4 MB with its compressed copies. */
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

export function immutableAssets(webDist: string, maxBytes = DEFAULT_MAX_BYTES): MiddlewareHandler {
  const kept = new Map<string, Uint8Array<ArrayBuffer>>();
  let keptBytes = 0;
  /** The file's bytes, or undefined when there is none (a miss is not kept: names asked for are not ours to bound). */
  const read = (path: string): Uint8Array<ArrayBuffer> | undefined => {
    const known = kept.get(path);
    if (known) return known;
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      if (!statSync(path).isFile()) return undefined;
      bytes = readFileSync(path);
    } catch {
      return undefined;
    }
    if (keptBytes + bytes.byteLength <= maxBytes) {
      kept.set(path, bytes);
      keptBytes += bytes.byteLength;
    }
    return bytes;
  };
  return async (c, next) => {
    const method = c.req.method;
    if ((method !== 'GET' && method !== 'HEAD') || c.req.header('range') || !ASSET_PATH.test(c.req.path)) return next();
    const path = join(webDist, c.req.path);
    const plain = read(path);
    if (!plain) return next();
    let body = plain;
    let encoding: string | undefined;
    const accepted = new Set(
      c.req
        .header('accept-encoding')
        ?.split(',')
        .map((e) => e.trim()),
    );
    for (const [name, suffix] of ENCODINGS) {
      if (!accepted.has(name)) continue;
      const copy = read(path + suffix);
      if (copy) {
        body = copy;
        encoding = name;
        break;
      }
    }
    c.header('Content-Type', getMimeType(path) ?? 'application/octet-stream');
    if (encoding) {
      c.header('Content-Encoding', encoding);
      c.header('Vary', 'Accept-Encoding', { append: true });
    }
    c.header('Content-Length', String(body.byteLength));
    if (method === 'HEAD') return c.body(null, 200);
    return c.body(body, 200);
  };
}
