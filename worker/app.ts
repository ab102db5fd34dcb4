import { peopleRoutes, playRoutes, relatedRoutes } from './routes/discovery';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppCaches, AppDeps, AppEnv } from './lib/context';
import { viewerMiddleware } from './lib/auth-middleware';
import { ApiError, toErrorBody } from './lib/errors';
import { securityHeaders } from './lib/security-headers';
import type { CachedResponse } from './lib/public-cache';
import { TtlCache } from './lib/ttl-cache';
import { forgetCatalogueVersion } from './services/catalogue/version';
import { FilmMovedError } from './services/catalogue/film-lookup';
import { prepareAll } from './db/prepared';
import type { FilmRecord } from './services/catalogue/detail';
import { accountRoutes } from './routes/account';
import { backOfficeRoutes } from './routes/admin/back-office';
import { adminCrawlRoutes } from './routes/admin/crawls';
import { adminBankTransactionRoutes } from './routes/admin/bank-transactions';
import { adminOrderRoutes } from './routes/admin/orders';
import { adminAddFilmRoutes, adminProductRoutes } from './routes/admin/films';
import { adminUserRoutes } from './routes/admin/users';
import { adminAccountDeletionRoutes } from './routes/admin/account-deletions';
import { adminSourceRoutes } from './routes/admin/sources';
import { authRoutes } from './routes/auth';
import { catalogueRoutes, categoryRoutes } from './routes/catalogue';
import { commentRoutes } from './routes/comments';
import { commentActionRoutes, hiddenAuthorRoutes, moderationRoutes } from './routes/moderation';
import { healthRoutes } from './routes/health';
import { meRoutes } from './routes/me';
import { partyRoutes } from './routes/parties';
import { pushRoutes } from './routes/push';
import { checkoutRoutes, paymentRoutes } from './routes/payment';
import { vipRoutes } from './routes/vip';
import { ratingRoutes } from './routes/ratings';
import { adminSitePageRoutes, sitePageRoutes } from './routes/pages';
import { scheduleRoutes, seriesStatusRoutes } from './routes/schedule';

import { adminSegmentRoutes, segmentRoutes } from './routes/segments';
import { seoRoutes } from './routes/seo';
import { adminPrivacyRoutes, privacyRoutes } from './routes/privacy';
import { duties } from './wiring';

/** The read cache's bound in bytes of cached answers (a listing page is about 35 KB as a JS string). */
const RESPONSE_CACHE_BYTES = 32 * 2 ** 20;
// JS strings of non-Latin-1 text take two bytes a character; headers are a few hundred bytes.
const weighResponse = (entry: CachedResponse) => entry.body.length * 2 + 512;

/** The whole API, host-agnostic: node.ts and index.ts only build deps and mount it. */
export function createApp(deps: AppDeps) {
  const headers = Object.entries(securityHeaders(deps.config));
  const app = new Hono<AppEnv>();
  // A few seconds of reuse for public catalogue reads (docs/decisions/0006-public-read-cache.md).
  const ttl = deps.config.PUBLIC_CACHE_SECONDS * 1000;
  const caches: AppCaches = {
    responses: new TtlCache<CachedResponse>(ttl, 2_000, deps.now, { weigh: weighResponse, maxWeight: RESPONSE_CACHE_BYTES }),
    films: new TtlCache<FilmRecord>(ttl, 2_000, deps.now),
    version: -1,
    lists: -1,
  };

  app.use('*', async (c, next) => {
    c.set('deps', deps);
    c.set('db', deps.db);
    c.set('caches', caches);
    c.set('duties', duties);
    await next();
    // A write of this process (admin edit, delete, …) may have changed the catalogue: its next public read
    // asks the database for the version instead of trusting what it knew (lib/public-cache.ts).
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') forgetCatalogueVersion(deps.db);
    const resHeaders = c.res.headers;
    for (const [name, value] of headers) resHeaders.set(name, value);
    if (!resHeaders.has('Cache-Control')) resHeaders.set('Cache-Control', 'no-store');
  });
  app.use('*', viewerMiddleware);
  const limitBody = bodyLimit({
    maxSize: 64 * 1024,
    onError: () => {
      throw new ApiError(413, 'payload_too_large', 'body: larger than 64 KB');
    },
  });
  // Reads carry no body: bodyLimit would still ask the Request for one, and on the Node host that turns
  // @hono/node-server's lightweight Request into a whole WHATWG Request per call.
  app.use('*', (c, next) => (c.req.method === 'GET' || c.req.method === 'HEAD' ? next() : limitBody(c, next)));

  // For crawlers, at the site's root: robots.txt and the sitemaps (the hosts route these paths here).
  app.route('/', seoRoutes);
  const routes = app
    .basePath('/api')
    .route('/health', healthRoutes)
    .route('/', authRoutes)
    .route('/account', accountRoutes)
    .route('/me/hidden-authors', hiddenAuthorRoutes)
    .route('/me', meRoutes)
    .route('/comments', commentActionRoutes)
    .route('/push', pushRoutes)
    .route('/parties', partyRoutes)
    .route('/category', categoryRoutes)
    .route('/', adminUserRoutes)
    .route('/', adminCrawlRoutes)
    .route('/admin', adminAddFilmRoutes)
    .route('/admin', backOfficeRoutes)
    .route('/admin', adminSourceRoutes)
    .route('/admin', moderationRoutes)
    .route('/admin', adminSitePageRoutes)
    .route('/admin/account-deletions', adminAccountDeletionRoutes)
    .route('/pages', sitePageRoutes)
    .route('/lich-chieu', scheduleRoutes)
    .route('/series', seriesStatusRoutes)
    .route('/segments', segmentRoutes)
    .route('/admin', adminSegmentRoutes)
    .route('/privacy', privacyRoutes)
    .route('/admin', adminPrivacyRoutes)
    // Before the catalogue: its /product/:slug/:episode would otherwise catch /product/delete_product.
    .route('/product', adminProductRoutes)
    // Before the catalogue: its /product/:slug/:episode would otherwise catch /product/:slug/comments.
    .route('/product', commentRoutes)
    .route('/product', ratingRoutes)
    .route('/product', checkoutRoutes)
    .route('/product', playRoutes)
    .route('/people', peopleRoutes)
    .route('/related', relatedRoutes)
    .route('/payment', paymentRoutes)
    .route('/vip', vipRoutes)
    .route('/admin/orders', adminOrderRoutes)
    .route('/admin/bank-transactions', adminBankTransactionRoutes)
    .route('/product', catalogueRoutes);

  routes.notFound((c) => c.json({ error: { code: 'not_found', message: `Không tìm thấy ${c.req.path}` } }, 404));
  routes.onError((err, c) => {
    // A merged-away film's slug: the same read under the kept film's slug (docs/decisions/0104).
    if (err instanceof FilmMovedError) {
      const url = new URL(c.req.url);
      const path = url.pathname.replace(`/${err.from}`, `/${err.slug}`);
      c.header('Cache-Control', 'no-store');
      return c.redirect(`${path}${url.search}`, 301);
    }
    const { status, body } = toErrorBody(err);
    if (status >= 500) console.error('[api]', c.req.method, c.req.path, err);
    if (body.error.retryAfter !== undefined) c.header('Retry-After', String(body.error.retryAfter));
    return c.json(body, status);
  });
  // Every prepared statement of the routes above, built now rather than by the first request that needs it.
  prepareAll(deps.db);
  return routes;
}

export type AppType = ReturnType<typeof createApp>;
