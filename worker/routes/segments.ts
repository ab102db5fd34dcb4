import { type Context, Hono } from 'hono';
import type { AppEnv } from '../lib/context';
import { publicCacheControl } from '../lib/edge-cache';
import { validate } from '../lib/validate';
import {
  adminSegmentSchema,
  adminSegmentsQuerySchema,
  segmentParamSchema,
  segmentQuerySchema,
  segmentReportSchema,
} from '../schemas/segments';
import { clientIp } from '../services/rate-limit';
import { adminSegments, episodeSegments, recordSegmentReport, setSegment } from '../services/segments/segments';
import { adminOnly } from './admin/access';

const publicCache = <E extends AppEnv>(c: Context<E>) => publicCacheControl(c.var.deps.config.PUBLIC_CACHE_SECONDS);

/** Issue 40 §7: devices report how they skipped; the player reads an episode's segments (public, edge-cacheable). */
export const segmentRoutes = new Hono<AppEnv>()
  .post('/report', validate('json', segmentReportSchema), async (c) => {
    const data = await recordSegmentReport(c.var.db, c.req.valid('json'), clientIp(c.req.raw.headers), c.var.deps.now());
    return c.json({ data }, 200);
  })
  .get('/:slug/:episode', validate('param', segmentParamSchema), validate('query', segmentQuerySchema), async (c) => {
    const { slug, episode } = c.req.valid('param');
    c.header('Cache-Control', publicCache(c));
    return c.json(await episodeSegments(c.var.db, { slug, episode, server: c.req.valid('query').server }), 200);
  });

/** The admin's view and fixes of a film's segments (audited); mounted under /api/admin. */
export const adminSegmentRoutes = new Hono<AppEnv>()
  .get('/segments', adminOnly, validate('query', adminSegmentsQuerySchema), async (c) => {
    return c.json(await adminSegments(c.var.db, c.req.valid('query').slug), 200);
  })
  .put('/segments', adminOnly, validate('json', adminSegmentSchema), async (c) => {
    return c.json({ data: await setSegment(c.var.db, c.var.viewer, c.req.valid('json'), c.var.deps.now()) }, 200);
  });
