// Crawl run bookkeeping in crawl_runs: one row per run, its counts and a cursor of completed work,
// a heartbeat while it lives. A run whose heartbeat went stale (its process died) is taken over by
// the next crawl with the same source and parameters, which resumes from the cursor.
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { crawlRuns, films } from '../../db/schema';
import type { FilmTx } from '../films/film-writer';
import { stableJson } from './checksum';

/** 'light': the frequent crawl of the newest pages (light-crawl.ts). */
export type CrawlTrigger = 'cli' | 'admin' | 'schedule' | 'start' | 'light';

export interface CrawlParams {
  lists: string[];
  /** Inclusive; `to` null means up to the source's last page. */
  pages: [number, number | null];
  force: boolean;
}

export interface CrawlCursor {
  /** Keys ('{list}@{page}') of pages whose every film was handled. */
  completed: string[];
  /** The page in progress and the films of it already handled (by source slug). */
  current?: { page: string; films: string[] };
  pagesFailed: number;
  /** Pages per list as the source last reported, so a resumed run knows where each list ends. */
  totals?: Record<string, number>;
}

export interface RunCounts {
  pagesDone: number;
  filmsNew: number;
  filmsUpdated: number;
  filmsSkipped: number;
  filmsFailed: number;
  /** Films that joined a film another source (or another of its own ids) had already given the catalogue. */
  filmsMerged: number;
}

export interface ActiveRun {
  id: number;
  cursor: CrawlCursor;
  counts: RunCounts;
  resumed: boolean;
}

export class CrawlBusyError extends Error {
  override readonly name = 'CrawlBusyError';
  constructor(readonly runId: number) {
    super(`crawl run #${runId} of the same source and lists is still running`);
  }
}

export const emptyCursor = (): CrawlCursor => ({ completed: [], pagesFailed: 0 });

function parseCursor(json: string): CrawlCursor {
  try {
    const value = JSON.parse(json) as Partial<CrawlCursor>;
    return {
      completed: Array.isArray(value.completed) ? value.completed.filter((k): k is string => typeof k === 'string') : [],
      current:
        value.current && typeof value.current.page === 'string' && Array.isArray(value.current.films)
          ? { page: value.current.page, films: value.current.films.filter((f): f is string => typeof f === 'string') }
          : undefined,
      pagesFailed: typeof value.pagesFailed === 'number' ? value.pagesFailed : 0,
      totals:
        value.totals && typeof value.totals === 'object'
          ? Object.fromEntries(Object.entries(value.totals).filter((e): e is [string, number] => Number.isInteger(e[1])))
          : undefined,
    };
  } catch {
    return emptyCursor();
  }
}

/**
 * Resumes the stale running run of the same source and parameters, or starts a new one. A live run
 * of the same crawl (fresh heartbeat) is refused with CrawlBusyError rather than doubled.
 */
export async function startOrResumeRun(
  db: Db,
  input: { source: string; sourceId?: number; trigger: CrawlTrigger; params: CrawlParams; now: number; staleAfterMs: number },
): Promise<ActiveRun> {
  const params = stableJson(input.params);
  const running = await db
    .select()
    .from(crawlRuns)
    .where(and(eq(crawlRuns.status, 'running'), eq(crawlRuns.source, input.source), eq(crawlRuns.params, params)))
    .orderBy(desc(crawlRuns.id));

  const live = running.find((r) => input.now - r.heartbeatAt <= input.staleAfterMs);
  if (live) throw new CrawlBusyError(live.id);

  const [latest, ...older] = running;
  for (const run of older) {
    await db
      .update(crawlRuns)
      .set({ status: 'failed', error: 'abandoned: superseded by a later run', finishedAt: input.now })
      .where(and(eq(crawlRuns.id, run.id), eq(crawlRuns.heartbeatAt, run.heartbeatAt)));
  }
  if (latest) {
    // Compare-and-set on the heartbeat: of two crawls racing to take the run over, one wins.
    const taken = await db
      .update(crawlRuns)
      .set({ heartbeatAt: input.now, ...(input.sourceId !== undefined ? { sourceId: input.sourceId } : {}) })
      .where(and(eq(crawlRuns.id, latest.id), eq(crawlRuns.status, 'running'), eq(crawlRuns.heartbeatAt, latest.heartbeatAt)))
      .returning({ id: crawlRuns.id });
    if (!taken.length) throw new CrawlBusyError(latest.id);
    return {
      id: latest.id,
      cursor: parseCursor(latest.progress),
      counts: {
        pagesDone: latest.pagesDone,
        filmsNew: latest.filmsNew,
        filmsUpdated: latest.filmsUpdated,
        filmsSkipped: latest.filmsSkipped,
        filmsFailed: latest.filmsFailed,
        filmsMerged: latest.filmsMerged,
      },
      resumed: true,
    };
  }

  const [row] = await db
    .insert(crawlRuns)
    .values({
      source: input.source,
      sourceId: input.sourceId ?? null,
      trigger: input.trigger,
      params,
      status: 'running',
      startedAt: input.now,
      heartbeatAt: input.now,
    })
    .returning({ id: crawlRuns.id });
  if (!row) throw new Error('crawl run insert returned no row');
  return {
    id: row.id,
    cursor: emptyCursor(),
    counts: { pagesDone: 0, filmsNew: 0, filmsUpdated: 0, filmsSkipped: 0, filmsFailed: 0, filmsMerged: 0 },
    resumed: false,
  };
}

