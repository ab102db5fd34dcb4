import { type Context, Hono } from 'hono';
import { publicCacheControl } from '../lib/edge-cache';
import { currentCatalogueCaches, publicResponseCache } from '../lib/public-cache';
import { withViewer } from '../lib/auth-middleware';
import type { AppEnv, Viewer } from '../lib/context';
import { badRequest } from '../lib/errors';
import { validate } from '../lib/validate';
import {
  allFilmsQuerySchema,
  episodeParamSchema,
  episodeQuerySchema,
  filmIdParamSchema,
  listingQuerySchema,
  searchQuerySchema,
  slugParamSchema,
  updateViewSchema,
} from '../schemas/catalogue';
import { reportErrorSchema } from '../schemas/error-reports';
import { reportEpisodeError } from '../services/catalogue/error-reports';
import { clientIp } from '../services/rate-limit';
import { CATEGORIES, listingScope } from '../schemas/taxonomy';
import { filmDetailBySlug, loadFilmDetail } from '../services/catalogue/detail';
import { homeData, homeTopData, sidebarData } from '../services/catalogue/home';
import { listAllFilms, listFilms } from '../services/catalogue/listing';
import { searchFilms } from '../services/catalogue/search';
import { episodeLink, recordView } from '../services/catalogue/watch';

/**
 * Public catalogue data is the same for everyone: shared caches (the host's edge cache, lib/edge-cache.ts) keep
 * it PUBLIC_CACHE_SECONDS under the current catalogue version; browsers revalidate.
 */
const publicCache = <E extends AppEnv>(c: Context<E>) => publicCacheControl(c.var.deps.config.PUBLIC_CACHE_SECONDS);
/** A film's detail is public for an anonymous viewer; signed in, it holds their VIP access and rating. */
const detailCache = <E extends AppEnv>(c: Context<E>, viewer: Viewer | null) => (viewer ? 'private, no-store' : publicCache(c));

/** The verified token, if any, whose viewer the film reads load in their own batch (services/auth/viewer.ts). */
const who = (c: Context<AppEnv>) => ({ session: c.var.session, now: c.var.deps.now() });

/** Whole-response reuse for anonymous public reads (lib/public-cache.ts). */
const cached = publicResponseCache;

export const catalogueRoutes = new Hono<AppEnv>()
  .get('/product-home', cached, async (c) => {
    c.header('Cache-Control', publicCache(c));
    return c.json(await homeData(c.var.db, c.var.deps.now()), 200);
  })
  .get('/home-top', cached, async (c) => {
    c.header('Cache-Control', publicCache(c));
    return c.json(await homeTopData(c.var.db, c.var.deps.now()), 200);
  })
  .get('/sidebar', cached, async (c) => {
    c.header('Cache-Control', publicCache(c));
    return c.json(await sidebarData(c.var.db, c.var.deps.now()), 200);
  })
  .get('/search', cached, validate('query', searchQuerySchema), async (c) => {
    c.header('Cache-Control', publicCache(c));
    return c.json(await searchFilms(c.var.db, c.req.valid('query')), 200);
  })
  .get('/getdetail_xemphim/:id', withViewer, currentCatalogueCaches, validate('param', filmIdParamSchema), async (c) => {
    const { detail, access } = await loadFilmDetail(
      c.var.db,
      { id: c.req.valid('param').id },
      c.var.viewer,
      c.var.caches.films,
      c.var.deps.now(),
    );
    c.header('Cache-Control', detailCache(c, c.var.viewer));
    return c.json({ data: detail, ...(access === 'allowed' ? {} : { [access]: true }) }, 200);
  })
  .post('/update_view', withViewer, validate('json', updateViewSchema), async (c) => {
    return c.json({ data: await recordView(c.var.db, c.req.valid('json').title, c.var.deps.now(), c.var.viewer) }, 200);
  })
  .post('/report_error', withViewer, validate('json', reportErrorSchema), async (c) => {
    const who = { ip: clientIp(c.req.raw.headers), viewer: c.var.viewer };
    return c.json({ data: await reportEpisodeError(c.var.db, c.req.valid('json'), who, c.var.deps.now()) }, 201);
  })
  // A film whose slug starts with 'product-' (titled "Product …") shares the listings' path: a name that
  // is not one of the listings is that film. No film is given a listing's own name (RESERVED_FILM_SLUGS).
  .get('/:slug{product-[a-z0-9+-]+}', validate('param', slugParamSchema), async (c, next) => {
    const { slug } = c.req.valid('param');
    if (listingScope(slug.slice('product-'.length))) return next();
    const { cached, viewer: _, ...body } = await filmDetailBySlug(c.var.db, slug, who(c), c.var.caches.films);
    c.header('X-Cache', cached ? 'hit' : 'miss');
    return c.json(body, 200);
  })
  .get('/:listing{product-[a-z0-9+-]+}', cached, validate('query', listingQuerySchema), async (c) => {
    const endpoint = c.req.param('listing').slice('product-'.length);
    const scope = listingScope(endpoint);
    if (!scope) throw badRequest('endpoint', `unknown listing 'product-${endpoint}'`);
    c.header('Cache-Control', publicCache(c));
    return c.json(await listFilms(c.var.db, scope, c.req.valid('query')), 200);
  })
  .get('/:slug', currentCatalogueCaches, validate('param', slugParamSchema), async (c) => {
    const { cached, viewer, ...body } = await filmDetailBySlug(c.var.db, c.req.valid('param').slug, who(c), c.var.caches.films);
    c.header('X-Cache', cached ? 'hit' : 'miss');
    c.header('Cache-Control', detailCache(c, viewer));
    return c.json(body, 200);
  })
  .get('/:slug/:episode', validate('param', episodeParamSchema), validate('query', episodeQuerySchema), async (c) => {
    const { slug, episode } = c.req.valid('param');
    return c.json(await episodeLink(c.var.db, { slug, episode, server: c.req.valid('query').server }, who(c)), 200);
  })
  .get('/', validate('query', allFilmsQuerySchema), async (c) => {
    return c.json(await listAllFilms(c.var.db, c.req.valid('query')), 200);
  });

export const categoryRoutes = new Hono<AppEnv>().get('/', cached, (c) => {
  c.header('Cache-Control', publicCache(c));
  return c.json({ data: CATEGORIES.map(({ id, slug, name }) => ({ id, slug, namecategory: name })) }, 200);
});
