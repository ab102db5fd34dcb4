// The public cache on the Node host (worker/node.ts with lib/edge-cache.ts, the in-memory store) and in the app
// (lib/public-cache.ts): anonymous pages and public reads answered from it, keyed by the catalogue version that
// every catalogue write raises (drizzle/0008_catalogue_version.sql), and nothing personal ever stored.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { createNodeRoot } from '../../worker/node';
import type { SsrEntry } from '../../worker/ssr/render';
import { forgetCatalogueVersion } from '../../worker/services/catalogue/version';
import { upsertFilm } from '../../worker/services/films/film-writer';
import { createTestApp, type TestApp } from '../helpers/app';
import { bearer, signedInUser } from '../helpers/auth';
import { seedCatalogue } from '../helpers/catalogue-fixture';

const SHELL = '<!doctype html><html><head><title>PhimViet</title></head><body><div id="root"></div><!--/app--></body></html>';
const web = mkdtempSync(join(tmpdir(), 'web-dist-cache-'));
writeFileSync(join(web, 'index.html'), SHELL);

let t: TestApp;
let renders: number;
/** A renderer that shows the films of the home read, like the real one, and counts its calls. */
const entry: SsrEntry = {
  renderPage: async (_url, fetchApi) => {
    renders++;
    const home = (await (await fetchApi(new Request('http://app.internal/api/product/product-home'))).json()) as {
      phimbomoicapnhat: { title: string }[];
    };
    return { html: `<ul>${home.phimbomoicapnhat.map((f) => `<li>${f.title}</li>`).join('')}</ul>`, state: {}, status: 200 };
  },
};

let root: ReturnType<typeof createNodeRoot>;
const get = (path: string, headers: Record<string, string> = {}) => root.request(path, { headers });

beforeEach(async () => {
  t = await createTestApp();
  await seedCatalogue(t.deps.db);
  renders = 0;
  root = createNodeRoot(t.deps, undefined, web, () => Promise.resolve(entry));
});

const version = async () => (await t.deps.db.get<{ version: number }>(sql`select version from catalogue_version where id = 1`))?.version;

