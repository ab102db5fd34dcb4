import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoCatalogue } from '../../demo/catalogue';
import { prepareDemoMedia } from '../../demo/media';
import { startDemoSource, type DemoSource } from '../../demo/server';
import { loadConfig } from '../../worker/config';
import { fold } from '../../worker/db/fold';
import { openMigratedDatabase, type NodeDatabase } from '../../worker/db/node-client';
import { episodes, films, mergeSuggestions } from '../../worker/db/schema';
import { COUNTRIES, GENRES } from '../../worker/schemas/taxonomy';
import { runCrawl, type CrawlSummary } from '../../worker/services/crawler/index';

const MEDIA = 'http://localhost:8787/demo-media';
/** The media base is the site itself (PUBLIC_URL), so its links are stored origin-relative. */
const STORED_MEDIA = '/demo-media';
const year = new Date().getFullYear();

describe('the demo source crawled through the real crawler', () => {
  let demo: DemoSource;
  let database: NodeDatabase;
  let summary: CrawlSummary;

  beforeAll(async () => {
    demo = await startDemoSource({ port: 0, mediaBase: MEDIA });
    database = await openMigratedDatabase(':memory:');
    const config = { ...loadConfig({ APP_ENV: 'test' }), CRAWL_SOURCES: [demo.url], CRAWL_DELAY_MS: 0 };
    summary = await runCrawl({ db: database.db, fetch: globalThis.fetch, config, now: Date.now }, { source: demo.url, trigger: 'start' });
  });
  afterAll(async () => {
    await demo.close();
  });

  const count = async (query: ReturnType<typeof sql>) => (await database.db.all<{ n: number }>(query))[0]!.n;

  it('imports at least 300 films covering every genre, country and category', async () => {
    expect(summary.filmsNew).toBeGreaterThanOrEqual(300);
    expect(summary.filmsFailed).toBe(0);
    expect(await database.db.$count(films)).toBe(demo.films.length);
    expect(await count(sql`SELECT count(DISTINCT genre_id) AS n FROM film_genres`)).toBe(GENRES.length);
    expect(await count(sql`SELECT count(DISTINCT country_id) AS n FROM film_countries`)).toBe(COUNTRIES.length);
    const perCategory = await database.db.all<{ id: number; n: number }>(
      sql`SELECT category_id AS id, count(*) AS n FROM films GROUP BY category_id ORDER BY id`,
    );
    expect(perCategory.map((c) => c.id)).toEqual([24, 25, 26, 27]);
    for (const c of perCategory) expect(c.n).toBeGreaterThanOrEqual(5);
  });

  it('gives playable episodes on two servers, posters under the media base and VIP-only films', async () => {
    const rows = await database.db.query.films.findMany({ with: { episodes: true } });
    const upcoming = rows.filter((f) => f.status === 'trailer');
    const playable = rows.filter((f) => f.status !== 'trailer');
    for (const film of playable) {
      expect(film.episodes.length, film.slug).toBeGreaterThan(0);
      expect(film.episodes.every((e) => e.m3u8Url === `${STORED_MEDIA}/hls/clip.m3u8`)).toBe(true);
    }
    for (const film of upcoming) expect(film.episodes).toEqual([]);
    for (const film of rows) {
      expect(film.posterUrl).toMatch(new RegExp(`^${STORED_MEDIA}/posters/[a-z0-9-]+\\.webp$`));
      expect(film.year).toBeGreaterThanOrEqual(2010);
      expect(film.year).toBeLessThanOrEqual(year + 1);
      expect(film.description.length).toBeGreaterThan(40);
      expect(film.description).not.toMatch(/[<>]|&[a-z]+;/);
    }
    const bigSeries = rows.filter((f) => f.categoryId === 24 && new Set(f.episodes.map((e) => e.serverName)).size === 2);
    expect(bigSeries.length).toBeGreaterThan(20);
    expect(Math.max(...rows.map((f) => f.episodes.filter((e) => e.serverName === 'Vietsub #1 · OPhim').length))).toBeGreaterThanOrEqual(30);
    // Each server carries its source's name (the family detected from its answers).
    expect(new Set(rows.flatMap((f) => f.episodes.map((e) => e.serverName)))).toEqual(
      new Set(['Vietsub #1 · OPhim', 'Thuyết Minh #2 · OPhim']),
    );
    const vip = rows.filter((f) => f.vipOnly).length / rows.length;
    expect(vip).toBeGreaterThan(0.06);
    expect(vip).toBeLessThan(0.1);
    expect(await database.db.$count(episodes)).toBeGreaterThan(3000);
  });

  it('has the titles search is tested with, folded for diacritic-free queries', async () => {
    const search = async (q: string) =>
      (
        await database.db.all<{ title: string }>(
          sql`SELECT films.title FROM films_fts JOIN films ON films.id = films_fts.rowid WHERE films_fts MATCH ${`"${fold(q)}"`}`,
        )
      ).map((r) => r.title);
    expect(await search('dat rung')).toEqual(['Đất Rừng Phương Nam']);
    expect(await search('Mắt biếc')).toEqual(['Mắt Biếc']);
    expect(await search('dat phuong nam')).toEqual(['Đất Phương Nam']);
    expect((await search('song of the south')).sort()).toEqual(['Bản Tình Ca Phương Nam', 'Đất Rừng Phương Nam']);
    expect((await search('thien long bat bo')).length).toBe(2);
    const slugs = (await database.db.select({ slug: films.slug, title: films.title }).from(films)).filter(
      (f) => f.title === 'Anh' || f.title === 'Thiên Long Bát Bộ',
    );
    expect(slugs.map((f) => f.slug).sort()).toEqual(['anh-2', 'thien-long-bat-bo', 'thien-long-bat-bo-2021']);
  });

  it('re-crawls as all skipped', async () => {
    const config = { ...loadConfig({ APP_ENV: 'test' }), CRAWL_SOURCES: [demo.url], CRAWL_DELAY_MS: 0 };
    const again = await runCrawl({ db: database.db, fetch: globalThis.fetch, config, now: Date.now }, { source: demo.url, trigger: 'cli' });
    expect(again).toMatchObject({ filmsNew: 0, filmsUpdated: 0, filmsSkipped: demo.films.length, filmsFailed: 0 });
  });

  it('its KKPhim-shaped family joins the films it shares, under their slugs, and adds its own', async () => {
    const config = { ...loadConfig({ APP_ENV: 'test' }), CRAWL_SOURCES: [demo.url], CRAWL_DELAY_MS: 0 };
    const kk = await runCrawl(
      { db: database.db, fetch: globalThis.fetch, config, now: Date.now },
      { source: demo.kkphimUrl, trigger: 'cli' },
    );
    const shared = demo.kkphimFilms.filter((f) => f.sharedWith);
    const own = demo.kkphimFilms.filter((f) => !f.sharedWith);
    expect(shared.length).toBeGreaterThanOrEqual(60);
    expect(kk).toMatchObject({ filmsMerged: shared.length, filmsNew: own.length, filmsFailed: 0 });
    expect(await database.db.$count(films)).toBe(demo.films.length + own.length);
    // A shared film keeps its first source's slug and fields, and offers both sources' servers, OPhim's first.
    const film = shared.find((f) => f.slug !== f.sharedWith)!;
    const row = await database.db.query.films.findFirst({ where: (f, { eq }) => eq(f.slug, film.sharedWith!), with: { episodes: true } });
    expect(row!.title).toBe(film.name);
    expect(new Set(row!.episodes.map((e) => e.serverName))).toContain('#Hà Nội (Vietsub) · KKPhim');
    expect(row!.episodes.some((e) => e.serverName.endsWith('· OPhim'))).toBe(true);
    // The other film under a slug OPhim's catalogue uses ('Bố Già': The Godfather, 1972) is a film of its own.
    const godfather = await database.db.query.films.findFirst({ where: (f, { eq }) => eq(f.nameEnglish, 'The Godfather') });
    expect(godfather).toMatchObject({ slug: 'bo-gia-2', year: 1972 });
    // Another season under one TMDB id and the same name and year: not merged, offered on "Gộp phim".
    const [doubt] = await database.db.select().from(mergeSuggestions);
    expect(doubt?.reason).toMatch(/khác mùa/);
  });
});

