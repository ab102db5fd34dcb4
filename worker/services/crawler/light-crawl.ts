// The light crawl (issue 40 §5, docs/decisions/1120): every LIGHT_CRAWL_EVERY_MS each enabled source's newest list
// ('danh-sach/phim-moi-cap-nhat') is read from page 1, a detail is fetched only for an item whose `modified` moved
// since it was last written, and the films go through the one film writer as any crawl's do. A new episode thus
// becomes an episode_releases row (unique per film and episode) and the per-film cache version bump in the page's
// batch; the minute job `new-episodes` (worker/scheduled.ts, after this one) turns the release into push chunks for
// the queue. A full crawl that later sees the same episode finds the release recorded and announces nothing.
import { and, desc, eq, gt } from 'drizzle-orm';
import { crawlRuns } from '../../db/schema';
import { crawlableSources } from '../sources/registry';
import { DEFAULT_CRAWL_LIST } from './crawl-lists';
import { errorMessage } from './fetch-guard';
import { CrawlBusyError, type CrawlDeps, CrawlRunError, type CrawlSummary, runCrawl } from './index';
import type { SourceFamily } from './source-shapes';

/** How often each source's newest pages are read: with the minute tick, a release is seen ≤ 10 min after it lands. */
export const LIGHT_CRAWL_EVERY_MS = 10 * 60_000;
/** Pages of the newest list read at most; page 2 only while every item of page 1 had changed. */
export const LIGHT_CRAWL_PAGES: [number, number] = [1, 2];
/**
 * Details fetched per source and run at most. With 2 list pages, a source costs ≤ 22 subrequests when nothing is
 * retried, so two sources stay inside the 50 subrequests of a free Workers invocation; items over the cap are
 * left unmarked and fetched by the next run.
 */
export const LIGHT_CRAWL_MAX_DETAILS = 20;
/** Wall-clock budget of one source's light crawl; a run that reaches it is released and resumed next time. */
export const LIGHT_CRAWL_BUDGET_MS = 15_000;
/** A run (light or full) whose heartbeat is fresher than this is crawling now: the light crawl waits its turn. */
const BUSY_WITHIN_MS = 2 * 60_000;

export type LightCrawlOutcome =
  | { source: string; outcome: 'crawled'; summary: CrawlSummary }
  | { source: string; outcome: 'not-due' | 'busy' }
  | { source: string; outcome: 'failed'; error: string };

/** Whether a run of this source is crawling now (fresh heartbeat), or its last light run started too recently. */
async function gate(deps: CrawlDeps, base: string, now: number): Promise<'busy' | 'not-due' | undefined> {
  const [live] = await deps.db
    .select({ id: crawlRuns.id })
    .from(crawlRuns)
    .where(and(eq(crawlRuns.source, base), eq(crawlRuns.status, 'running'), gt(crawlRuns.heartbeatAt, now - BUSY_WITHIN_MS)))
    .limit(1);
  if (live) return 'busy';
  const [last] = await deps.db
    .select({ startedAt: crawlRuns.startedAt, status: crawlRuns.status })
    .from(crawlRuns)
    .where(and(eq(crawlRuns.source, base), eq(crawlRuns.trigger, 'light')))
    .orderBy(desc(crawlRuns.id))
    .limit(1);
  // A light run left 'running' (a deadline or a crash) is resumed at once; a finished one waits out the interval
  // (less a minute's slack, so a minute tick that comes a little early does not skip a whole turn).
  if (last && last.status !== 'running' && now - last.startedAt < LIGHT_CRAWL_EVERY_MS - 30_000) return 'not-due';
  return undefined;
}

/** One light crawl of every enabled source that is due and not being crawled; a source's failure is recorded, not thrown. */
export async function lightCrawl(deps: CrawlDeps): Promise<LightCrawlOutcome[]> {
  const now = deps.now();
  // Registered sources only (a first crawl, an admin or a schedule registers them): no write on every minute tick.
  const allowed = new Set(deps.config.CRAWL_SOURCES.map((s) => new URL(s).origin));
  const results: LightCrawlOutcome[] = [];
  for (const source of await crawlableSources(deps.db, now)) {
    const base = source.baseUrl;
    if (!allowed.has(new URL(base).origin)) continue;
    const held = await gate(deps, base, deps.now());
    if (held) {
      results.push({ source: base, outcome: held });
      continue;
    }
    try {
      const summary = await runCrawl(deps, {
        source: base,
        family: (source.family ?? undefined) as SourceFamily | undefined,
        lists: [DEFAULT_CRAWL_LIST],
        pages: LIGHT_CRAWL_PAGES,
        trigger: 'light',
        onlyChanged: { maxDetails: LIGHT_CRAWL_MAX_DETAILS },
        staleAfterMs: BUSY_WITHIN_MS,
        deadline: deps.now() + LIGHT_CRAWL_BUDGET_MS,
      });
      results.push({ source: base, outcome: 'crawled', summary });
    } catch (err) {
      // CrawlRunError: the run, its crawl_log line and the source's health are recorded already.
      if (err instanceof CrawlBusyError) results.push({ source: base, outcome: 'busy' });
      else results.push({ source: base, outcome: 'failed', error: err instanceof CrawlRunError ? err.message : errorMessage(err) });
    }
  }
  return results;
}
