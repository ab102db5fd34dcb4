// robots.txt and the sitemaps (routes/seo.ts, services/seo/sitemap.ts) through the Node host: absolute URLs from
// PUBLIC_URL only, a sitemap index of the listings and the films in chunks, each film with its update time.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createNodeRoot } from '../../worker/node';
import { filmsSitemap, sitemapIndex } from '../../worker/services/seo/sitemap';
import { COUNTRIES, GENRES } from '../../worker/schemas/taxonomy';
import { createTestApp, type TestApp } from '../helpers/app';
import { FIXTURE_FILMS, seedCatalogue } from '../helpers/catalogue-fixture';

const web = mkdtempSync(join(tmpdir(), 'web-dist-seo-'));
writeFileSync(join(web, 'index.html'), '<!doctype html><html><head></head><body><div id="root"></div><!--/app--></body></html>');

const PUBLIC_URL = 'https://phimviet.example';
let t: TestApp;
let root: ReturnType<typeof createNodeRoot>;
const now = Date.UTC(2026, 5, 1, 8, 0, 0);

beforeAll(async () => {
  t = await createTestApp({ config: { PUBLIC_URL } });
  await seedCatalogue(t.deps.db, now);
  root = createNodeRoot(t.deps, undefined, web);
});

/** Every <loc> and its <lastmod>, in order. */
const entries = (xml: string) =>
  [...xml.matchAll(/<(?:url|sitemap)><loc>([^<]+)<\/loc>(?:<lastmod>([^<]+)<\/lastmod>)?<\/(?:url|sitemap)>/g)].map((m) => ({
    loc: m[1]!,
    lastmod: m[2],
  }));
/** A hostile Host header must change nothing. */
const get = (path: string) => root.request(`http://evil.example${path}`, { headers: { host: 'evil.example' } });

describe('robots.txt and sitemaps', () => {
  it('robots.txt keeps crawlers off the API and names the sitemap index on PUBLIC_URL', async () => {
    const res = await get('/robots.txt');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('User-agent: *');
    expect(text).toContain('Disallow: /api/');
    expect(text).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
  });

  it('/sitemap.xml is a sitemap index: the listings, then the films in chunks with lastmod', async () => {
    const res = await get('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/xml');
    const xml = await res.text();
    expect(xml).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml).not.toContain('evil.example');
    const list = entries(xml);
    expect(list.map((e) => e.loc)).toEqual([`${PUBLIC_URL}/sitemaps/listings.xml`, `${PUBLIC_URL}/sitemaps/films-1.xml`]);
    expect(list[1]!.lastmod).toBe(new Date(now).toISOString());
  });

  it('a films sitemap lists each film at its page with its update time', async () => {
    const res = await get('/sitemaps/films-1.xml');
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const urls = entries(xml);
    expect(urls).toHaveLength(FIXTURE_FILMS.length);
    expect(urls).toContainEqual({ loc: `${PUBLIC_URL}/dat-rung-phuong-nam`, lastmod: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(urls.every((u) => u.loc.startsWith(`${PUBLIC_URL}/`) && u.lastmod)).toBe(true);
  });

  it('the listings sitemap has home, the categories, every genre and country', async () => {
    const urls = entries(await (await get('/sitemaps/listings.xml')).text()).map((u) => u.loc);
    expect(urls).toContain(`${PUBLIC_URL}/`);
    expect(urls).toContain(`${PUBLIC_URL}/phim-bo`);
    expect(urls).toContain(`${PUBLIC_URL}/the-loai/${GENRES[0]!.slug}`);
    expect(urls).toContain(`${PUBLIC_URL}/${COUNTRIES[0]!.slug}`);
    expect(urls).toHaveLength(1 + 4 + GENRES.length + COUNTRIES.length);
  });

  it('a chunk past the catalogue is a 404, a malformed name a 400', async () => {
    expect((await get('/sitemaps/films-2.xml')).status).toBe(404);
    const bad = await get('/sitemaps/films-x.xml');
    expect(bad.status).toBe(400);
  });

  it('chunks hold at most the chunk size, in id order, each with its newest lastmod', async () => {
    const size = 2;
    const chunks = Math.ceil(FIXTURE_FILMS.length / size);
    const index = entries(await sitemapIndex(t.deps.db, PUBLIC_URL, size));
    expect(index.slice(1).map((e) => e.loc)).toEqual(Array.from({ length: chunks }, (_, i) => `${PUBLIC_URL}/sitemaps/films-${i + 1}.xml`));
    const all: string[] = [];
    for (let n = 1; n <= chunks; n++) {
      const urls = entries((await filmsSitemap(t.deps.db, PUBLIC_URL, n, size)) ?? '');
      expect(urls.length).toBeLessThanOrEqual(size);
      all.push(...urls.map((u) => u.loc));
    }
    expect(new Set(all).size).toBe(FIXTURE_FILMS.length);
    expect(await filmsSitemap(t.deps.db, PUBLIC_URL, chunks + 1, size)).toBeNull();
  });
});
