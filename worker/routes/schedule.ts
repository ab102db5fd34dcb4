import { Hono } from 'hono';
import { publicCacheControl } from '../lib/edge-cache';
import type { AppEnv } from '../lib/context';
import { publicResponseCache } from '../lib/public-cache';
import { validate } from '../lib/validate';
import { seriesStatusQuerySchema } from '../schemas/schedule-query';
import { scheduleWeek } from '../services/schedule/calendar';
import { seriesStatus } from '../services/schedule/series-status';

/** GET /api/lich-chieu: the next seven days of predicted, arrived and late episodes (public, cached as the catalogue). */
export const scheduleRoutes = new Hono<AppEnv>().get('/', publicResponseCache, async (c) => {
  c.header('Cache-Control', publicCacheControl(c.var.deps.config.PUBLIC_CACHE_SECONDS));
  return c.json(await scheduleWeek(c.var.db, c.var.deps.now()), 200);
});

/** GET /api/series?slugs=a,b: each film's episode numbers, whether it goes on and its newest release ("Xem tiếp"). */
export const seriesStatusRoutes = new Hono<AppEnv>().get(
  '/',
  publicResponseCache,
  validate('query', seriesStatusQuerySchema),
  async (c) => {
    c.header('Cache-Control', publicCacheControl(c.var.deps.config.PUBLIC_CACHE_SECONDS));
    return c.json(await seriesStatus(c.var.db, c.req.valid('query').slugs, c.var.deps.now()), 200);
  },
);
