import { Hono } from 'hono';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import {
  addFilmSchema,
  createEpisodeSchema,
  deleteEpisodeQuerySchema,
  deleteFilmQuerySchema,
  deleteFilmsSchema,
  editEpisodeSchema,
  editFilmSchema,
  editVip1Schema,
  filmEpisodesQuerySchema,
} from '../../schemas/admin';
import {
  addFilm,
  createEpisode,
  deleteEpisode,
  deleteFilms,
  editEpisode,
  editFilm,
  filmEpisodes,
  setVip1,
} from '../../services/admin/films';
import { adminOnly, adminOrVip2 } from './access';
import { afterResponse } from '../../lib/after-response';
import { notifyNewEpisodes } from '../../services/push/notifier';

/** POST /api/admin/addphim (admin or VIP2). Mounted under /api/admin. */
export const adminAddFilmRoutes = new Hono<AppEnv>().post('/addphim', adminOrVip2, validate('json', addFilmSchema), async (c) => {
  const result = await addFilm(c.var.db, c.var.viewer, c.req.valid('json'), c.var.deps.now());
  return c.json(result, 201);
});

/**
 * Film and episode writes under /api/product. Mounted before the catalogue, whose /:slug/:episode
 * would otherwise answer /product/delete_product and friends.
 */
export const adminProductRoutes = new Hono<AppEnv>()
  .post('/edit_productphim', adminOnly, validate('json', editFilmSchema), async (c) => {
    const result = await editFilm(c.var.db, c.var.viewer, c.req.valid('json'), c.var.deps.now());
    return c.json(result, 200);
  })
  .delete('/delete_product', adminOnly, validate('query', deleteFilmQuerySchema), async (c) => {
    const result = await deleteFilms(c.var.db, c.var.viewer, [c.req.valid('query').title], c.var.deps.now());
    return c.json(result, 200);
  })
  .delete('/delete_products', adminOnly, validate('json', deleteFilmsSchema), async (c) => {
    const result = await deleteFilms(c.var.db, c.var.viewer, c.req.valid('json').titles, c.var.deps.now());
    return c.json(result, 200);
  })
  .post('/edit_packageVIP1', adminOnly, validate('json', editVip1Schema), async (c) => {
    const result = await setVip1(c.var.db, c.var.viewer, c.req.valid('json'), c.var.deps.now());
    return c.json(result, 200);
  })
  .post('/create_xemphim', adminOrVip2, validate('json', createEpisodeSchema), async (c) => {
    const result = await createEpisode(c.var.db, c.var.viewer, c.req.valid('json'), c.var.deps.now());
    // A new episode number was recorded as a release: tell the film's followers after the response.
    afterResponse(c, notifyNewEpisodes(c.var.deps));
    return c.json(result, result.updated ? 200 : 201);
  })
  .post('/edit_xemphim', adminOrVip2, validate('json', editEpisodeSchema), async (c) => {
    const result = await editEpisode(c.var.db, c.var.viewer, c.req.valid('json'), c.var.deps.now());
    return c.json(result, 200);
  })
  .delete('/delete_xemphim', adminOnly, validate('query', deleteEpisodeQuerySchema), async (c) => {
    const result = await deleteEpisode(c.var.db, c.var.viewer, c.req.valid('query').id, c.var.deps.now());
    return c.json(result, 200);
  })
  .get('/admin_episodes', adminOrVip2, validate('query', filmEpisodesQuerySchema), async (c) => {
    return c.json(await filmEpisodes(c.var.db, c.var.viewer, c.req.valid('query').title), 200);
  });
