import { queryOptions } from '@tanstack/react-query';
import type { CrawlRunDto } from '../../../../../worker/schemas/admin';
import { api } from '../../../lib/api-client';
import { adminCall } from './admin-request';

/**
 * POST /api/crawl { category, source? }: answers the runs' ids at once (202), one per source (every enabled one in
 * priority order, or the one chosen); they go on in the background, one after the other.
 */
export const startCrawl = (categories: string[], source?: number) =>
  adminCall((headers) => api.api.crawl.$post({ json: { category: categories, ...(source ? { source } : {}) } }, { headers }));

const POLL_MS = 1000;

/** GET /api/crawl_runs/{id}: polled every second while the run is going (the live progress bar). */
export const crawlRunQuery = (id: number) =>
  queryOptions({
    queryKey: ['admin', 'crawl-run', id],
    queryFn: () => adminCall((headers) => api.api.crawl_runs[':id'].$get({ param: { id: String(id) } }, { headers })),
    refetchInterval: (query) => (query.state.data && query.state.data.state !== 'running' ? false : POLL_MS),
  });

/** GET /api/crawl_runs: the last runs, refreshed while any is running. */
export const crawlRunsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'crawl-runs'],
    queryFn: () => adminCall((headers) => api.api.crawl_runs.$get({}, { headers })),
    refetchInterval: (query) => (query.state.data?.data.some((r) => r.state === 'running') ? 3000 : false),
  });

/** GET /api/schedule_crawl: refreshed while a schedule waits or runs, so its status changes in place. */
export const schedulesQuery = () =>
  queryOptions({
    queryKey: ['admin', 'schedules'],
    queryFn: () => adminCall((headers) => api.api.schedule_crawl.$get({}, { headers })),
    refetchInterval: (query) => (query.state.data?.data.some((s) => s.status === 1 || s.status === 4) ? 5000 : false),
  });

/** POST /api/create_scheduled_crawls { categories, date, time, source? } (Asia/Ho_Chi_Minh). */
export const createSchedule = (categories: string[], date: string, time: string, source?: number) =>
  adminCall((headers) =>
    api.api.create_scheduled_crawls.$post({ json: { categories, date, time, ...(source ? { source } : {}) } }, { headers }),
  );

/** DELETE /api/delete_scheduled_crawls?id= */
export const deleteSchedule = (id: number) =>
  adminCall((headers) => api.api.delete_scheduled_crawls.$delete({ query: { id: String(id) } }, { headers }));

/** Share of the run done, 0..1 (pages read of the pages the source has announced). */
export function runProgress(run: CrawlRunDto): number {
  if (run.state !== 'running') return 1;
  if (!run.pagesTotal) return 0;
  return Math.min(1, run.pagesDone / run.pagesTotal);
}
