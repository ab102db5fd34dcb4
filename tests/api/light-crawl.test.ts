// The light crawl (issue 40 §5, docs/decisions/1120): a source adds an episode, one light crawl later the film has
// it and each follower gets one push; the full crawl afterwards sends nothing more; unchanged items cost no detail;
// a broken list page is a recorded crawl error. Against the local OPhim stand-in and the push service stand-in.
import { desc, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { crawlLog, crawlRuns, episodeReleases, films, pushChunks } from '../../worker/db/schema';
import { runCrawl } from '../../worker/services/crawler/index';
import { LIGHT_CRAWL_EVERY_MS, LIGHT_CRAWL_MAX_DETAILS } from '../../worker/services/crawler/light-crawl';
import { lightCrawls, newEpisodes, runScheduledJobs } from '../../worker/scheduled';
import { createTestApp, type TestApp } from '../helpers/app';
import { bearer, signedInUser } from '../helpers/auth';
import { crawlConfigFor, ophimFilm, type Standin, startOphimStandin } from '../helpers/ophim-standin';
import { pushService } from '../helpers/push-service';
import { haveSourceSamples, SKIP_REASON, sample } from '../helpers/source-samples';
import { parseListPage } from '../../worker/services/crawler/source-shapes';

let t: TestApp;
let push: ReturnType<typeof pushService>;
let source: Standin;

afterEach(async () => {
  await source.close();
});

beforeEach(async () => {
  push = pushService();
  source = await startOphimStandin({ pageSize: 4 });
  // Newest first, as phim-moi-cap-nhat is: the followed series on top.
  source.films.push(
    ophimFilm({ slug: 'tham-tu-lung-danh', status: 'ongoing', episode_current: 'Tập 3', modified: { time: '2026-11-20T13:00:00.000Z' } }),
  );
  for (let i = 1; i <= 6; i++)
    source.films.push(ophimFilm({ slug: `phim-cu-${i}`, modified: { time: `2026-11-${String(19 - i).padStart(2, '0')}T10:00:00.000Z` } }));
  const fetch: typeof globalThis.fetch = (input, init) =>
    String(input instanceof Request ? input.url : input).startsWith(push.origin) ? push.fetch(input, init) : globalThis.fetch(input, init);
  t = await createTestApp({ fetch, config: { ...crawlConfigFor(source), PUSH_ENDPOINT_ORIGINS: [push.origin] } });
  // The catalogue as the full crawl left it.
  await fullCrawl();
  source.requests.length = 0;
});

const fullCrawl = () => runCrawl(t.deps, { source: source.url, trigger: 'cli' });
const details = () => source.requests.filter((r) => r.startsWith('/phim/'));
const lists = () => source.requests.filter((r) => r.startsWith('/danh-sach/'));
/** One scheduler tick LIGHT_CRAWL_EVERY_MS after the last: the light crawl, then the new-episode planner. */
async function tick() {
  t.advance(LIGHT_CRAWL_EVERY_MS);
  const results = await runScheduledJobs(t.deps, [lightCrawls, newEpisodes]);
  expect(results.every((r) => r.ok)).toBe(true);
}

async function follower(slug: string) {
  const member = await signedInUser(t);
  const auth = bearer(member.session.token);
  expect((await t.request(`/api/me/watchlist/${slug}`, { method: 'PUT', json: { notify: true }, headers: auth })).status).toBe(200);
  const browser = push.client();
  expect((await t.request('/api/me/push-subscriptions', { json: browser.subscription, headers: auth })).status).toBe(201);
  return browser;
}

/** The source publishes episode `n` of the followed series: one more episode per server, its modified time moves. */
function addEpisode(n: number) {
  const film = source.films[0]!;
  const servers = film.episodes as { server_data: Record<string, string>[] }[];
  for (const server of servers) {
    const last = server.server_data.at(-1)!;
    server.server_data.push({
      ...last,
      name: `Tập ${String(n).padStart(2, '0')}`,
      slug: `tap-${String(n).padStart(2, '0')}`,
      link_m3u8: `${last.link_m3u8}?tap=${n}`,
    });
  }
  film.movie.episode_current = `Tập ${n}`;
  film.movie.modified = { time: new Date(t.deps.now()).toISOString() };
}

const episodeNumbers = async (slug: string) => {
  const film = await t.deps.db.query.films.findFirst({ where: eq(films.slug, slug), with: { episodes: true } });
  return [...new Set(film?.episodes.map((e) => e.episode))].sort((a, b) => a - b);
};

describe('light crawl of the newest list', () => {
  it('a source adds episode 4: one light crawl brings it, each follower is told once, the full crawl later sends nothing', async () => {
    const a = await follower('tham-tu-lung-danh');
    const b = await follower('tham-tu-lung-danh');
    addEpisode(4);
    await tick();
    expect(await episodeNumbers('tham-tu-lung-danh')).toEqual([1, 2, 3, 4]);
    // Only the changed film's detail; page 2 is not read once page 1 shows an unchanged film.
    expect(details()).toEqual(['/phim/tham-tu-lung-danh']);
    expect(lists()).toEqual(['/danh-sach/phim-moi-cap-nhat?page=1']);
    expect(push.received).toHaveLength(2);
    const titles = push.received.map((r) => {
      const browser = [a, b].find((x) => x.subscription.endpoint === r.endpoint)!;
      return (JSON.parse(browser.decrypt(r.body)) as { title: string }).title;
    });
    expect(titles).toEqual(['Phim tham-tu-lung-danh: đã có tập 4', 'Phim tham-tu-lung-danh: đã có tập 4']);
    expect(new Set(push.received.map((r) => r.endpoint)).size).toBe(2);
    expect(await t.deps.db.$count(pushChunks)).toBe(1);

    // The full crawl then sees the same episode: recorded once, nothing sent again.
    await fullCrawl();
    await runScheduledJobs(t.deps, [newEpisodes]);
    expect(push.received).toHaveLength(2);
    expect(await t.deps.db.$count(episodeReleases, eq(episodeReleases.episode, 4))).toBe(1);
  });

  it('nothing changed: the list page is read, no detail is fetched, nothing is written', async () => {
    const before = await t.deps.db.select({ id: films.id, updatedAt: films.updatedAt }).from(films);
    await tick();
    expect(lists()).toEqual(['/danh-sach/phim-moi-cap-nhat?page=1']);
    expect(details()).toEqual([]);
    expect(await t.deps.db.select({ id: films.id, updatedAt: films.updatedAt }).from(films)).toEqual(before);
    // Within the interval it does not run again; after it, it does.
    await runScheduledJobs(t.deps, [lightCrawls]);
    expect(lists()).toHaveLength(1);
    await tick();
    expect(lists()).toHaveLength(2);
  });

  it('page 2 is read only while page 1 is all changed, and details stay within the cap', async () => {
    for (const film of source.films) film.movie.modified = { time: new Date(t.deps.now()).toISOString() };
    await tick();
    expect(lists()).toEqual(['/danh-sach/phim-moi-cap-nhat?page=1', '/danh-sach/phim-moi-cap-nhat?page=2']);
    expect(details()).toHaveLength(Math.min(source.films.length, LIGHT_CRAWL_MAX_DETAILS));
  });

  it('a broken list page is a crawl error on record, the films stay, the next turn crawls again', async () => {
    const before = await t.deps.db.$count(films);
    source.intercept = (path) => (path.startsWith('/danh-sach/') ? { status: 200, body: '<html>Bảo trì</html>' } : undefined);
    await tick();
    const [run] = await t.deps.db.select().from(crawlRuns).orderBy(desc(crawlRuns.id)).limit(1);
    expect(run).toMatchObject({ trigger: 'light', status: 'failed' });
    expect(run?.error).toMatch(/no list page could be read/);
    const logged = await t.deps.db.select().from(crawlLog).where(eq(crawlLog.runId, run!.id));
    expect(logged.some((l) => l.level === 'error')).toBe(true);
    expect(await t.deps.db.$count(films)).toBe(before);
    // The source is back: the next turn brings what it added meanwhile.
    source.intercept = undefined;
    addEpisode(4);
    await tick();
    expect(await episodeNumbers('tham-tu-lung-danh')).toEqual([1, 2, 3, 4]);
  });

  it('a light run its process left unfinished is resumed by the next tick, not doubled', async () => {
    await tick();
    const [run] = await t.deps.db.select().from(crawlRuns).orderBy(desc(crawlRuns.id)).limit(1);
    // As a killed process leaves it: still running, its heartbeat long stale, nothing of the page done.
    await t.deps.db
      .update(crawlRuns)
      .set({ status: 'running', heartbeatAt: 0, progress: '{}', finishedAt: null })
      .where(eq(crawlRuns.id, run!.id));
    addEpisode(4);
    await runScheduledJobs(t.deps, [lightCrawls]);
    const runs = await t.deps.db.select().from(crawlRuns).where(eq(crawlRuns.trigger, 'light'));
    expect(runs.map((r) => [r.id, r.status])).toEqual([[run!.id, 'done']]);
    expect(await episodeNumbers('tham-tu-lung-danh')).toEqual([1, 2, 3, 4]);
  });

  it('waits while another crawl of the source is running', async () => {
    const now = t.deps.now();
    await t.deps.db.insert(crawlRuns).values({
      source: source.url,
      trigger: 'admin',
      params: '{}',
      status: 'running',
      startedAt: now,
      heartbeatAt: now + LIGHT_CRAWL_EVERY_MS,
    });
    addEpisode(4);
    await tick();
    expect(source.requests).toEqual([]);
    expect(await episodeNumbers('tham-tu-lung-danh')).toEqual([1, 2, 3]);
  });
});

describe.skipIf(!haveSourceSamples)(`the real OPhim list${haveSourceSamples ? '' : ` (${SKIP_REASON})`}`, () => {
  it("carries each item's modified time, which the light crawl compares", () => {
    const body = sample('ophim-v1-list-danh-sach-phim-bo-2024.json');
    const raw = (body.data as { items: { slug: string; modified: { time: string } }[] }).items;
    const page = parseListPage(body);
    expect(page.items).toHaveLength(raw.length);
    expect(page.items.map((i) => [i.slug, i.modified])).toEqual(raw.map((i) => [i.slug, Date.parse(i.modified.time)]));
  });
});
