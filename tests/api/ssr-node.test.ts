// The first page rendered on the Node host (worker/node.ts → worker/ssr/render.ts → web/src/entry-server.tsx):
// public pages come with their content in #root and the query cache they were rendered from; other pages,
// a missing renderer and a failing render all get the static shell.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNodeRoot } from '../../worker/node';
import type { SsrEntry } from '../../worker/ssr/render';
import { createTestApp, type TestApp } from '../helpers/app';
import { seedCatalogue } from '../helpers/catalogue-fixture';
import { buildSsrEntry } from '../helpers/ssr-build';

const SPINNER = '<div class="app-spinner" role="status"></div>';
// The shape of web/index.html after a build: the boot script first in <head>, #root closed by <!--/app-->.
const SHELL = `<!doctype html><html lang="vi"><head><script src="/assets/boot-abc.js" async></script><meta charset="UTF-8" /><title>PhimViet</title></head><body><div id="root">${SPINNER}</div><!--/app--><script type="module" src="/assets/index-abc.js"></script></body></html>`;

let test: TestApp;
let web: string;
let load: () => Promise<SsrEntry>;

beforeAll(async () => {
  test = await createTestApp();
  await seedCatalogue(test.deps.db);
  web = mkdtempSync(join(tmpdir(), 'web-dist-'));
  mkdirSync(join(web, 'assets'));
  writeFileSync(join(web, 'index.html'), SHELL);
  ({ load } = await buildSsrEntry());
}, 120_000);

afterEach(() => vi.restoreAllMocks());

const page = async (path: string, loadEntry = load) => {
  const res = await createNodeRoot(test.deps, undefined, web, loadEntry).request(path);
  expect(res.status, path).toBe(200);
  return res.text();
};

/** The JSON the page carries for hydration (main.tsx), parsed. */
const stateOf = (html: string) => {
  const json = /<script type="application\/json" id="ssr-state">([^<]*)<\/script>/.exec(html)?.[1];
  return json === undefined ? undefined : (JSON.parse(json) as { queries: { queryKey: unknown[]; state: { data?: object } }[] });
};

/** The page's JSON-LD documents, parsed. */
const jsonLdOf = (html: string) =>
  [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);

const rootOf = (html: string) => /<div id="root">([\s\S]*)<\/div><!--\/app-->/.exec(html)?.[1] ?? '';

