import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoSource, startDemoSource } from '../../demo/server';
import { loadConfig } from '../../worker/config';
import { openMigratedDatabase } from '../../worker/db/node-client';
import type { AppDeps } from '../../worker/lib/context';
import { createNodeRoot } from '../../worker/node';
import type { EpisodeResponse, FilmDetailResponse, Paginated, FilmCard } from '../../worker/schemas/catalogue';
import { siteRelative } from '../../worker/services/crawler/film-mapper';
import { runCrawl } from '../../worker/services/crawler/index';
import { buildSsrEntry } from '../helpers/ssr-build';

// `npm start` gives the demo source its media base under PUBLIC_URL, which defaults to localhost:8787.
const PUBLIC_URL = 'http://localhost:8787';

let demo: DemoSource;
let root: ReturnType<typeof createNodeRoot>;

beforeAll(async () => {
  demo = await startDemoSource({ port: 0, mediaBase: `${PUBLIC_URL}/demo-media` });
  const { db } = await openMigratedDatabase(':memory:');
  const config = {
    ...loadConfig({ APP_ENV: 'test', PUBLIC_URL, PUBLIC_CACHE_SECONDS: '0' }),
    CRAWL_SOURCES: [demo.url],
    CRAWL_DELAY_MS: 0,
  };
  await runCrawl({ db, fetch: globalThis.fetch, config, now: Date.now }, { source: demo.url, trigger: 'start', pages: [1, 1] });
  const media = mkdtempSync(join(tmpdir(), 'demo-media-'));
  mkdirSync(join(media, 'posters'));
  mkdirSync(join(media, 'hls'));
  for (const film of demo.films) writeFileSync(join(media, 'posters', film.poster_url), 'webp');
  writeFileSync(join(media, 'hls', 'clip.m3u8'), '#EXTM3U\n#EXT-X-ENDLIST\n');
  const deps: AppDeps = { db, config, now: Date.now, fetch: globalThis.fetch };
  const web = mkdtempSync(join(tmpdir(), 'web-dist-'));
  writeFileSync(
    join(web, 'index.html'),
    '<!doctype html><html lang="vi"><head><title>PhimViet</title></head><body><div id="root"></div><!--/app--></body></html>',
  );
  // The page is rendered on the host (worker/ssr/render.ts), which names the film's poster in <head>.
  const { load } = await buildSsrEntry();
  root = createNodeRoot(deps, media, web, load);
}, 120_000);
afterAll(() => demo.close());

/** The site opened from a phone on the LAN, on another port than PUBLIC_URL's. */
const ELSEWHERE = 'http://192.168.1.20:3000';
const get = (path: string) => root.request(new URL(path, ELSEWHERE).href);

describe('demo posters and video links work on any host and port', () => {
  it('a crawled film read on another origin has posters and an episode link that resolve there', async () => {
    const listing = (await (await get('/api/product/product-phimbo')).json()) as Paginated<FilmCard>;
    const film = listing.data.find((f) => f.VIP1 === 0);
    expect(film).toBeDefined();
    const detail = (await (await get(`/api/product/${film!.slug}`)).json()) as FilmDetailResponse;
    for (const url of [film!.hinhanh, film!.thumb, detail.datafilm.hinhanh]) {
      expect(url).toMatch(/^\/demo-media\/posters\/[a-z0-9-]+\.webp$/);
      const poster = await get(url);
      expect(poster.status, url).toBe(200);
    }
    const episode = (await (await get(`/api/product/${film!.slug}/tap-1`)).json()) as EpisodeResponse;
    expect(episode.data.linkfilm).toBe('/demo-media/hls/clip.m3u8');
    const clip = await get(episode.data.linkfilm);
    expect(clip.status).toBe(200);
    expect(await clip.text()).toContain('#EXTM3U');
  });

  it('the page preloads the poster by its path, so the browser fetches it from the page origin', async () => {
    const listing = (await (await get('/api/product/product-phimle')).json()) as Paginated<FilmCard>;
    const html = await (await get(`/${listing.data[0]!.slug}`)).text();
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toMatch(/<link rel="preload" (?=[^>]*as="image")[^>]*href="\/demo-media\/posters\/[a-z0-9-]+\.webp"/);
  });

  it('links to any other origin (a real source) stay absolute', () => {
    expect(siteRelative('https://img.ophim.live/uploads/movies/a.jpg', PUBLIC_URL)).toBe('https://img.ophim.live/uploads/movies/a.jpg');
    expect(siteRelative('http://localhost:8788/demo-media/a.webp', PUBLIC_URL)).toBe('http://localhost:8788/demo-media/a.webp');
    expect(siteRelative('http://localhost:8787/demo-media/hls/clip.m3u8?v=1', PUBLIC_URL)).toBe('/demo-media/hls/clip.m3u8?v=1');
    expect(siteRelative('', PUBLIC_URL)).toBe('');
  });
});
