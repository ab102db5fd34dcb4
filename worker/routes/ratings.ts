import { Hono } from 'hono';
import { requireViewer } from '../lib/auth-middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { rateFilm } from '../services/ratings/ratings';
import { rateFilmBodySchema } from '../schemas/ratings';

/** Mounted under /api/product. */
export const ratingRoutes = new Hono<AppEnv>().post('/rating_star', requireViewer, validate('json', rateFilmBodySchema), async (c) => {
  const { titlefilm, starselect } = c.req.valid('json');
  const result = await rateFilm(c.var.db, { filmSlug: titlefilm, userId: c.var.viewer.id, stars: starselect, now: c.var.deps.now() });
  return c.json(result, 200);
});
