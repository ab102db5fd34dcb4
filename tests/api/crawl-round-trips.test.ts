// The crawl's round trips on the Worker path (@libsql/client/web against the Hrana test server, each pipeline one
// network round trip to Turso): a page of 24 films is written in one batch, so a page costs two round trips
// (what is stored, then the writes with the run's progress), not a dozen per film.
import { createClient } from '@libsql/client/web';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/libsql/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoSource, startDemoSource } from '../../demo/server';
import { loadConfig } from '../../worker/config';
import { type Db, schema } from '../../worker/db/client';
import { episodes, films } from '../../worker/db/schema';
import { runCrawl } from '../../worker/services/crawler/index';
import { upsertFilms } from '../../worker/services/films/film-writer';
import { type HranaServer, startHranaServer } from '../helpers/hrana-server';
import { measureTwoSourceCrawl } from '../helpers/two-source-trips';

let demo: DemoSource;
const closers: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  demo = await startDemoSource({ port: 0, mediaBase: 'http://127.0.0.1:1/demo-media' });
  closers.push(demo.close);
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

/** A fresh database behind the Hrana server, read by the Worker's client. */
async function workerDb(): Promise<{ db: Db; server: HranaServer }> {
  const server = await startHranaServer();
  const client = createClient({ url: server.url });
  closers.push(
    () => server.close(),
    () => client.close(),
  );
  const db = drizzle(client, { schema });
  await db.run(sql`select 1`); // the client's protocol probe is no cost of the crawl
  return { db, server };
}

const config = { ...loadConfig({ APP_ENV: 'test' }), CRAWL_DELAY_MS: 0 };

async function crawl(db: Db, server: HranaServer, pages: [number, number], force = false) {
  const before = server.stats.pipelines();
  const summary = await runCrawl(
    { db, fetch, config: { ...config, CRAWL_SOURCES: [demo.url] }, now: Date.now },
    { source: demo.url, trigger: 'cli', pages, force },
  );
  return { summary, trips: server.stats.pipelines() - before };
}

describe('a crawl writes each page of films in one batch', () => {
  it('a page of 24 new films costs two round trips, each further page two more', async () => {
    const one = await workerDb();
    const first = await crawl(one.db, one.server, [1, 1]);
    expect(first.summary.filmsNew).toBe(24);
    const three = await workerDb();
    const more = await crawl(three.db, three.server, [1, 3]);
    expect(more.summary.filmsNew).toBe(72);
    // The run's start and finish are a few round trips whatever the size; each page adds two.
    expect((more.trips - first.trips) / 2).toBeLessThanOrEqual(2);
    expect(first.trips).toBeLessThanOrEqual(8);

    // Every film is whole: its episodes, genres, countries and search text, under a unique slug.
    const counted = (await three.db.all(sql`select count(distinct slug) as n from films`)) as { n: number }[];
    expect(counted[0]?.n).toBe(72);
    const withoutEpisodes = await three.db.all(sql`select id from films where id not in (select film_id from episodes)`);
    const trailers = await three.db.all(sql`select id from films where status = 'trailer'`);
    expect(withoutEpisodes.length).toBeLessThanOrEqual(trailers.length);
    const noGenre = await three.db.all(sql`select id from films where id not in (select film_id from film_genres)`);
    expect(noGenre).toEqual([]);
    expect(await three.db.all(sql`select id from films where search_text = '' or title_folded = ''`)).toEqual([]);
  });

  it('a page changed at the source is rewritten in two round trips; an unchanged one reads once and saves', async () => {
    const { db, server } = await workerDb();
    await crawl(db, server, [1, 1]);
    const unchanged = await crawl(db, server, [1, 1]);
    expect(unchanged.summary.filmsSkipped).toBe(24);
    const forced = await crawl(db, server, [1, 1], true);
    expect(forced.summary.filmsUpdated).toBe(24);
    expect(forced.trips).toBeLessThanOrEqual(unchanged.trips);
    expect(forced.trips).toBeLessThanOrEqual(8);
  });

  it('a film the writer refuses is reported; the rest of the page is written', async () => {
    const { db } = await workerDb();
    const good = (n: number) => ({ title: `Phim Lô ${n}`, categoryId: 25 as const, sourceKey: `lo:${n}`, genreSlugs: ['hanh-dong'] });
    const { outcomes } = await upsertFilms(db, [
      good(1),
      { ...good(2), genreSlugs: ['khong-co'] },
      good(3),
      { ...good(4), title: 'Phim Lô 1' },
    ]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['new', 'failed', 'new', 'new']);
    expect(outcomes[1]).toMatchObject({ error: "genre 'khong-co': unknown" });
    // Two films titled alike on one page get distinct slugs.
    const slugs = outcomes.flatMap((o) => ('slug' in o ? [o.slug] : []));
    expect(slugs).toEqual(['phim-lo-1', 'phim-lo-3', 'phim-lo-1-2']);
    const [row] = await db.select({ id: films.id }).from(films).where(eq(films.slug, 'phim-lo-1-2'));
    expect(row).toBeDefined();
  });

  it('an update replaces the episodes of a film', async () => {
    const { db } = await workerDb();
    const ep = (n: number) => ({
      serverName: 'Vietsub #1',
      episode: n,
      name: `Tập ${n}`,
      m3u8Url: `https://cdn.example.com/${n}.m3u8`,
      embedUrl: '',
    });
    const film = { title: 'Phim Tập', categoryId: 24 as const, sourceKey: 'tap:1', episodes: [ep(1), ep(2)] };
    await upsertFilms(db, [film]);
    await upsertFilms(db, [{ ...film, episodes: [ep(1), ep(2), ep(3)] }]);
    const rows = await db
      .select({ episode: episodes.episode })
      .from(episodes)
      .innerJoin(films, eq(films.id, episodes.filmId))
      .where(eq(films.sourceKey, 'tap:1'));
    expect(rows.map((r) => r.episode).sort()).toEqual([1, 2, 3]);
  });
});

describe('a crawl of two sources that share most films stays batched (issue 32)', () => {
  it('costs at most half a round trip per new film and one per merged film', async () => {
    // 96 films at the first source; the second has 88 of them (some under other slugs or without ids) and 8 of its own.
    const m = await measureTwoSourceCrawl(96, 88);
    console.log(
      `two sources: ${m.newFilms} new films in ${m.tripsNew} round trips (${m.perNewFilm.toFixed(3)} a film); ` +
        `${m.mergedFilms} merged + ${m.ownFilms} new in ${m.tripsSecond} (${m.perMergedFilm.toFixed(3)} a film)`,
    );
    expect(m).toMatchObject({ newFilms: 96, mergedFilms: 88, ownFilms: 8, catalogue: 104 });
    expect(m.perNewFilm).toBeLessThanOrEqual(0.5);
    expect(m.perMergedFilm).toBeLessThanOrEqual(1);
  });
});
