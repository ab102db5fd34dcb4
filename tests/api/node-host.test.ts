import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress';
import { Hono } from 'hono';
import { createNodeRoot } from '../../worker/node';
import { immutableAssets } from '../../worker/lib/immutable-assets';
import { createTestApp } from '../helpers/app';
import { upsertFilm } from '../../worker/services/films/film-writer';

let root: ReturnType<typeof createNodeRoot>;
let webDir = '';

beforeAll(async () => {
  const { deps } = await createTestApp({ config: { PARTYKIT_HOST: 'https://rooms.example.com' } });
  await upsertFilm(deps.db, { title: 'Mắt Biếc', categoryId: 25, posterUrl: 'https://img.example.com/mat-biec.webp?a=1&b="2"' });
  const web = mkdtempSync(join(tmpdir(), 'web-dist-'));
  webDir = web;
  mkdirSync(join(web, 'assets'));
  // A shell of a real one's size (answers under 1 KB are sent uncompressed).
  writeFileSync(
    join(web, 'index.html'),
    `<!doctype html><html lang="vi"><head><title>PhimViet</title></head><body>${'<div class="spinner"></div>'.repeat(60)}</body></html>`,
  );
  writeFileSync(join(web, 'assets', 'app-abc123.js'), 'console.log(1)');
  writeFileSync(join(web, 'assets', 'big.js'), 'x'.repeat(20_000));
  // The build writes compressed copies of static files (scripts/precompress.ts); the host serves those.
  precompressDir(web);
  const media = mkdtempSync(join(tmpdir(), 'demo-media-'));
  mkdirSync(join(media, 'hls'));
  writeFileSync(join(media, 'hls', 'clip.m3u8'), '#EXTM3U\n#EXT-X-ENDLIST\n');
  root = createNodeRoot(deps, media, web);
});

describe('Node host', () => {
  it('serves the shell with the live-comment host and the security headers', async () => {
    const res = await root.request('/');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<meta name="partykit-host" content="rooms.example.com"></head>');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers client-side routes with the shell (SPA fallback), not a 404', async () => {
    for (const path of ['/han-quoc', '/dang-nhap', '/xem-phim/mat-biec/tap-1', '/the-loai/18+']) {
      const res = await root.request(path);
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain('partykit-host');
    }
  });

  it('serves hashed assets as immutable and HLS with its media types', async () => {
    const asset = await root.request('/assets/app-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const playlist = await root.request('/demo-media/hls/clip.m3u8');
    expect(playlist.status).toBe(200);
    expect(playlist.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
  });

  it('keeps a hashed asset in memory once read (its name changes with its content); ranges, HEAD and bad paths as before', async () => {
    writeFileSync(join(webDir, 'assets', 'kept-abc123.js'), 'y'.repeat(5000));
    precompressDir(webDir);
    const first = await root.request('/assets/kept-abc123.js', { headers: { 'accept-encoding': 'br' } });
    expect(first.headers.get('content-encoding')).toBe('br');
    const brotli = await first.arrayBuffer();
    expect((await root.request('/assets/kept-abc123.js')).headers.get('content-length')).toBe('5000');
    // Gone from the disk: still served, the same bytes, from memory.
    for (const suffix of ['', '.br', '.gz']) rmSync(join(webDir, 'assets', `kept-abc123.js${suffix}`), { force: true });
    const again = await root.request('/assets/kept-abc123.js', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(again.status).toBe(200);
    expect(again.headers.get('content-encoding')).toBe('br');
    expect(again.headers.get('vary')).toContain('Accept-Encoding');
    expect(again.headers.get('cache-control')).toContain('immutable');
    expect(again.headers.get('content-type')).toMatch(/javascript/);
    expect(Buffer.from(await again.arrayBuffer()).equals(Buffer.from(brotli))).toBe(true);
    expect(await (await root.request('/assets/kept-abc123.js')).text()).toBe('y'.repeat(5000));
    // HEAD: the length, no body.
    const head = await root.request('/assets/big.js', { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe('20000');
    expect(await head.text()).toBe('');
    // A range still gets serveStatic's partial answer.
    const range = await root.request('/assets/big.js', { headers: { range: 'bytes=0-9' } });
    expect(range.status).toBe(206);
    expect(await range.text()).toBe('x'.repeat(10));
    // No way out of the build's folder.
    for (const path of ['/assets/../index.html', '/assets/%2e%2e/index.html', '/assets/.hidden']) {
      const res = await root.request(path);
      expect(res.headers.get('cache-control'), path).not.toContain('immutable');
    }
    expect((await root.request('/assets/missing-abc123.js')).status).toBe(404);
    // A kept file without compressed copies (too small to gain): the copy is not looked for on every request.
    writeFileSync(join(webDir, 'assets', 'small-abc123.js'), 'z'.repeat(100));
    expect(
      (await root.request('/assets/small-abc123.js', { headers: { 'accept-encoding': 'br' } })).headers.get('content-encoding'),
    ).toBeNull();
    writeFileSync(join(webDir, 'assets', 'small-abc123.js.br'), 'not looked for');
    const small = await root.request('/assets/small-abc123.js', { headers: { 'accept-encoding': 'br' } });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(await small.text()).toBe('z'.repeat(100));
  });

  it('an asset past the memory bound, and a refused encoding, are left as they should be', async () => {
    const app = new Hono();
    app.use('/assets/*', immutableAssets(webDir, 1000));
    app.get('*', (c) => c.text('streamed by serveStatic', 200, { 'X-Fallback': '1' }));
    // big.js (20,000 bytes) passes a 1,000-byte bound: never kept, never read whole per request.
    const big = await app.request('/assets/big.js');
    expect(big.headers.get('x-fallback')).toBe('1');
    // br refused with q=0: the gzip copy, as the answers compressed per request choose (chooseEncoding).
    const refused = await root.request('/assets/big.js', { headers: { 'accept-encoding': 'br;q=0, gzip' } });
    expect(refused.headers.get('content-encoding')).toBe('gzip');
  });

  it('gzips the shell, API answers and assets for clients that accept it, and only for them', async () => {
    // API answers (over 1 KB; this catalogue's are smaller) are covered by hardening-compression.test.ts.
    for (const path of ['/han-quoc', '/assets/big.js']) {
      const res = await root.request(path, { headers: { 'accept-encoding': 'gzip' } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-encoding'), path).toBe('gzip');
    }
    const plain = await root.request('/assets/big.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect((await plain.text()).length).toBe(20_000);
  });

  it('routes /api to the app, with JSON errors for unknown API paths', async () => {
    expect(await (await root.request('/api/health')).json()).toEqual({ ok: true, db: 'ok' });
    const missing = await root.request('/api/nope');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
});
