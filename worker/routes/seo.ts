import { Hono } from 'hono';
import { z } from 'zod';
import { publicCacheControl } from '../lib/edge-cache';
import type { AppEnv } from '../lib/context';
import { notFound } from '../lib/errors';
import { validate } from '../lib/validate';
import { filmsSitemap, listingsSitemap, robotsTxt, sitemapIndex } from '../services/seo/sitemap';

const chunkParam = z.object({ file: z.string().regex(/^films-[1-9][0-9]{0,5}\.xml$/, 'must be films-{n}.xml') });

/** For crawlers, at the site's root (not under /api): robots.txt, the sitemap index and its sitemaps. */
export const seoRoutes = new Hono<AppEnv>()
  .get('/robots.txt', (c) => {
    c.header('Cache-Control', publicCacheControl(c.var.deps.config.PUBLIC_CACHE_SECONDS));
    return c.text(robotsTxt(c.var.deps.config.PUBLIC_URL), 200);
  })
  .get('/sitemap.xml', async (c) => {
    const xml = await sitemapIndex(c.var.db, c.var.deps.config.PUBLIC_URL);
    return c.body(xml, 200, {
      'Content-Type': 'application/xml; charset=utf-8',
      'Cache-Control': publicCacheControl(c.var.deps.config.PUBLIC_CACHE_SECONDS),
    });
  })
  .get('/sitemaps/listings.xml', async (c) => {
    const xml = await listingsSitemap(c.var.db, c.var.deps.config.PUBLIC_URL);
    return c.body(xml, 200, {
      'Content-Type': 'application/xml; charset=utf-8',
      'Cache-Control': publicCacheControl(c.var.deps.config.PUBLIC_CACHE_SECONDS),
    });
  })
  .get('/sitemaps/:file', validate('param', chunkParam), async (c) => {
    const n = Number(/\d+/.exec(c.req.valid('param').file)?.[0]);
    const xml = await filmsSitemap(c.var.db, c.var.deps.config.PUBLIC_URL, n);
    if (xml === null) throw notFound(`sitemap films-${n}.xml`);
    return c.body(xml, 200, {
      'Content-Type': 'application/xml; charset=utf-8',
      'Cache-Control': publicCacheControl(c.var.deps.config.PUBLIC_CACHE_SECONDS),
    });
  });
