import type { Context } from 'hono';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps, AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import { ADMIN_TEXTS, crawlNowSchema, createScheduleSchema, deleteScheduleQuerySchema } from '../../schemas/admin';
import {
  advanceRun,
  crawlRun,
  createCrawlRuns,
  createSchedule,
  deleteSchedule,
  lastCrawlRuns,
  listSchedules,
} from '../../services/admin/crawls';
import { adminOnly } from './access';

const idParam = z.object({ id: z.coerce.number({ error: 'must be a run id' }).int('must be a run id').positive('must be a run id') });

/**
 * Crawls the run in the background: on Workers within waitUntil and the tick budget (the next Cron
 * tick resumes it from its cursor); on Node in this process to the end. The request never waits.
 */
function crawlInBackground(c: Pick<Context, 'executionCtx'>, deps: AppDeps, runIds: readonly number[]) {
  let waitUntil: ((p: Promise<unknown>) => void) | undefined;
  try {
    const ctx = c.executionCtx;
    waitUntil = (p) => ctx.waitUntil(p);
  } catch {
    waitUntil = undefined; // Node: no execution context, the process outlives the request
  }
  const deadline = waitUntil ? deps.now() + deps.config.CRAWL_TICK_BUDGET_MS : undefined;
  // One source after the other, in priority order: the first source's films are there when the next one's join them.
  const task = (async () => {
    for (const runId of runIds) {
      if (deadline !== undefined && deps.now() >= deadline) break;
      await advanceRun(deps, runId, deadline, (line) => console.log(line)).catch((err: unknown) =>
        console.error(`[crawl #${runId}] background crawl failed`, err),
      );
    }
  })();
  waitUntil?.(task);
}

/** The spec's crawl paths under /api — admin only. */
export const adminCrawlRoutes = new Hono<AppEnv>()
  .post('/crawl', adminOnly, validate('json', crawlNowSchema), async (c) => {
    const { category, source } = c.req.valid('json');
    // Every enabled source in priority order, unless one is chosen (issue 32): one run each.
    const runIds = await createCrawlRuns(c.var.deps, category, 'admin', c.var.viewer, { sourceId: source });
    crawlInBackground(c, c.var.deps, runIds);
    // The runs go one after the other: the last one's end is the crawl's end, so `runId` names it.
    return c.json({ runId: runIds.at(-1)!, runIds }, 202);
  })
  .get('/crawl_runs', adminOnly, async (c) => {
    return c.json({ data: await lastCrawlRuns(c.var.db, 20) }, 200);
  })
  .get('/crawl_runs/:id', adminOnly, validate('param', idParam), async (c) => {
    return c.json(await crawlRun(c.var.db, c.req.valid('param').id), 200);
  })
  .get('/schedule_crawl', adminOnly, async (c) => {
    return c.json({ data: await listSchedules(c.var.db) }, 200);
  })
  .post('/create_scheduled_crawls', adminOnly, validate('json', createScheduleSchema), async (c) => {
    const data = await createSchedule(c.var.db, c.var.viewer, c.req.valid('json'), c.var.deps.now());
    return c.json({ status: 200 as const, message: ADMIN_TEXTS.scheduleSuccess, data }, 201);
  })
  .delete('/delete_scheduled_crawls', adminOnly, validate('query', deleteScheduleQuerySchema), async (c) => {
    await deleteSchedule(c.var.db, c.var.viewer, c.req.valid('query').id, c.var.deps.now());
    return c.json({ message: 'Đã xóa lịch thu thập' }, 200);
  });
