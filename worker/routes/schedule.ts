import { Hono } from 'hono';
import { publicCacheControl } from '../lib/edge-cache';
import type { AppEnv } from '../lib/context';
import { publicResponseCache } from '../lib/public-cache';
import { scheduleWeek } from '../services/schedule/calendar';

/** GET /api/lich-chieu: the next seven days of predicted, arrived and late episodes (public, cached as the catalogue). */
export const scheduleRoutes = new Hono<AppEnv>().get('/', publicResponseCache, async (c) => {
  c.header('Cache-Control', publicCacheControl(c.var.deps.config.PUBLIC_CACHE_SECONDS));
  return c.json(await scheduleWeek(c.var.db, c.var.deps.now()), 200);
});
