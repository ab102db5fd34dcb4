import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/precompress';
import { chooseEncoding } from '../../worker/lib/compress-dynamic';
import { createNodeRoot } from '../../worker/node';
import { createTestApp } from '../helpers/app';
import { seedCatalogue } from '../helpers/catalogue-fixture';

let root: ReturnType<typeof createNodeRoot>;
let web: string;
const SCRIPT = `export const films = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ i, title: `Phim ${i}` })))};\n`;

beforeAll(async () => {
  const { deps } = await createTestApp({ config: { PUBLIC_CACHE_SECONDS: 0 } });
  await seedCatalogue(deps.db);
  web = mkdtempSync(join(tmpdir(), 'web-dist-'));
  mkdirSync(join(web, 'assets'));
  writeFileSync(
    join(web, 'index.html'),
    `<!doctype html><html lang="vi"><head><title>PhimViet</title></head><body>${'<p>x</p>'.repeat(300)}</body></html>`,
  );
  writeFileSync(join(web, 'assets', 'app-abc123.js'), SCRIPT);
  writeFileSync(join(web, 'assets', 'style-abc123.css'), `${'.a{color:red}'.repeat(200)}`);
  writeFileSync(join(web, 'assets', 'tiny.js'), 'console.log(1)');
  writeFileSync(join(web, 'assets', 'unbuilt.js'), SCRIPT);
  writeFileSync(join(web, 'poster.webp'), Buffer.alloc(5000, 7));
  precompressDir(web);
  // A file the build did not precompress (the unbuilt case): served as is, never compressed per request.
  for (const ext of ['.gz', '.br']) writeFileSync(join(web, 'assets', `unbuilt.js${ext}`), '');
  root = createNodeRoot(deps, undefined, web);
});

describe('precompressed static files', () => {
  it('the build writes .br and .gz beside compressible files only, and keeps them out of the Workers upload', () => {
    for (const name of ['assets/app-abc123.js', 'assets/style-abc123.css', 'index.html']) {
      expect(gunzipSync(readFileSync(join(web, `${name}.gz`))).toString()).toBe(readFileSync(join(web, name), 'utf8'));
      expect(brotliDecompressSync(readFileSync(join(web, `${name}.br`))).toString()).toBe(readFileSync(join(web, name), 'utf8'));
    }
    expect(existsSync(join(web, 'assets/tiny.js.gz'))).toBe(false);
    expect(existsSync(join(web, 'poster.webp.gz'))).toBe(false);
    expect(readFileSync(join(web, '.assetsignore'), 'utf8')).toBe('*.gz\n*.br\n');
  });

  it('serves the brotli copy to browsers that accept it, gzip to the others, plain otherwise; Vary and type kept', async () => {
    const cases = [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['', null],
    ] as const;
    for (const [accept, encoding] of cases) {
      const res = await root.request('/assets/app-abc123.js', { headers: accept ? { 'accept-encoding': accept } : {} });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding'), accept).toBe(encoding);
      expect(res.headers.get('content-type')).toMatch(/javascript/);
      expect(res.headers.get('vary')).toContain('Accept-Encoding');
      expect(res.headers.get('cache-control')).toContain('immutable');
      const bytes = Buffer.from(await res.arrayBuffer());
      const text = encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes;
      expect(text.toString()).toBe(SCRIPT);
      expect(Number(res.headers.get('content-length'))).toBe(bytes.byteLength);
    }
  });

  it('never compresses a static file per request (the copy on disk is what is sent)', async () => {
    const res = await root.request('/assets/unbuilt.js', { headers: { 'accept-encoding': 'deflate' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.text()).toBe(SCRIPT);
    // The on-disk copies are what is sent: proof that nothing compresses on the fly.
    const copy = await root.request('/assets/unbuilt.js', { headers: { 'accept-encoding': 'br' } });
    expect(copy.headers.get('content-encoding')).toBe('br');
    expect((await copy.arrayBuffer()).byteLength).toBe(0);
  });
});

describe('API answers and the shell compressed per request', () => {
  it('brotli for browsers that accept it, gzip otherwise, honouring q=0; Vary always', async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['identity', null],
    ] as const) {
      const res = await root.request('/api/product/product-phimbo', { headers: { 'accept-encoding': accept } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding'), accept).toBe(encoding);
      expect(res.headers.get('vary')).toContain('Accept-Encoding');
      const bytes = Buffer.from(await res.arrayBuffer());
      const text = encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes;
      expect((JSON.parse(text.toString()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    }
    const shell = await root.request('/phim-bo', { headers: { 'accept-encoding': 'br' } });
    expect(shell.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(Buffer.from(await shell.arrayBuffer())).toString()).toContain('partykit-host');
  });

  it('small answers go as they are', async () => {
    const res = await root.request('/api/health', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(await res.json()).toEqual({ ok: true, db: 'ok' });
  });

  it('chooseEncoding reads q-values', () => {
    expect(chooseEncoding('gzip;q=1.0, br;q=0.5')).toBe('br');
    expect(chooseEncoding('br;q=0')).toBeNull();
    expect(chooseEncoding('*')).toBe('gzip');
    expect(chooseEncoding(undefined)).toBeNull();
  });
});