/** Counts, cursor and heartbeat in one write; inside a film's transaction when given its tx. */
export async function saveProgress(
  db: Pick<Db, 'update'> | Pick<FilmTx, 'update'>,
  runId: number,
  counts: RunCounts,
  cursor: CrawlCursor,
  now: number,
): Promise<void> {
  await progressUpdate(db, runId, counts, cursor, now);
}

/** The statement that saves a run's counts and cursor, for a batch that commits it with the films it counts. */
export function progressUpdate(
  db: Pick<Db, 'update'> | Pick<FilmTx, 'update'>,
  runId: number,
  counts: RunCounts,
  cursor: CrawlCursor,
  now: number,
) {
  return db
    .update(crawlRuns)
    .set({ ...counts, progress: JSON.stringify(cursor), heartbeatAt: now })
    .where(eq(crawlRuns.id, runId));
}

export async function heartbeat(db: Db, runId: number, now: number): Promise<void> {
  await db
    .update(crawlRuns)
    .set({ heartbeatAt: now })
    .where(and(eq(crawlRuns.id, runId), eq(crawlRuns.status, 'running')));
}

export async function finishRun(
  db: Db,
  runId: number,
  outcome: { status: 'done' | 'failed'; counts: RunCounts; cursor: CrawlCursor; now: number; error?: string },
): Promise<void> {
  await finishRunStatement(db, runId, outcome);
}

/** The statement ending a run, for a batch that commits it with what the run's end records (its source's health). */
export function finishRunStatement(
  db: Db,
  runId: number,
  outcome: { status: 'done' | 'failed'; counts: RunCounts; cursor: CrawlCursor; now: number; error?: string },
) {
  return db
    .update(crawlRuns)
    .set({
      ...outcome.counts,
      progress: JSON.stringify(outcome.cursor),
      status: outcome.status,
      error: outcome.error ?? null,
      heartbeatAt: outcome.now,
      finishedAt: outcome.now,
    })
    .where(eq(crawlRuns.id, runId));
}

/**
 * What `npm start` needs to decide on a first crawl: how many films the catalogue holds, and whether
 * the last start-up crawl of `source` was left unfinished (Ctrl-C, crash) and should be resumed.
 */
export async function startCrawlState(db: Db, source: string | readonly string[]): Promise<{ filmCount: number; interrupted: boolean }> {
  const list = typeof source === 'string' ? [source] : source;
  const [filmCount, ...lasts] = await Promise.all([
    db.$count(films),
    ...list.map((s) =>
      db
        .select({ status: crawlRuns.status })
        .from(crawlRuns)
        .where(and(eq(crawlRuns.trigger, 'start'), eq(crawlRuns.source, s)))
        .orderBy(desc(crawlRuns.id))
        .limit(1),
    ),
  ]);
  return { filmCount, interrupted: lasts.some(([last]) => last !== undefined && last.status !== 'done') };
}
