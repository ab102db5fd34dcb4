import { type Context, Hono } from 'hono';
import { publicCacheControl } from '../lib/edge-cache';
import type { AppEnv } from '../lib/context';
import { publicResponseCache } from '../lib/public-cache';
import { validate } from '../lib/validate';
import { personParamSchema, personQuerySchema, playSchema } from '../schemas/discovery';
import { personPage } from '../services/people/people';
import { recordPlay } from '../services/plays/plays';
import { relatedBySlug } from '../services/related/related-list';
import { slugParamSchema } from '../schemas/catalogue';
import { clientIp } from '../services/rate-limit';

const publicCache = <E extends AppEnv>(c: Context<E>) => publicCacheControl(c.var.deps.config.PUBLIC_CACHE_SECONDS);

/** GET /api/people/{actor|director}/{slug}?page=: a person's page (issue 40 §1), public and edge-cacheable. */
export const peopleRoutes = new Hono<AppEnv>().get(
  '/:role/:slug',
  publicResponseCache,
  validate('param', personParamSchema),
  validate('query', personQuerySchema),
  async (c) => {
    const { role, slug } = c.req.valid('param');
    c.header('Cache-Control', publicCache(c));
    return c.json(await personPage(c.var.db, { role, slug, page: c.req.valid('query').page }), 200);
  },
);

/** POST /api/product/play: a device's 120 s of a film (issue 40 §3), counted once per device, film and day. */
export const playRoutes = new Hono<AppEnv>().post('/play', validate('json', playSchema), async (c) => {
  return c.json({ data: await recordPlay(c.var.db, c.req.valid('json'), clientIp(c.req.raw.headers), c.var.deps.now()) }, 200);
});

/**
 * GET /api/related/{slug}: the film's "Phim tương tự" (docs/decisions/1090), public and edge-cacheable under the
 * film's version: the home's "Vì bạn đã xem {phim}" row asks it for the device's last watched film (no history sent).
 */
export const relatedRoutes = new Hono<AppEnv>().get('/:slug', publicResponseCache, validate('param', slugParamSchema), async (c) => {
  c.header('Cache-Control', publicCache(c));
  return c.json(await relatedBySlug(c.var.db, c.req.valid('param').slug), 200);
});