describe('Node host renders the first page', () => {
  it('home: the films in #root, the first screen query in the state at the end of the body, a marker before the boot script', async () => {
    const html = await page('/');
    const root = rootOf(html);
    expect(root).not.toContain('app-spinner');
    expect(root).toContain('Đất Rừng Phương Nam');
    expect(root).toContain('Mắt Biếc');
    // The page carries what it renders (the hot films and the first tab), not the whole home: the browser asks
    // for the other tabs, the sections and the sidebar once the page runs.
    const state = stateOf(html);
    expect(state?.queries.map((q) => q.queryKey)).toEqual([['home', 'top']]);
    expect(Object.keys(state?.queries[0]?.state.data ?? {}).sort()).toEqual(['phimbomoicapnhat', 'phimhot']);
    expect(html.indexOf('<meta name="ssr" content="1">')).toBeLessThan(html.indexOf('/assets/boot-abc.js'));
    expect(html).toMatch(/<script type="application\/json" id="ssr-state">[^<]*<\/script><\/body>/);
  });

  it('a listing (/phim-bo, page 2 with a filter) shows its films', async () => {
    const html = await page('/phim-bo');
    expect(rootOf(html)).toContain('Đất Rừng Phương Nam');
    expect(rootOf(html)).not.toContain('Mắt Biếc'); // a phim lẻ, not a series
    // The page carries the state it renders: its films, not the whole home, nor the sidebar's lists (they mount
    // when scrolled to; the browser asks for them once the page runs).
    expect(stateOf(html)?.queries.map((q) => q.queryKey[0])).toEqual(['listing']);
    const filtered = await page('/phim-le?sort=views&page=1');
    expect(rootOf(filtered)).toContain('Mắt Biếc');
  });

  it('a film page shows its title and description; the watch page its shell', async () => {
    const filmHtml = await page('/dat-rung-phuong-nam');
    // The page's own title and canonical link in <head> (lib/page-meta.ts, collected while rendering).
    expect(filmHtml).toContain('<title>Đất Rừng Phương Nam (Song of the South) | PhimViet - Xem phim online</title>');
    expect(filmHtml).toMatch(/<link rel="canonical" href="http:\/\/[^"]+\/dat-rung-phuong-nam">/);
    // Its poster (the largest paint) is named in <head>, ahead of everything else the page loads.
    const head = filmHtml.slice(0, filmHtml.indexOf('</head>'));
    expect(head).toMatch(/<link rel="preload" (?=[^>]*as="image")(?=[^>]*fetchPriority="high")[^>]*>/i);
    const film = rootOf(filmHtml);
    expect(film).toContain('Đất Rừng Phương Nam');
    expect(film).toContain('Hành trình của An.');
    const watch = await page('/xem-phim/dat-rung-phuong-nam/tap-1');
    expect(rootOf(watch)).toContain('Đất Rừng Phương Nam');
  });

  it('search results render on the host', async () => {
    expect(rootOf(await page('/tim-kiem/mat%20biec'))).toContain('Mắt Biếc');
  });

  it('keeps the static shell for pages it does not render: sign-in, account, admin', async () => {
    for (const path of ['/dang-nhap', '/account', '/admin', '/dang-ky-goi-vip']) {
      const html = await page(path);
      expect(rootOf(html), path).toBe(SPINNER);
      expect(stateOf(html), path).toBeUndefined();
    }
  });

  it('an unknown film, genre, country or path is a 404 with the not-found page, never a soft 404', async () => {
    const root = createNodeRoot(test.deps, undefined, web, load);
    for (const path of ['/khong-co-phim-nay', '/the-loai/khong-co', '/xem-phim/khong-co-phim-nay/tap-1', '/a/b/c/d']) {
      const res = await root.request(path);
      expect(res.status, path).toBe(404);
      const html = await res.text();
      expect(rootOf(html), path).toContain('Page Not Found');
      expect(html, path).toContain('<meta name="robots" content="noindex" />');
      // Rendered afresh in the browser, not hydrated from a state of queries that failed.
      expect(stateOf(html), path).toBeUndefined();
    }
    // A known country (the /{slug} namespace it shares with films) is still its listing.
    expect((await root.request('/han-quoc')).status).toBe(200);
  });

  it('a missing hashed asset is a 404, never the shell cached for a year', async () => {
    const res = await createNodeRoot(test.deps, undefined, web, load).request('/assets/missing.js');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type') ?? '').not.toContain('text/html');
    expect(res.headers.get('cache-control')).not.toContain('immutable');
  });

  it("a built shell's head: its tags changed where they are, the missing ones added, the critical CSS untouched", async () => {
    // web/index.html after a build: the site's tags, then the critical CSS, then the manifest, then </head>.
    const style = '<style>:root{--bg:#0c0e13}body{margin:0}</style>';
    const built = SHELL.replace(
      '<title>PhimViet</title></head>',
      `<title>PhimViet</title><meta name="description" content="Trang chủ" /><meta property="og:type" content="website" />${style}<link rel="manifest" href="/manifest.webmanifest"></head>`,
    );
    const dir = mkdtempSync(join(tmpdir(), 'web-dist-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), built);
    const res = await createNodeRoot(test.deps, undefined, dir, load).request('/dat-rung-phuong-nam');
    const html = await res.text();
    const head = html.slice(0, html.indexOf('</head>'));
    expect(html.split('<title>').length).toBe(2);
    expect(head).toContain('<title>Đất Rừng Phương Nam');
    expect(html.split('name="description"').length).toBe(2);
    expect(head).not.toContain('content="Trang chủ"');
    expect(html.split('property="og:type"').length).toBe(2);
    expect(head).toContain('<meta property="og:type" content="video.tv_show" />');
    for (const tag of ['<link rel="canonical"', 'property="og:url"', 'name="twitter:card"', '<script type="application/ld+json">'])
      expect(head, tag).toContain(tag);
    expect(html.split(style).length).toBe(2);
    expect(head).toContain('<link rel="manifest" href="/manifest.webmanifest">');
    expect(html.indexOf('<meta name="ssr" content="1">')).toBeLessThan(html.indexOf('/assets/boot-abc.js'));
    expect(rootOf(html)).toContain('Đất Rừng Phương Nam');
    expect(html).toMatch(/<script type="application\/json" id="ssr-state">[^<]*<\/script><\/body><\/html>$/);
  });

  it('the start-up warm-up renders every kind of page, and later pages read the real catalogue', async () => {
    const entry = await load();
    // Home, a listing, a film, an episode and a search page, three rounds each (web/src/app/warm-up.ts).
    expect(await entry.warmUp?.()).toBe(15);
    const root = rootOf(await page('/'));
    expect(root).toContain('Đất Rừng Phương Nam');
    expect(root).not.toContain('Khởi động');
  });

  it('canonical, og:url, og:image and JSON-LD come from PUBLIC_URL, never from the Host header', async () => {
    const root = createNodeRoot(test.deps, undefined, web, load);
    const res = await root.request('http://evil.example/dat-rung-phuong-nam', { headers: { host: 'evil.example' } });
    const html = await res.text();
    const origin = new URL(test.deps.config.PUBLIC_URL).origin;
    expect(html).not.toContain('evil.example');
    expect(html).toContain(`<link rel="canonical" href="${origin}/dat-rung-phuong-nam">`);
    expect(html).toContain(`<meta property="og:url" content="${origin}/dat-rung-phuong-nam" />`);
    expect(html).toContain('<meta property="og:type" content="video.tv_show" />');
    expect(html).toMatch(/<meta name="twitter:card" content="summary(_large_image)?" \/>/);
  });

  it('film pages carry JSON-LD: TVSeries with its episodes or Movie, and a BreadcrumbList; listings an ItemList', async () => {
    const origin = new URL(test.deps.config.PUBLIC_URL).origin;
    const series = jsonLdOf(await page('/dat-rung-phuong-nam'));
    const show = series.find((d) => d['@type'] === 'TVSeries');
    expect(show).toMatchObject({ '@context': 'https://schema.org', name: 'Đất Rừng Phương Nam', url: `${origin}/dat-rung-phuong-nam` });
    expect(show?.numberOfEpisodes).toBe(3);
    expect(show?.episode).toEqual(
      [1, 2, 3].map((n) =>
        expect.objectContaining({ '@type': 'TVEpisode', episodeNumber: n, url: `${origin}/xem-phim/dat-rung-phuong-nam/tap-${n}` }),
      ),
    );
    expect(show?.genre).toEqual(['Hành Động', 'Cổ Trang']);
    const crumbs = series.find((d) => d['@type'] === 'BreadcrumbList');
    expect(((crumbs?.itemListElement ?? []) as { position: number; item: string }[]).map((c) => [c.position, c.item])).toEqual([
      [1, `${origin}/`],
      [2, `${origin}/phim-bo`],
      [3, `${origin}/dat-rung-phuong-nam`],
    ]);
    const movieHtml = await page('/mat-biec');
    expect(movieHtml).toContain('<meta property="og:type" content="video.movie" />');
    expect(jsonLdOf(movieHtml).find((d) => d['@type'] === 'Movie')).toMatchObject({ name: 'Mắt Biếc', url: `${origin}/mat-biec` });
    const list = jsonLdOf(await page('/phim-bo')).find((d) => d['@type'] === 'ItemList');
    const items = list?.itemListElement as { position: number; url: string }[];
    expect(items.length).toBeGreaterThan(0);
    expect(items[0]).toMatchObject({ '@type': 'ListItem', position: 1 });
    expect(items.every((i) => i.url.startsWith(`${origin}/`))).toBe(true);
  });

  it('no "<" inside the state script, whatever the data holds', async () => {
    const html = await page('/tim-kiem/%3C%2Fscript%3E%3Cb%3E');
    const state = /id="ssr-state">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(state).not.toContain('<');
  });
});

describe('falls back to the static shell', () => {
  it('when the renderer is not built (logged)', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const html = await page('/', () => Promise.reject(new Error('Cannot find module entry-server.js')));
    expect(rootOf(html)).toBe(SPINNER);
    expect(log).toHaveBeenCalled();
  });

  it('when rendering throws (logged), never a 500', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const broken: SsrEntry = { renderPage: () => Promise.reject(new Error('boom')) };
    const html = await page('/phim-bo', () => Promise.resolve(broken));
    expect(rootOf(html)).toBe(SPINNER);
    expect(log.mock.calls.flat().join(' ')).toContain('boom');
  });

  it('when the API read fails: the shell, and the browser asks again', async () => {
    const failing = await createTestApp();
    await failing.deps.db.run('DROP TABLE films' as never).catch(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const res = await createNodeRoot(failing.deps, undefined, web, load).request('/');
    expect(res.status).toBe(200);
    expect(rootOf(await res.text())).toBe(SPINNER);
  });
});