describe('public cache on the Node host', () => {
  it('a second anonymous view of a page is a hit: no rendering, no database', async () => {
    const first = await get('/');
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('miss');
    expect(first.headers.get('cache-control')).toMatch(/public.*s-maxage=10.*stale-while-revalidate=\d+/);
    const html = await first.text();
    const second = await get('/');
    expect(second.headers.get('x-cache')).toBe('hit');
    expect(await second.text()).toBe(html);
    expect(renders).toBe(1);
  });

  it('keys by PUBLIC_URL, not the Host header: another Host gets the same entry', async () => {
    await get('/');
    const res = await root.request('http://evil.example/', { headers: { host: 'evil.example' } });
    expect(res.headers.get('x-cache')).toBe('hit');
  });

  it('an admin edit raises the catalogue version: the next view is rendered afresh, with the new title', async () => {
    expect(await (await get('/')).text()).toContain('Đất Rừng Phương Nam');
    const before = await version();
    const admin = await signedInUser(t, { roles: 'admin' });
    const edit = await t.request('/api/product/edit_productphim', {
      json: { data: { slug: 'dat-rung-phuong-nam', title: 'Rừng Phương Nam (bản mới)' } },
      headers: bearer(admin.session.token),
    });
    expect(edit.status).toBe(200);
    expect(await version()).toBeGreaterThan(before!);
    const after = await get('/');
    expect(after.headers.get('x-cache')).toBe('miss');
    expect(await after.text()).toContain('Rừng Phương Nam (bản mới)');
  });

  it('a write by another process (a crawl) reaches the pages within PUBLIC_CACHE_SECONDS', async () => {
    await get('/');
    // Straight to the database, as a crawl in another process or isolate writes: this one is not told.
    await upsertFilm(t.deps.db, { title: 'Phim Mới Thu Thập', categoryId: 24, genreSlugs: ['hanh-dong'] });
    t.advance(10_000);
    const res = await get('/');
    expect(res.headers.get('x-cache')).toBe('miss');
    expect(await res.text()).toContain('Phim Mới Thu Thập');
  });

  it('view counts are not catalogue changes: recording a view keeps the cached entries', async () => {
    await get('/');
    const before = await version();
    expect((await t.request('/api/product/update_view', { json: { title: 'mat-biec' } })).status).toBe(200);
    expect(await version()).toBe(before);
    expect((await get('/')).headers.get('x-cache')).toBe('hit');
  });

  it('never stores or answers a signed-in request, and never stores a personal answer', async () => {
    const user = await signedInUser(t);
    const anonymous = await get('/api/product/mat-biec');
    expect(anonymous.headers.get('cache-control')).toMatch(/public/);
    // Signed in: the handler answers (the viewer's own rating), marked private, and nothing is stored.
    const mine = await root.request('/api/product/mat-biec', { headers: bearer(user.session.token) });
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('private, no-store');
    // A page asked with credentials is neither answered from the cache nor stored.
    await get('/');
    const renderedBefore = renders;
    const signedPage = await root.request('/', { headers: bearer(user.session.token) });
    expect(signedPage.headers.get('x-cache')).toBeNull();
    expect(renders).toBe(renderedBefore + 1);
    // A personal route is never stored: the second call still reaches the handler.
    const account1 = await root.request('/api/account', { headers: bearer(user.session.token) });
    const account2 = await root.request('/api/account', { headers: bearer(user.session.token) });
    expect([account1.headers.get('x-cache'), account2.headers.get('x-cache')]).toEqual([null, null]);
  });

  it('a stale entry is answered and refreshed behind it, and the refreshed entry is a whole page', async () => {
    const gzip = { 'accept-encoding': 'gzip' };
    const html = async (res: Response) =>
      res.headers.get('content-encoding') === 'gzip' ? gunzipSync(Buffer.from(await res.arrayBuffer())).toString() : res.text();
    const first = await html(await get('/', gzip));
    t.advance(11_000);
    const stale = await get('/', gzip);
    expect(stale.headers.get('x-cache')).toBe('stale');
    expect(await html(stale)).toBe(first);
    await new Promise((r) => setTimeout(r, 50)); // the refresh runs after the answer
    expect(renders).toBe(2);
    const refreshed = await get('/', gzip);
    expect(refreshed.headers.get('x-cache')).toBe('hit');
    // Compressed once, by the host, not stored compressed by an earlier request's context.
    expect(await html(refreshed)).toBe(first);
  });

  it('PUBLIC_CACHE_SECONDS=0 turns it off', async () => {
    const off = await createTestApp({ config: { PUBLIC_CACHE_SECONDS: 0 } });
    await seedCatalogue(off.deps.db);
    const offRoot = createNodeRoot(off.deps, undefined, web, () => Promise.resolve(entry));
    await offRoot.request('/');
    const res = await offRoot.request('/');
    expect(res.headers.get('x-cache')).toBeNull();
    expect(renders).toBe(2);
  });
});

