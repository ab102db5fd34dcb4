// Crawls from the back office: "crawl now" answers 202 at once and the
// run completes in the background; schedules are validated in Asia/Ho_Chi_Minh, claimed once by
// overlapping ticks, and a run cut short by a tick's time budget resumes from its cursor on the next.
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { auditLog, crawlRuns, crawlSchedules, films } from '../../worker/db/schema';
import { runScheduledJobs } from '../../worker/scheduled';
import type { CrawlRunDto, CrawlRunsResponse, CreateScheduleResponse, SchedulesResponse } from '../../worker/schemas/admin';
import { claimDueSchedules, crawlTick } from '../../worker/services/admin/crawls';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, fakeClock, signedInUser } from '../helpers/auth';
import { crawlConfigFor, ophimFilm, startOphimStandin, type Standin } from '../helpers/ophim-standin';

const ACTION = { name: 'Hành Động', slug: 'hanh-dong' };
const ROMANCE = { name: 'Tình Cảm', slug: 'tinh-cam' };

let source: Standin;
let t: TestApp;
let auth: { authorization: string };
let clock: ReturnType<typeof fakeClock> | undefined;

async function setup(options: { clock?: boolean; fetch?: typeof fetch } = {}) {
  source = await startOphimStandin({ pageSize: 4 });
  for (let i = 1; i <= 10; i++) {
    source.films.push(ophimFilm({ slug: `hanh-dong-${i}`, name: `Hành Động ${i}`, category: [ACTION] }, { episodeCount: 2 }));
  }
  for (let i = 1; i <= 3; i++) source.films.push(ophimFilm({ slug: `tinh-cam-${i}`, name: `Tình Cảm ${i}`, category: [ROMANCE] }));
  clock = options.clock ? fakeClock() : undefined;
  t = await createTestApp({
    ...(clock ? { now: clock.now } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    config: crawlConfigFor(source),
  });
  auth = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
}

afterEach(async () => {
  await source?.close();
});

async function runOf(id: number): Promise<CrawlRunDto> {
  return (await (await t.request(`/api/crawl_runs/${id}`, { headers: auth })).json()) as CrawlRunDto;
}

describe('POST /api/crawl (crawl now)', () => {
  beforeEach(() => setup());

  it('answers 202 with the run id at once, and the run crawls the genre to the end in the background', async () => {
    const res = await t.request('/api/crawl', { json: { category: 'Hành Động' }, headers: auth });
    expect(res.status).toBe(202);
    const { runId } = (await res.json()) as { runId: number };
    expect(runId).toBeGreaterThan(0);

    await vi.waitFor(async () => expect((await runOf(runId)).state).toBe('done'), { timeout: 20_000, interval: 50 });
    const run = await runOf(runId);
    expect(run).toMatchObject({
      trigger: 'admin',
      categories: ['Hành Động'],
      lists: ['the-loai/hanh-dong'],
      pagesDone: 3,
      pagesTotal: 3,
      filmsNew: 10,
      filmsFailed: 0,
      error: null,
    });
    expect(await t.deps.db.$count(films)).toBe(10);
    const list = (await (await t.request('/api/crawl_runs', { headers: auth })).json()) as CrawlRunsResponse;
    expect(list.data.map((r) => r.id)).toEqual([runId]);
    const [entry] = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'crawl.start'));
    expect(JSON.parse(entry!.after!)).toEqual({ categories: ['Hành Động'], source: source.url });
  });

  it('accepts a list of names; the same crawl asked twice while it runs is one run', async () => {
    const first = (await (
      await t.request('/api/crawl', { json: { category: ['Tình Cảm', 'Hành Động', 'Tình Cảm'] }, headers: auth })
    ).json()) as {
      runId: number;
    };
    const second = (await (await t.request('/api/crawl', { json: { category: ['Tình Cảm', 'Hành Động'] }, headers: auth })).json()) as {
      runId: number;
    };
    const [running] = await t.deps.db.select({ status: crawlRuns.status }).from(crawlRuns).where(eq(crawlRuns.id, first.runId));
    // Either the first run was still going (same id) or it had already ended (a new one): never two at once.
    if (running?.status === 'running') expect(second.runId).toBe(first.runId);
    await vi.waitFor(async () => expect((await runOf(second.runId)).state).toBe('done'), { timeout: 20_000, interval: 50 });
    expect(await t.deps.db.$count(films)).toBe(13);
  });

  it.each([[{ category: 'Phim Ma' }], [{ category: [] }], [{ category: 7 }], [{}]])(
    'refuses %j with a 400 naming category',
    async (json) => {
      const res = await t.request('/api/crawl', { json, headers: auth });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toMatch(/^category/);
      expect(await t.deps.db.$count(crawlRuns)).toBe(0);
    },
  );

  it('answers 404 for an unknown run and 400 for a malformed id', async () => {
    expect((await t.request('/api/crawl_runs/4242', { headers: auth })).status).toBe(404);
    expect((await t.request('/api/crawl_runs/abc', { headers: auth })).status).toBe(400);
  });
});

