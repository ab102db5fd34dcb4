// Crawls an admin starts now or on a schedule. Each is a run of the one
// resumable crawler (services/crawler). Starting one only records the run, unclaimed (heartbeat 0):
// whoever advances it next (the request's background task, or a scheduler tick) takes it over with
// the crawler's compare-and-set, so one run is never crawled twice at once, and a run cut short by an
// invocation's limits is resumed from its cursor by the next tick.
import { and, asc, desc, eq, inArray, isNull, lt, lte, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { crawlRuns, crawlSchedules } from '../../db/schema';
import type { AppDeps } from '../../lib/context';
import { badRequest, notFound } from '../../lib/errors';
import {
  ADMIN_TEXTS,
  type CrawlRunDto,
  type CreateScheduleInput,
  SCHEDULE_STATUS,
  type ScheduledCrawl,
  type ScheduleStatus,
  scheduleRunAt,
} from '../../schemas/admin';
import { CRAWL_CATEGORY_NAMES } from '../../schemas/taxonomy';
import { stableJson } from '../crawler/checksum';
import { crawlListForCategory, crawlListsForCategories } from '../crawler/crawl-lists';
import type { CrawlParams, CrawlTrigger } from '../crawler/crawl-runs';
import { CrawlBusyError, CrawlRequestError, CrawlRunError, normalizeParams, normalizeSource, runCrawl } from '../crawler/index';
import { errorMessage } from '../crawler/fetch-guard';
import {
  crawlableSources,
  ensureSource,
  normalizeBaseUrl,
  retryDownSources,
  type SourceRow,
  sourceById,
  syncConfiguredSources,
} from '../sources/registry';
import { SOURCE_TEXTS } from '../../schemas/sources';
import { type Actor, auditInsert, recordAudit } from './audit';
import { crawlSourceSetting } from './settings';

/** A running run whose heartbeat is older than this belongs to a process that died (the crawler beats every 20 s). */
export const STALE_AFTER_MS = 2 * 60_000;
/** A schedule claimed this long ago that never got its run (the tick died in between) is tried again. */
const CLAIM_TIMEOUT_MS = 10 * 60_000;

type CrawlerDeps = Pick<AppDeps, 'db' | 'config' | 'fetch' | 'now'>;

const NAME_BY_LIST = new Map(CRAWL_CATEGORY_NAMES.map((name) => [crawlListForCategory(name) as string, name]));

function parseParams(json: string): CrawlParams {
  try {
    const p = JSON.parse(json) as Partial<CrawlParams>;
    return {
      lists: Array.isArray(p.lists) ? p.lists.filter((l): l is string => typeof l === 'string') : [],
      pages:
        Array.isArray(p.pages) && typeof p.pages[0] === 'number'
          ? [p.pages[0], typeof p.pages[1] === 'number' ? p.pages[1] : null]
          : [1, null],
      force: p.force === true,
    };
  } catch {
    return { lists: [], pages: [1, null], force: false };
  }
}

function pagesTotal(progress: string, params: CrawlParams): number | null {
  try {
    const totals = (JSON.parse(progress) as { totals?: Record<string, number> }).totals ?? {};
    let sum = 0;
    for (const list of params.lists) {
      const total = totals[list];
      if (typeof total !== 'number') return null;
      const [from, to] = params.pages;
      sum += Math.max(0, Math.min(total, to ?? total) - from + 1);
    }
    return sum;
  } catch {
    return null;
  }
}

export function toRunDto(row: typeof crawlRuns.$inferSelect): CrawlRunDto {
  const params = parseParams(row.params);
  return {
    id: row.id,
    state: row.status,
    trigger: row.trigger,
    source: row.source,
    lists: params.lists,
    categories: params.lists.map((l) => NAME_BY_LIST.get(l)).filter((n): n is string => !!n),
    pagesDone: row.pagesDone,
    pagesTotal: pagesTotal(row.progress, params),
    filmsNew: row.filmsNew,
    filmsUpdated: row.filmsUpdated,
    filmsSkipped: row.filmsSkipped,
    filmsFailed: row.filmsFailed,
    filmsMerged: row.filmsMerged,
    error: row.error,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}

export async function crawlRun(db: Db, id: number): Promise<CrawlRunDto> {
  const [row] = await db.select().from(crawlRuns).where(eq(crawlRuns.id, id));
  if (!row) throw notFound(ADMIN_TEXTS.crawlRunNotFound);
  return toRunDto(row);
}

export async function lastCrawlRuns(db: Db, limit = 20): Promise<CrawlRunDto[]> {
  const rows = await db.select().from(crawlRuns).orderBy(desc(crawlRuns.id)).limit(limit);
  return rows.map(toRunDto);
}

/**
 * The sources a crawl reads: the one chosen, or every enabled source in priority order that is not waiting out a
 * back-off. The sources the configuration names (CRAWL_SOURCE) and the operator's crawl-source setting are
 * registered first, so a fresh database crawls what the operator configured.
 */
export async function sourcesToCrawl(deps: CrawlerDeps, chosen?: number): Promise<SourceRow[]> {
  const { db, config } = deps;
  await syncConfiguredSources(db, config, deps.now());
  const setting = normalizeBaseUrl(await crawlSourceSetting(db, config));
  if (setting) await ensureSource(db, setting, { now: deps.now() });
  if (chosen !== undefined) {
    const source = await sourceById(db, chosen);
    if (!source) throw badRequest('source', SOURCE_TEXTS.notFound);
    return [source];
  }
  return crawlableSources(db, deps.now());
}

/**
 * Records one crawl run per source (the chosen one, or every enabled source in priority order) of the named
 * categories, unclaimed, and answers their ids in that order. The same crawl still running (same source and
 * lists) is answered instead of doubled. A source outside the allowlist is refused when chosen, skipped otherwise.
 */
export async function createCrawlRuns(
  deps: CrawlerDeps,
  names: readonly string[],
  trigger: CrawlTrigger,
  actor?: Actor,
  options: { sourceId?: number; scheduleId?: number } = {},
): Promise<number[]> {
  const { db, config } = deps;
  const now = deps.now();
  let lists: string[];
  try {
    lists = crawlListsForCategories(names);
  } catch (err) {
    if (err instanceof RangeError) throw badRequest('category', err.message);
    throw err;
  }
  const chosen = await sourcesToCrawl(deps, options.sourceId);
  const runIds: number[] = [];
  const crawled: string[] = [];
  const bases: string[] = [];
  for (const source of chosen) {
    let base: string;
    let params: CrawlParams;
    try {
      base = normalizeSource(source.baseUrl, config.CRAWL_SOURCES);
      params = normalizeParams({ source: base, trigger, lists });
    } catch (err) {
      if (!(err instanceof CrawlRequestError)) throw err;
      if (options.sourceId !== undefined) throw badRequest('source', SOURCE_TEXTS.notAllowed);
      console.warn(`[crawl] source ${source.baseUrl} skipped: ${err.message}`);
      continue;
    }
    const paramsJson = stableJson(params);
    const [existing] = await db
      .select({ id: crawlRuns.id })
      .from(crawlRuns)
      .where(and(eq(crawlRuns.status, 'running'), eq(crawlRuns.source, base), eq(crawlRuns.params, paramsJson)))
      .orderBy(desc(crawlRuns.id))
      .limit(1);
    if (existing) {
      runIds.push(existing.id);
      continue;
    }
    const [row] = await db
      .insert(crawlRuns)
      .values({
        source: base,
        sourceId: source.id,
        scheduleId: options.scheduleId ?? null,
        trigger,
        params: paramsJson,
        status: 'running',
        startedAt: now,
        heartbeatAt: 0,
      })
      .returning({ id: crawlRuns.id });
    if (!row) throw new Error('crawl run insert returned no row');
    runIds.push(row.id);
    crawled.push(source.name);
    bases.push(base);
  }
  if (!runIds.length) throw badRequest('source', SOURCE_TEXTS.noneEnabled);
  if (actor)
    await recordAudit(
      db,
      actor,
      {
        action: 'crawl.start',
        target: runIds[0]!,
        before: null,
        // The first source crawled, as before there were several; all of them when there are.
        after: { categories: names, source: bases[0] ?? chosen[0]?.baseUrl, ...(runIds.length > 1 ? { sources: crawled, runIds } : {}) },
      },
      now,
    );
  return runIds;
}

export type AdvanceOutcome = 'done' | 'failed' | 'paused' | 'busy' | 'finished-before';

/** Crawls the run from its cursor until it ends or the deadline passes (then it is released for the next tick). */
export async function advanceRun(
  deps: CrawlerDeps,
  runId: number,
  deadline?: number,
  log?: (line: string) => void,
): Promise<AdvanceOutcome> {
  const [row] = await deps.db.select().from(crawlRuns).where(eq(crawlRuns.id, runId));
  if (row?.status !== 'running') return 'finished-before';
  const params = parseParams(row.params);
  const [from, to] = params.pages;
  try {
    const summary = await runCrawl(
      { db: deps.db, fetch: deps.fetch, config: deps.config, now: deps.now, log },
      {
        source: row.source,
        lists: params.lists,
        pages: to === null ? undefined : [from, to],
        force: params.force,
        trigger: row.trigger,
        staleAfterMs: STALE_AFTER_MS,
        deadline,
        family: await familyOf(deps.db, row.sourceId),
      },
    );
    return summary.paused ? 'paused' : 'done';
  } catch (err) {
    if (err instanceof CrawlBusyError) return 'busy';
    if (err instanceof CrawlRunError) return 'failed';
    if (err instanceof CrawlRequestError) {
      // Refused before it started (its source left CRAWL_SOURCES): no later tick can do better.
      const now = deps.now();
      await deps.db
        .update(crawlRuns)
        .set({ status: 'failed', error: err.message, finishedAt: now, heartbeatAt: now })
        .where(and(eq(crawlRuns.id, runId), eq(crawlRuns.status, 'running')));
      return 'failed';
    }
    // Any other failure is recorded on the run by the crawler (or left for the next tick to resume).
    log?.(`[crawl #${runId}] ${errorMessage(err)}`);
    return 'failed';
  }
}

/** The family given for the run's source, if any (a detected one is found again from its answers). */
async function familyOf(db: Db, sourceId: number | null) {
  if (sourceId === null) return undefined;
  const source = await sourceById(db, sourceId);
  return source?.familyGiven && source.family ? source.family : undefined;
}

/** Admin and schedule runs nobody is crawling now: released at a deadline (heartbeat 0) or left by a dead process. */
export async function resumableRuns(db: Db, now: number): Promise<number[]> {
  const rows = await db
    .select({ id: crawlRuns.id })
    .from(crawlRuns)
    .where(
      and(
        eq(crawlRuns.status, 'running'),
        inArray(crawlRuns.trigger, ['admin', 'schedule']),
        lt(crawlRuns.heartbeatAt, now - STALE_AFTER_MS),
      ),
    )
    .orderBy(asc(crawlRuns.id));
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------
// Schedules

function toSchedule(row: typeof crawlSchedules.$inferSelect): ScheduledCrawl {
  let category: string[] = [];
  try {
    const parsed = JSON.parse(row.categories) as unknown;
    if (Array.isArray(parsed)) category = parsed.filter((c): c is string => typeof c === 'string');
  } catch {
    category = [];
  }
  return {
    id: row.id,
    crawl_date: row.crawlDate,
    crawl_time: row.crawlTime,
    runAt: row.runAt,
    category,
    status: row.status as ScheduleStatus,
    crawlRunId: row.crawlRunId,
    sourceId: row.sourceId,
    createdAt: row.createdAt,
  };
}

export async function listSchedules(db: Db): Promise<ScheduledCrawl[]> {
  const rows = await db.select().from(crawlSchedules).orderBy(desc(crawlSchedules.runAt), desc(crawlSchedules.id)).limit(200);
  return rows.map(toSchedule);
}

/** POST /api/create_scheduled_crawls: the wall-clock date and time are Asia/Ho_Chi_Minh and must lie ahead. */
export async function createSchedule(db: Db, actor: Actor, input: CreateScheduleInput, now: number): Promise<ScheduledCrawl> {
  const runAt = scheduleRunAt(input.date, input.time);
  if (Number.isNaN(runAt)) throw badRequest('date', 'must be a real date');
  if (runAt <= now) throw badRequest('date', ADMIN_TEXTS.scheduleNotFuture);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(crawlSchedules)
      .values({
        crawlDate: input.date,
        crawlTime: input.time,
        runAt,
        categories: JSON.stringify(input.categories),
        sourceId: input.source ?? null,
        status: SCHEDULE_STATUS.pending,
        createdBy: actor.id,
        createdAt: now,
      })
      .returning();
    if (!row) throw new Error('schedule insert returned no row');
    const schedule = toSchedule(row);
    await auditInsert(tx, actor, { action: 'schedule.create', target: row.id, before: null, after: schedule }, now);
    return schedule;
  });
}

export async function deleteSchedule(db: Db, actor: Actor, id: number, now: number): Promise<void> {
  const [row] = await db.select().from(crawlSchedules).where(eq(crawlSchedules.id, id));
  if (!row) throw notFound(ADMIN_TEXTS.scheduleNotFound);
  await db.batch([
    db.delete(crawlSchedules).where(eq(crawlSchedules.id, id)),
    auditInsert(db, actor, { action: 'schedule.delete', target: id, before: toSchedule(row), after: null }, now),
  ]);
}

/**
 * Claims every due pending schedule with one conditional UPDATE (status 1 → 4 where still 1): of two
 * overlapping ticks, each schedule goes to exactly one. Each claimed schedule gets its crawl run.
 */
export async function claimDueSchedules(deps: CrawlerDeps, now: number): Promise<{ id: number; runId: number | null }[]> {
  const { db } = deps;
  const claimed = await db
    .update(crawlSchedules)
    .set({ status: SCHEDULE_STATUS.running })
    .where(and(eq(crawlSchedules.status, SCHEDULE_STATUS.pending), lte(crawlSchedules.runAt, now)))
    .returning();
  const results: { id: number; runId: number | null }[] = [];
  for (const row of claimed) {
    const { category } = toSchedule(row);
    try {
      // Every enabled source in priority order, or the one the schedule names: one run each.
      const [runId] = await createCrawlRuns(deps, category, 'schedule', undefined, {
        sourceId: row.sourceId ?? undefined,
        scheduleId: row.id,
      });
      await db.update(crawlSchedules).set({ crawlRunId: runId }).where(eq(crawlSchedules.id, row.id));
      results.push({ id: row.id, runId: runId! });
    } catch (err) {
      console.error(`[scheduled] schedule #${row.id} could not start: ${errorMessage(err)}`);
      await db.update(crawlSchedules).set({ status: SCHEDULE_STATUS.failed }).where(eq(crawlSchedules.id, row.id));
      results.push({ id: row.id, runId: null });
    }
  }
  return results;
}

/**
 * Running schedules whose runs all ended become done (2, when any source's run was done) or failed (3); a claim
 * whose tick died is retried.
 */
export async function settleSchedules(db: Db, now: number): Promise<void> {
  const own = sql`(${crawlRuns.scheduleId} = ${crawlSchedules.id} OR ${crawlRuns.id} = ${crawlSchedules.crawlRunId})`;
  const runStatus = sql`(SELECT CASE WHEN sum(${crawlRuns.status} = 'running') > 0 THEN 'running'
    WHEN sum(${crawlRuns.status} = 'done') > 0 THEN 'done' ELSE 'failed' END FROM ${crawlRuns} WHERE ${own})`;
  await db.batch([
    db
      .update(crawlSchedules)
      .set({ status: sql`CASE ${runStatus} WHEN 'done' THEN ${SCHEDULE_STATUS.done} ELSE ${SCHEDULE_STATUS.failed} END` })
      .where(
        and(eq(crawlSchedules.status, SCHEDULE_STATUS.running), sql`${crawlSchedules.crawlRunId} IS NOT NULL`, ne(runStatus, 'running')),
      ),
    db
      .update(crawlSchedules)
      .set({ status: SCHEDULE_STATUS.pending })
      .where(
        and(
          eq(crawlSchedules.status, SCHEDULE_STATUS.running),
          isNull(crawlSchedules.crawlRunId),
          lt(crawlSchedules.runAt, now - CLAIM_TIMEOUT_MS),
        ),
      ),
  ]);
}

/**
 * One scheduler tick's crawling: claim due schedules, advance unfinished admin/schedule runs until the
 * budget is spent, then settle schedule statuses. Returns what each run did, for logs and tests.
 */
export async function crawlTick(deps: CrawlerDeps, budgetMs: number, log?: (line: string) => void) {
  const started = deps.now();
  const deadline = started + budgetMs;
  // Down sources whose back-off is over: one that answers resumes by itself (services/sources/registry.ts).
  for (const { id, answering } of await retryDownSources({ ...deps, config: deps.config }))
    log?.(`[source #${id}] ${answering ? 'answers again: resumed' : 'still does not answer'}`);
  const claimed = await claimDueSchedules(deps, started);
  const advanced: { runId: number; outcome: AdvanceOutcome }[] = [];
  for (const runId of await resumableRuns(deps.db, started)) {
    if (deps.now() >= deadline) break;
    advanced.push({ runId, outcome: await advanceRun(deps, runId, deadline, log) });
  }
  await settleSchedules(deps.db, deps.now());
  return { claimed, advanced };
}