describe('a release touches only what it changes (per-film versions)', () => {
  /** A renderer that shows what each page shows: the home its lists, a film or watch page the film's detail. */
  const pages: SsrEntry = {
    renderPage: async (url, fetchApi) => {
      renders++;
      const path = new URL(url, 'http://app.internal').pathname;
      const film = /^\/xem-phim\/([^/]+)\/[^/]+$/.exec(path)?.[1] ?? /^\/([a-z0-9-]+)$/.exec(path)?.[1];
      const api = film ? `/api/product/${film}` : '/api/product/product-home';
      const text = await (await fetchApi(new Request(`http://app.internal${api}`))).text();
      return { html: `<pre>${text}</pre>`, state: {}, status: 200 };
    },
  };
  let site: ReturnType<typeof createNodeRoot>;
  const view = async (path: string) => {
    const res = await site.request(path);
    return { cache: res.headers.get('x-cache'), html: await res.text() };
  };
  /** A new episode of Đất Rừng Phương Nam through the film writer, as a crawl or an admin writes it, in this process. */
  const release = async () => {
    const film = await t.deps.db.get<{ id: number }>(sql`select id from films where slug = 'dat-rung-phuong-nam'`);
    await upsertFilm(t.deps.db, {
      id: film!.id,
      title: 'Đất Rừng Phương Nam',
      categoryId: 24,
      episodeCountText: '4 Tập',
      episodes: [1, 2, 3, 4].map((n) => ({
        serverName: 'Vietsub #1',
        episode: n,
        name: `Tập ${n}`,
        m3u8Url: `https://cdn.example.com/0/${n}/index.m3u8`,
        embedUrl: '',
      })),
    });
    forgetCatalogueVersion(t.deps.db);
  };
  const others = ['/mat-biec', '/xem-phim/mat-biec/1', '/phim-bo-thu-1', '/xem-phim/phim-bo-thu-1/1', '/phim-bo-thu-2'];
  const mine = ['/dat-rung-phuong-nam', '/xem-phim/dat-rung-phuong-nam/1', '/xem-phim/dat-rung-phuong-nam/4'];

  beforeEach(() => {
    site = createNodeRoot(t.deps, undefined, web, () => Promise.resolve(pages));
  });

  it("a new episode of one film renders that film's pages and the lists again, and every other film's page stays a hit", async () => {
    for (const path of [...others, ...mine, '/', '/phim-bo']) expect((await view(path)).cache).toBe('miss');
    const before = renders;
    await release();
    // The film's pages: rendered afresh, with the new episode.
    for (const path of mine) {
      const page = await view(path);
      expect(page.cache).toBe('miss');
      expect(page.html).toContain('https://cdn.example.com/0/4/index.m3u8');
    }
    // The lists that show it: the home's 'mới cập nhật' carries its new episode count.
    const home = await view('/');
    expect(home.cache).toBe('miss');
    expect(home.html).toContain('4 Tập');
    expect((await view('/phim-bo')).cache).toBe('miss');
    // Every other film's pages: still hits, nothing rendered for them.
    for (const path of others) expect((await view(path)).cache).toBe('hit');
    expect(renders).toBe(before + mine.length + 2);
  });

  it("a change only a film's own page shows (its director) leaves the lists as they are", async () => {
    await view('/');
    await view('/mat-biec');
    await t.deps.db.run(sql`update films set director = 'Victor Vũ' where slug = 'mat-biec'`);
    forgetCatalogueVersion(t.deps.db);
    expect((await view('/')).cache).toBe('hit');
    const film = await view('/mat-biec');
    expect(film.cache).toBe('miss');
    expect(film.html).toContain('Victor Vũ');
  });

  it('a change that names no film (a source going down, a comment hidden) still renders every page again', async () => {
    await view('/');
    await view('/mat-biec');
    await t.deps.db.run(sql`update catalogue_version set version = version + 1 where id = 1`);
    forgetCatalogueVersion(t.deps.db);
    expect((await view('/')).cache).toBe('miss');
    expect((await view('/mat-biec')).cache).toBe('miss');
  });

  it("another process's release reaches this one's keys within PUBLIC_CACHE_SECONDS, the film it never asked about included", async () => {
    await view('/mat-biec');
    // Straight to the database: this process is not told.
    await t.deps.db.run(sql`update films set title = 'Mắt Biếc (bản đạo diễn)' where slug = 'mat-biec'`);
    await t.deps.db.run(sql`update films set title = 'Phim Bộ Thứ 9 (mới)' where slug = 'phim-bo-thu-9'`);
    expect((await view('/mat-biec')).cache).toBe('hit');
    t.advance(10_000);
    const film = await view('/mat-biec');
    expect(film.cache).toBe('miss');
    expect(film.html).toContain('Mắt Biếc (bản đạo diễn)');
    expect((await view('/phim-bo-thu-9')).html).toContain('Phim Bộ Thứ 9 (mới)');
  });

  it('500 concurrent first views of a new watch page make one render; every answer is the page, the waiting ones say hit', async () => {
    await release();
    const answers = await Promise.all(Array.from({ length: 500 }, () => site.request('/xem-phim/dat-rung-phuong-nam/4')));
    expect(renders).toBe(1);
    expect(answers.every((r) => r.status === 200)).toBe(true);
    const caches = answers.map((r) => r.headers.get('x-cache'));
    expect(caches.filter((c) => c === 'miss')).toHaveLength(1);
    expect(caches.filter((c) => c === 'hit')).toHaveLength(499);
    const bodies = new Set(await Promise.all(answers.map((r) => r.text())));
    expect(bodies.size).toBe(1);
    expect([...bodies][0]).toContain('https://cdn.example.com/0/4/index.m3u8');
  });

  it('K stale views of one page make one refresh', async () => {
    await view('/mat-biec');
    t.advance(11_000);
    const stale = await Promise.all(Array.from({ length: 40 }, () => site.request('/mat-biec')));
    expect(stale.every((r) => r.headers.get('x-cache') === 'stale')).toBe(true);
    await new Promise((r) => setTimeout(r, 100)); // the refresh runs after the answers
    expect(renders).toBe(2);
    expect((await view('/mat-biec')).cache).toBe('hit');
  });
});