describe('schedules', () => {
  // 2026-01-15 12:00 UTC is 19:00 in Ho Chi Minh City.
  beforeEach(() => setup({ clock: true }));

  const create = (json: unknown) => t.request('/api/create_scheduled_crawls', { json, headers: auth });

  it('takes date and time as Asia/Ho_Chi_Minh wall-clock, lists and deletes schedules', async () => {
    const res = await create({ categories: ['Hành Động', 'Phim Bộ'], date: '2026-01-15', time: '19:30' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as CreateScheduleResponse;
    expect(body).toMatchObject({ status: 200, message: 'Bạn đã đặt lịch hẹn thành công!' });
    expect(body.data).toMatchObject({
      crawl_date: '2026-01-15',
      crawl_time: '19:30',
      runAt: Date.UTC(2026, 0, 15, 12, 30),
      category: ['Hành Động', 'Phim Bộ'],
      status: 1,
    });
    const list = (await (await t.request('/api/schedule_crawl', { headers: auth })).json()) as SchedulesResponse;
    expect(list.data.map((s) => s.id)).toEqual([body.data.id]);
    expect((await t.request(`/api/delete_scheduled_crawls?id=${body.data.id}`, { method: 'DELETE', headers: auth })).status).toBe(200);
    expect((await t.request(`/api/delete_scheduled_crawls?id=${body.data.id}`, { method: 'DELETE', headers: auth })).status).toBe(404);
    const actions = (await t.deps.db.select({ a: auditLog.action }).from(auditLog).orderBy(auditLog.id)).map((r) => r.a);
    expect(actions).toEqual(['schedule.create', 'schedule.delete']);
  });

  it.each([
    [
      { categories: ['Hành Động'], date: '2026-01-15', time: '18:59' },
      'Thời gian đã chọn không hợp lệ. Vui lòng chọn thời gian trong tương lai.',
    ],
    [
      { categories: ['Hành Động'], date: '2026-01-15', time: '19:00' },
      'Thời gian đã chọn không hợp lệ. Vui lòng chọn thời gian trong tương lai.',
    ],
    [{ categories: [], date: '2026-02-01', time: '08:00' }, 'Vui lòng chọn thể loại, ngày, và thời gian để đặt lịch.'],
    [{ date: '2026-02-01', time: '08:00' }, 'Vui lòng chọn thể loại, ngày, và thời gian để đặt lịch.'],
    [{ categories: ['Hành Động'], date: '', time: '08:00' }, 'Vui lòng chọn thể loại, ngày, và thời gian để đặt lịch.'],
    [{ categories: ['Hành Động'], date: '2026-02-01', time: '' }, 'Vui lòng chọn thể loại, ngày, và thời gian để đặt lịch.'],
    [{ categories: ['Hành Động'], date: '2026-02-30', time: '08:00' }, 'must be a real date'],
    [{ categories: ['Hành Động'], date: '01/02/2026', time: '08:00' }, 'must be YYYY-MM-DD'],
    [{ categories: ['Hành Động'], date: '2026-02-01', time: '24:00' }, 'must be HH:mm'],
    [{ categories: ['Phim Ma'], date: '2026-02-01', time: '08:00' }, 'must be crawl category names from the list'],
  ])('refuses %j with a 400 and the text %s', async (json, text) => {
    const res = await create(json);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toContain(text);
    expect(await t.deps.db.$count(crawlSchedules)).toBe(0);
  });
});

describe('the scheduler tick', () => {
  it('claims a due schedule exactly once under two overlapping ticks, crawls it and marks it done', async () => {
    await setup({ clock: true });
    const res = await t.request('/api/create_scheduled_crawls', {
      json: { categories: ['Tình Cảm'], date: '2026-01-15', time: '19:01' },
      headers: auth,
    });
    const { data: schedule } = (await res.json()) as CreateScheduleResponse;
    // Not due yet: a tick leaves it pending.
    await crawlTick(t.deps, 60_000);
    expect((await t.deps.db.select().from(crawlSchedules))[0]?.status).toBe(1);

    clock!.advance(60_000);
    const [a, b] = await Promise.all([claimDueSchedules(t.deps, t.deps.now()), claimDueSchedules(t.deps, t.deps.now())]);
    expect([...a, ...b].map((c) => c.id)).toEqual([schedule.id]);
    expect(await t.deps.db.$count(crawlRuns)).toBe(1);

    const [tick1, tick2] = await Promise.all([crawlTick(t.deps, 60_000), crawlTick(t.deps, 60_000)]);
    const outcomes = [...tick1.advanced, ...tick2.advanced].map((r) => r.outcome).sort();
    expect(outcomes.filter((o) => o === 'done')).toHaveLength(1);
    const [row] = await t.deps.db.select().from(crawlSchedules);
    expect(row).toMatchObject({ status: 2, crawlRunId: expect.any(Number) });
    const [run] = await t.deps.db.select().from(crawlRuns);
    expect(run).toMatchObject({ status: 'done', trigger: 'schedule', filmsNew: 3 });
    expect(await t.deps.db.$count(films)).toBe(3);
    const list = (await (await t.request('/api/schedule_crawl', { headers: auth })).json()) as SchedulesResponse;
    expect(list.data[0]).toMatchObject({ status: 2, crawlRunId: run!.id });
  });

  it('resumes a run cut short by the time budget from its cursor on the next tick', async () => {
    // Each film detail "takes" a second of the fake clock, so a 3.5 s budget stops the run mid-list.
    let tick: ReturnType<typeof fakeClock> | undefined;
    const slowFetch: typeof fetch = async (input, init) => {
      if (String(input).includes('/phim/')) tick?.advance(1_000);
      return fetch(input, init);
    };
    await setup({ clock: true, fetch: slowFetch });
    tick = clock;
    await t.request('/api/create_scheduled_crawls', {
      json: { categories: ['Hành Động'], date: '2026-01-15', time: '19:01' },
      headers: auth,
    });
    clock!.advance(60_000);

    const first = await crawlTick(t.deps, 3_500);
    expect(first.advanced.map((r) => r.outcome)).toEqual(['paused']);
    const [paused] = await t.deps.db.select().from(crawlRuns);
    expect(paused).toMatchObject({ status: 'running', heartbeatAt: 0 });
    const afterFirst = await t.deps.db.$count(films);
    expect(afterFirst).toBeGreaterThan(0);
    expect(afterFirst).toBeLessThan(10);
    expect((await t.deps.db.select().from(crawlSchedules))[0]?.status).toBe(4);

    const second = await crawlTick(t.deps, 600_000);
    expect(second.advanced.map((r) => r.outcome)).toEqual(['done']);
    const [done] = await t.deps.db.select().from(crawlRuns);
    // Every film once: the films of the first tick are not fetched or counted again.
    expect(done).toMatchObject({ status: 'done', filmsNew: 10, filmsUpdated: 0, filmsSkipped: 0, filmsFailed: 0, pagesDone: 3 });
    expect(source.requests.filter((r) => r.startsWith('/phim/'))).toHaveLength(10);
    expect(await t.deps.db.$count(films)).toBe(10);
    expect((await t.deps.db.select().from(crawlSchedules))[0]?.status).toBe(2);
  });

  it('marks a schedule failed (3) when its run fails, through the scheduled jobs the Cron Trigger runs', async () => {
    await setup({ clock: true });
    source.intercept = (path) => (path.startsWith('/the-loai/') ? { status: 404, body: '{}' } : undefined);
    await t.request('/api/create_scheduled_crawls', {
      json: { categories: ['Hành Động'], date: '2026-01-15', time: '19:01' },
      headers: auth,
    });
    clock!.advance(60_000);
    const results = await runScheduledJobs(t.deps);
    expect(results).toEqual([
      { name: 'housekeeping', ok: true },
      { name: 'trending', ok: true },
      { name: 'reconcile-orders', ok: true },
      { name: 'stale-orders', ok: true },
      { name: 'vip-reminders', ok: true },
      { name: 'mail', ok: true },
      { name: 'crawls', ok: true },
      { name: 'light-crawl', ok: true },
      { name: 'new-episodes', ok: true },
      { name: 'watch-history', ok: true },
      { name: 'account-erasure', ok: true },
      { name: 'related-films', ok: true },
    ]);
    expect((await t.deps.db.select().from(crawlRuns))[0]?.status).toBe('failed');
    expect((await t.deps.db.select().from(crawlSchedules))[0]?.status).toBe(3);
  });
});

describe('a run whose source left CRAWL_SOURCES', () => {
  it('fails at the next tick instead of being retried forever, and its schedule is marked failed', async () => {
    await setup({ clock: true });
    await t.request('/api/create_scheduled_crawls', {
      json: { categories: ['Hành Động'], date: '2026-01-15', time: '19:01' },
      headers: auth,
    });
    clock!.advance(60_000);
    // Claimed and given a run while the source was allowed…
    await claimDueSchedules(t.deps, t.deps.now());
    // …then the operator removed it from the allowlist before the run could start.
    t.deps.config = { ...t.deps.config, CRAWL_SOURCES: ['https://ophim1.com'] };
    const tick = await crawlTick(t.deps, 60_000);
    expect(tick.advanced.map((r) => r.outcome)).toEqual(['failed']);
    const [run] = await t.deps.db.select().from(crawlRuns);
    expect(run).toMatchObject({ status: 'failed', error: expect.stringContaining('CRAWL_SOURCES') });
    expect((await t.deps.db.select().from(crawlSchedules))[0]?.status).toBe(3);
    expect((await crawlTick(t.deps, 60_000)).advanced).toEqual([]);
  });
});
