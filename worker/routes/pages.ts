import { Hono } from 'hono';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { sitePageParamSchema, updateSitePageSchema } from '../schemas/pages';
import { listSitePages, readSitePage, updateSitePage } from '../services/pages/site-pages';
import { adminOnly } from './admin/access';

/** GET /api/pages/{slug}: a footer page (Quy định, Điều khoản, Bảo mật, Giới thiệu), public. */
export const sitePageRoutes = new Hono<AppEnv>().get('/:slug', validate('param', sitePageParamSchema), async (c) => {
  // Read on every visit (one settings row) and revalidated by browsers: an admin's edit shows at once in every
  // isolate, with no cache to clear.
  c.header('Cache-Control', 'no-cache');
  return c.json(await readSitePage(c.var.db, c.req.valid('param').slug), 200);
});

/** GET /api/admin/pages, PUT /api/admin/pages/{slug} (admin): the pages' texts in the settings page. */
export const adminSitePageRoutes = new Hono<AppEnv>()
  .get('/pages', adminOnly, async (c) => {
    return c.json({ data: await listSitePages(c.var.db) }, 200);
  })
  .put('/pages/:slug', adminOnly, validate('param', sitePageParamSchema), validate('json', updateSitePageSchema), async (c) => {
    return c.json(await updateSitePage(c.var.db, c.var.viewer, c.req.valid('param').slug, c.req.valid('json'), c.var.deps.now()), 200);
  });