describe('demo catalogue and media', () => {
  it('is the same catalogue on every machine', () => {
    expect(JSON.stringify(buildDemoCatalogue(2025))).toBe(JSON.stringify(buildDemoCatalogue(2025)));
    const films = buildDemoCatalogue(2025);
    expect(new Set(films.map((f) => f.slug)).size).toBe(films.length);
    expect(films.some((f) => /đ/i.test(f.name))).toBe(true);
    expect(new Set(films.map((f) => f.type))).toEqual(new Set(['series', 'single', 'tvshows', 'hoathinh']));
  });

  it('writes small webp posters and a playable HLS clip', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'demo-media-'));
    try {
      const films = buildDemoCatalogue(2025).slice(0, 3);
      expect(await prepareDemoMedia(dir, films)).toMatchObject({ postersWritten: 3, postersKept: 0 });
      expect(await prepareDemoMedia(dir, films)).toMatchObject({ postersWritten: 0, postersKept: 3 });
      for (const film of films) {
        const file = join(dir, 'posters', film.poster_url);
        const meta = await sharp(file).metadata();
        expect(meta).toMatchObject({ format: 'webp', width: 350, height: 490 });
        expect((await stat(file)).size).toBeLessThan(20_000);
      }
      // clip.m3u8 is a master playlist: three video levels (quality selection) and WebVTT subtitles.
      const files = await readdir(join(dir, 'hls'));
      const master = await readFile(join(dir, 'hls', 'clip.m3u8'), 'utf8');
      expect(master).toMatch(/^#EXTM3U/);
      const levels = [...master.matchAll(/#EXT-X-STREAM-INF:[^\n]*RESOLUTION=(\d+)x(\d+)[^\n]*\n([^\n#]+)/g)];
      expect(levels.map((m) => Number(m[2]))).toEqual([180, 360, 540]);
      const subtitles = /#EXT-X-MEDIA:TYPE=SUBTITLES[^\n]*LANGUAGE="vi"[^\n]*URI="([^"]+)"/.exec(master);
      expect(subtitles).not.toBeNull();
      const subtitlePlaylist = await readFile(join(dir, 'hls', subtitles![1]!), 'utf8');
      const vttName = subtitlePlaylist.split('\n').find((l) => l.endsWith('.vtt'))!;
      expect(await readFile(join(dir, 'hls', vttName), 'utf8')).toMatch(/^WEBVTT\n/);
      let total = 0;
      const durations: number[] = [];
      for (const level of levels) {
        const playlist = await readFile(join(dir, 'hls', level[3]!), 'utf8');
        expect(playlist).toContain('#EXT-X-ENDLIST');
        const segments = playlist.split('\n').filter((l) => l && !l.startsWith('#'));
        expect(segments.length).toBeGreaterThanOrEqual(2);
        for (const segment of segments) {
          expect(files).toContain(segment);
          const bytes = await readFile(join(dir, 'hls', segment));
          expect(bytes[0]).toBe(0x47); // MPEG-TS sync byte
          total += bytes.length;
        }
        durations.push([...playlist.matchAll(/#EXTINF:([\d.]+)/g)].reduce((sum, m) => sum + Number(m[1]), 0));
      }
      // Long enough to seek ±10 s and reach the credits (95 %), small enough to keep in the repository.
      expect(total).toBeLessThanOrEqual(2_200_000);
      expect(new Set(durations).size).toBe(1);
      expect(durations[0]).toBeGreaterThanOrEqual(20);
      expect(durations[0]).toBeLessThanOrEqual(30);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
