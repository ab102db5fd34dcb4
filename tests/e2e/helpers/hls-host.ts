// A video host on a second origin over HTTPS, as real ones are (the CSP allows third-party media only over
// https:): a self-signed certificate made with openssl for 127.0.0.1, a route table of playlists and segments,
// CORS on or off, and the list of what the player actually requested. Tests open their context with
// `ignoreHTTPSErrors: true`. Playlists and segments of the demo clip (demo/hls/) make real, playable streams.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { inject } from 'vitest';
import { productDatabase } from './browser';

export const DEMO_HLS = resolve(import.meta.dirname, '../../../demo/hls');

/** One answer: a body (string or bytes), a status alone (404, 500…), or none at all (the connection held open). */
export type HostAnswer = { body: string | Uint8Array; type?: string } | { status: number } | { hang: true };
export type HostRoutes = (path: string, req: IncomingMessage) => HostAnswer | undefined;

export interface HlsHost {
  /** https://127.0.0.1:PORT */
  origin: string;
  /** Paths requested, in order (query strings kept). */
  requests: string[];
  close: () => Promise<void>;
}

let certificate: { key: Buffer; cert: Buffer } | undefined;
function selfSigned(): { key: Buffer; cert: Buffer } {
  if (certificate) return certificate;
  const dir = mkdtempSync(join(tmpdir(), 'phimviet-hls-host-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    certificate = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
    return certificate;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const TYPES: Record<string, string> = {
  m3u8: 'application/vnd.apple.mpegurl',
  ts: 'video/mp2t',
  vtt: 'text/vtt',
  key: 'application/octet-stream',
};

/**
 * Starts the host. `cors: false` answers without Access-Control-Allow-Origin (a host that refuses cross-origin
 * reads); `delay` holds each answer for that many milliseconds (a slower network); `port` reuses a port (a
 * host that comes back after a stop).
 */
export async function startHlsHost(
  routes: HostRoutes,
  options: { cors?: boolean; delay?: (path: string) => number; port?: number } = {},
): Promise<HlsHost> {
  const cors = options.cors ?? true;
  const requests: string[] = [];
  const server = createServer(selfSigned(), (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    if (cors) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Allow-Headers', 'Range');
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    requests.push(path);
    const answer = routes(path.split('?')[0]!, req);
    if (!answer) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    // A host that stops answering: the request stays open until the host is closed.
    if ('hang' in answer) return;
    if ('status' in answer) {
      res.writeHead(answer.status, { 'Content-Type': 'text/plain' }).end(`status ${answer.status}`);
      return;
    }
    const ext = path.split('?')[0]!.split('.').pop() ?? '';
    const send = () => {
      if (res.destroyed) return;
      res.writeHead(200, { 'Content-Type': answer.type ?? TYPES[ext] ?? 'application/octet-stream', 'Cache-Control': 'no-store' });
      res.end(answer.body);
    };
    const wait = options.delay?.(path) ?? 0;
    if (wait > 0) setTimeout(send, wait);
    else send();
  });
  await new Promise<void>((ok) => server.listen(options.port ?? 0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** The demo clip's files (playlists as text, segments as bytes), read once. */
export function demoFile(name: string): string | Uint8Array {
  const bytes = readFileSync(join(DEMO_HLS, name));
  return name.endsWith('.m3u8') || name.endsWith('.vtt') ? bytes.toString('utf8') : bytes;
}

/**
 * Points an episode of a demo film at other links, straight in the product's database (the catalogue version's
 * triggers make every cache forget the old links): `servers` in order, each with its m3u8 and embed link.
 * Returns what puts the film's own links back (other test files play the demo films).
 */
export async function setEpisodeLinks(
  slug: string,
  episode: number,
  servers: { name: string; m3u8: string; embed?: string }[],
  /** The product (tests: the one global-setup started; a bench passes its own). */
  product: { databaseFile: string; baseURL: string } = { databaseFile: inject('databaseFile'), baseURL: inject('baseURL') },
): Promise<() => Promise<void>> {
  const db = await productDatabase(product.databaseFile);
  const write = async (rows: { name: string; m3u8: string; embed: string; title?: string }[]) => {
    const film = await db.execute({ sql: 'SELECT id FROM films WHERE slug = ?', args: [slug] });
    const filmId = film.rows[0]?.id;
    if (filmId === undefined || filmId === null) throw new Error(`no film ${slug}`);
    const before = await db.execute({
      sql: 'SELECT server_name, name, m3u8_url, embed_url FROM episodes WHERE film_id = ? AND episode = ? ORDER BY id',
      args: [filmId, episode],
    });
    await db.batch(
      [
        { sql: 'DELETE FROM episodes WHERE film_id = ? AND episode = ?', args: [filmId, episode] },
        ...rows.map((s) => ({
          sql: 'INSERT INTO episodes (film_id, server_name, episode, name, m3u8_url, embed_url) VALUES (?, ?, ?, ?, ?, ?)',
          args: [filmId, s.name, episode, s.title ?? `Tập ${episode}`, s.m3u8, s.embed],
        })),
      ],
      'write',
    );
    return before.rows.map((r) => ({
      name: String(r.server_name),
      title: String(r.name),
      m3u8: String(r.m3u8_url),
      embed: String(r.embed_url),
    }));
  };
  try {
    const original = await write(servers.map((s) => ({ ...s, embed: s.embed ?? '' })));
    await untilServed(
      product.baseURL,
      slug,
      servers.map((s) => s.name),
    );
    return async () => {
      const again = await productDatabase(product.databaseFile);
      try {
        await again.batch(
          [
            { sql: 'DELETE FROM episodes WHERE film_id = (SELECT id FROM films WHERE slug = ?) AND episode = ?', args: [slug, episode] },
            ...original.map((s) => ({
              sql: 'INSERT INTO episodes (film_id, server_name, episode, name, m3u8_url, embed_url) VALUES ((SELECT id FROM films WHERE slug = ?), ?, ?, ?, ?, ?)',
              args: [slug, s.name, episode, s.title, s.m3u8, s.embed],
            })),
          ],
          'write',
        );
      } finally {
        again.close();
      }
      await untilServed(
        product.baseURL,
        slug,
        original.map((s) => s.name),
      );
    };
  } finally {
    db.close();
  }
}

/**
 * The product re-reads the catalogue version at most every PUBLIC_CACHE_SECONDS (10 s), so a write made
 * behind its back is served once that has passed: wait until the film's detail lists these servers (a series'
 * other episodes may keep other servers: listed too, in any order).
 */
async function untilServed(baseURL: string, slug: string, servers: string[]): Promise<void> {
  const want = JSON.stringify([...new Set(servers)]);
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const detail = (await (await fetch(`${baseURL}/api/product/${slug}`)).json()) as {
      datafilm?: { servers?: { server_name: string }[] };
    };
    const served = detail.datafilm?.servers?.map((s) => s.server_name) ?? [];
    if (JSON.stringify(served) === want || servers.every((name) => served.includes(name))) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${slug} was not served with the servers ${want} within 30 s`);
}
