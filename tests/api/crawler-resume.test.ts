import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../worker/config';
import { openMigratedDatabase, type NodeDatabase } from '../../worker/db/node-client';
import { crawlRuns, films } from '../../worker/db/schema';
import { CrawlBusyError, runCrawl } from '../../worker/services/crawler/index';
import { ophimFilm, startOphimStandin, type Standin } from '../helpers/ophim-standin';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

const FILMS = 12;
const EPISODES = 4;

async function setup() {
  const dir = await mkdtemp(join(tmpdir(), 'crawl-resume-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const url = `file:${join(dir, 'test.db')}`;
  // Two handles on one file: the "process" that gets killed and the one that comes after it.
  const dying = await openMigratedDatabase(url);
  const next = await openMigratedDatabase(url);
  cleanups.push(async () => next.client.close());
  const source = await startOphimStandin({ pageSize: 5 });
  cleanups.push(() => source.close());
  for (let i = 1; i <= FILMS; i++) {
    const genre = i % 2 ? { name: 'Hành Động', slug: 'hanh-dong' } : { name: 'Tình Cảm', slug: 'tinh-cam' };
    source.films.push(ophimFilm({ slug: `phim-so-${i}`, name: `Phim Số ${i}`, category: [genre] }, { episodeCount: EPISODES }));
  }
  const config = { ...loadConfig({ APP_ENV: 'test' }), CRAWL_SOURCES: [source.origin], CRAWL_DELAY_MS: 0, CRAWL_CONCURRENCY: 2 };
  return { dying, next, source, config };
}

/** Kills the database under the crawl when the Nth detail is requested, like a process dying mid-run. */
function killAfter(n: number, database: NodeDatabase): typeof fetch {
  let details = 0;
  return async (input, init) => {
    if (String(input).includes('/phim/') && ++details === n) database.client.close();
    return fetch(input, init);
  };
}

async function integrity(db: NodeDatabase['db'], source: Standin) {
  const rows = await db.query.films.findMany({ with: { genres: true, countries: true, episodes: true } });
  expect(rows).toHaveLength(source.films.length);
  expect(new Set(rows.map((r) => r.sourceKey)).size).toBe(rows.length);
  expect(rows.map((r) => r.slug).sort()).toEqual(source.films.map((f) => f.movie.slug).sort());
  for (const film of rows) {
    expect(film.genres, film.slug).toHaveLength(1);
    expect(film.countries, film.slug).toHaveLength(1);
    expect(film.episodes, film.slug).toHaveLength(EPISODES * 2);
    expect(new Set(film.episodes.map((e) => `${e.serverName}:${e.episode}`)).size).toBe(EPISODES * 2);
  }
  const [{ n }] = (await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM films_fts`)) as [{ n: number }];
  expect(n).toBe(source.films.length);
}

describe('a crawl killed mid-run', () => {
  it('keeps every committed film whole and is resumed from its cursor by the next crawl', async () => {
    const { dying, next, source, config } = await setup();
    const log: string[] = [];
    await expect(
      runCrawl(
        { db: dying.db, fetch: killAfter(8, dying), config, now: Date.now, log: (l) => log.push(l) },
        { source: source.url, trigger: 'schedule', retryBaseMs: 1 },
      ),
    ).rejects.toThrow();

    const [left] = await next.db.select().from(crawlRuns);
    expect(left).toMatchObject({ status: 'running', pagesDone: 1 });
    const committed = await next.db.$count(films);
    expect(committed).toBeGreaterThanOrEqual(5);
    expect(committed).toBeLessThan(FILMS);
    // Whatever was committed is complete: no film without its links and episodes.
    const partial = await next.db.query.films.findMany({ with: { genres: true, episodes: true } });
    for (const film of partial) {
      expect(film.genres).toHaveLength(1);
      expect(film.episodes).toHaveLength(EPISODES * 2);
    }

    const deps = { db: next.db, fetch: globalThis.fetch, config, now: Date.now };
    // While its heartbeat is fresh the run counts as alive: no second crawl of the same thing.
    await expect(runCrawl(deps, { source: source.url, trigger: 'cli' })).rejects.toBeInstanceOf(CrawlBusyError);

    // The heartbeat goes stale (the process is gone): the next crawl takes the run over.
    await next.db
      .update(crawlRuns)
      .set({ heartbeatAt: sql`${crawlRuns.heartbeatAt} - 180000` })
      .where(eq(crawlRuns.id, left!.id));
    const requestsBefore = source.requests.length;
    const summary = await runCrawl(deps, { source: source.url, trigger: 'cli' });

    expect(summary.runId).toBe(left!.id);
    expect(summary.resumedFrom).toEqual({ pagesDone: 1, filmsDone: left!.filmsNew + left!.filmsSkipped + left!.filmsFailed });
    expect(summary.pages).toBe(3);
    expect(summary.filmsFailed).toBe(0);
    // A film and the run's record of it commit together: each film is counted exactly once.
    expect(summary).toMatchObject({ filmsNew: FILMS, filmsUpdated: 0, filmsSkipped: 0 });
    const resumedRequests = source.requests.slice(requestsBefore);
    expect(resumedRequests).not.toContain('/danh-sach/phim-moi-cap-nhat?page=1');
    for (let i = 1; i <= 5; i++) expect(resumedRequests).not.toContain(`/phim/phim-so-${i}`);

    await integrity(next.db, source);
    const runs = await next.db.select().from(crawlRuns);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'done', pagesDone: 3, filmsNew: FILMS, filmsSkipped: 0, filmsFailed: 0 });
  });

  it('is not resumed by a crawl with other parameters', async () => {
    const { dying, next, source, config } = await setup();
    await expect(
      runCrawl({ db: dying.db, fetch: killAfter(3, dying), config, now: Date.now }, { source: source.url, trigger: 'cli' }),
    ).rejects.toThrow();
    await next.db.update(crawlRuns).set({ heartbeatAt: 0 });
    const summary = await runCrawl(
      { db: next.db, fetch: globalThis.fetch, config, now: Date.now },
      { source: source.url, trigger: 'cli', pages: [1, 3] },
    );
    expect(summary.resumedFrom).toBeUndefined();
    expect(summary.filmsNew + summary.filmsSkipped).toBe(FILMS);
    const statuses = (await next.db.select({ status: crawlRuns.status }).from(crawlRuns).orderBy(asc(crawlRuns.id))).map((r) => r.status);
    expect(statuses).toEqual(['running', 'done']);
    await integrity(next.db, source);
  });
});
