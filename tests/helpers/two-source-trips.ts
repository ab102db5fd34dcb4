// Round trips of a crawl of two sources that share most films (issue 32), on the Worker's path: @libsql/client/web
// against the Hrana test server, each pipeline one network round trip to Turso. The first source's films are all
// new; the second source's are mostly the same films (its own ids, slugs and servers), joined to them. Shared by
// tests/api/crawl-round-trips.test.ts (the goals) and bench/crawl.ts (the figures at a larger scale).
import { createClient } from '@libsql/client/web';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/libsql/web';
import { loadConfig } from '../../worker/config';
import { type Db, schema } from '../../worker/db/client';
import { runCrawl } from '../../worker/services/crawler/index';
import { startHranaServer } from './hrana-server';
import { ophimFilm, type StandinFilm, startOphimStandin } from './ophim-standin';

export interface TwoSourceTrips {
  /** Films of the first source (all new), the crawl's round trips, and per film. */
  newFilms: number;
  tripsNew: number;
  perNewFilm: number;
  /** Films of the second source that joined a film of the first, its other (new) films, the crawl's round trips. */
  mergedFilms: number;
  ownFilms: number;
  tripsSecond: number;
  /** The second crawl's round trips per film it read (merged or new): at most one per merged film is the goal. */
  perMergedFilm: number;
  /** Films in the catalogue afterwards (each shared film once). */
  catalogue: number;
  seconds: number;
}

/**
 * Crawls `films` films from an OPhim-shaped source, then a KKPhim-shaped one that has `shared` of them (a third
 * under another slug, a fifth without ids: found by name and year) and `films - shared` of its own.
 */
export async function measureTwoSourceCrawl(films: number, shared: number, pageSize = 24): Promise<TwoSourceTrips> {
  const server = await startHranaServer();
  const client = createClient({ url: server.url });
  const db: Db = drizzle(client, { schema });
  await db.run(sql`select 1`); // the client's protocol probe is no cost of the crawl
  const ophim = await startOphimStandin({ dialect: 'legacy', pageSize });
  const kkphim = await startOphimStandin({ dialect: 'kkphim', pageSize });
  try {
    const film = (i: number, slug = `phim-${i}`): StandinFilm =>
      ophimFilm(
        {
          slug,
          name: `Phim Số ${i}`,
          origin_name: `Film Number ${i}`,
          year: 2000 + (i % 25),
          tmdb: { type: 'tv', id: String(10_000 + i), season: 1 },
          imdb: { id: `tt${1_000_000 + i}` },
        },
        { episodeCount: 4, servers: ['Vietsub #1'] },
      );
    for (let i = 0; i < films; i++) ophim.films.push(film(i));
    for (let i = 0; i < shared; i++) {
      const twin = film(i, i % 3 === 0 ? `phim-${i}-kk` : `phim-${i}`);
      twin.movie._id = `kk${i}`;
      if (i % 5 === 4) twin.movie.tmdb = { type: 'tv', id: '', season: null };
      kkphim.films.push(twin);
    }
    for (let i = 0; i < films - shared; i++) kkphim.films.push(film(100_000 + i));
    const config = {
      ...loadConfig({ APP_ENV: 'test' }),
      CRAWL_SOURCES: [ophim.origin, kkphim.origin],
      CRAWL_DELAY_MS: 0,
      CRAWL_CONCURRENCY: 8,
    };
    const started = performance.now();
    const crawl = async (url: string) => {
      const before = server.stats.pipelines();
      const summary = await runCrawl({ db, fetch, config, now: Date.now }, { source: url, trigger: 'cli' });
      return { summary, trips: server.stats.pipelines() - before };
    };
    const first = await crawl(ophim.url);
    const second = await crawl(kkphim.url);
    const [{ n }] = (await db.all(sql`select count(*) as n from films`)) as [{ n: number }];
    return {
      newFilms: first.summary.filmsNew,
      tripsNew: first.trips,
      perNewFilm: first.trips / first.summary.filmsNew,
      mergedFilms: second.summary.filmsMerged,
      ownFilms: second.summary.filmsNew,
      tripsSecond: second.trips,
      perMergedFilm: second.trips / (second.summary.filmsMerged + second.summary.filmsNew),
      catalogue: n,
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
  } finally {
    await ophim.close();
    await kkphim.close();
    client.close();
    await server.close();
  }
}
