import { Hono } from 'hono';
import { z } from 'zod';
import { afterResponse } from '../../lib/after-response';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import {
  auditIdParamSchema,
  auditQuerySchema,
  type DashboardStats,
  deletedFilmsQuerySchema,
  errorReportsQuerySchema,
  filmSlugQuerySchema,
  myFilmsQuerySchema,
  updateSettingsSchema,
} from '../../schemas/admin';
import { listAudit } from '../../services/admin/audit';
import { undoableIn, undoAuditEntry } from '../../services/admin/audit-undo';
import { listDeletedFilms, restoreFilm } from '../../services/admin/deleted-films';
import { filmForEditor, uploaderFilms } from '../../services/admin/films';
import { listErrorReports, resolveErrorReport } from '../../services/admin/error-reports';
import { readSettings, updateSettings } from '../../services/admin/settings';
import { adminAnalytics, adminStats, uploaderStats } from '../../services/admin/stats';
import { adminOnly, adminOrVip2 } from './access';

const idParam = z.object({
  id: z.coerce.number({ error: 'must be a report id' }).int('must be a report id').positive('must be a report id'),
});

const deletedIdParam = z.object({
  id: z.coerce.number({ error: 'must be a deleted film id' }).int('must be a deleted film id').positive('must be a deleted film id'),
});

/** Dashboard, analytics, error reports, settings and the audit log; mounted under /api/admin. */
export const backOfficeRoutes = new Hono<AppEnv>()
  .get('/stats', adminOrVip2, async (c) => {
    const { viewer } = c.var;
    // Revenue, users and members for admins only; a VIP2 uploader sees their own uploads.
    const stats: DashboardStats = viewer.roles.includes('admin')
      ? await adminStats(c.var.db, c.var.deps.now())
      : await uploaderStats(c.var.db, viewer.id);
    return c.json(stats, 200);
  })
  .get('/my-films', adminOrVip2, validate('query', myFilmsQuerySchema), async (c) => {
    return c.json(await uploaderFilms(c.var.db, c.var.viewer.id, c.req.valid('query').q), 200);
  })
  .get('/film', adminOnly, validate('query', filmSlugQuerySchema), async (c) => {
    return c.json(await filmForEditor(c.var.db, c.req.valid('query').slug), 200);
  })
  .get('/deleted-films', adminOnly, validate('query', deletedFilmsQuerySchema), async (c) => {
    return c.json(await listDeletedFilms(c.var.db, c.req.valid('query')), 200);
  })
  .post('/deleted-films/:id/restore', adminOnly, validate('param', deletedIdParam), async (c) => {
    // The restored film raises the catalogue version (migration 0008's triggers) and this POST makes the app
    // read it again (app.ts), so the caches that still miss it are emptied by the next read.
    return c.json(await restoreFilm(c.var.db, c.var.viewer, c.req.valid('param').id, c.var.deps.now()), 200);
  })
  .get('/analytics', adminOnly, async (c) => {
    return c.json(await adminAnalytics(c.var.db, c.var.deps.now()), 200);
  })
  .get('/error-reports', adminOnly, validate('query', errorReportsQuerySchema), async (c) => {
    return c.json(await listErrorReports(c.var.db, c.req.valid('query')), 200);
  })
  .post('/error-reports/:id/resolve', adminOnly, validate('param', idParam), async (c) => {
    return c.json(await resolveErrorReport(c.var.db, c.var.viewer, c.req.valid('param').id, c.var.deps.now()), 200);
  })
  .get('/settings', adminOnly, async (c) => {
    const { config } = c.var.deps;
    return c.json({ data: await readSettings(c.var.db, config), allowedCrawlSources: config.CRAWL_SOURCES }, 200);
  })
  .put('/settings', adminOnly, validate('json', updateSettingsSchema), async (c) => {
    const { config } = c.var.deps;
    const data = await updateSettings(c.var.db, config, c.var.viewer, c.req.valid('json'), c.var.deps.now());
    return c.json({ data, allowedCrawlSources: config.CRAWL_SOURCES }, 200);
  })
  .get('/audit', adminOnly, validate('query', auditQuerySchema), async (c) => {
    return c.json(await listAudit(c.var.db, c.req.valid('query'), undoableIn(c.var.duties.undo)), 200);
  })
  .post('/audit/:id/undo', adminOnly, validate('param', auditIdParamSchema), async (c) => {
    const { afterCommit, ...body } = await undoAuditEntry(
      c.var.db,
      c.var.duties.undo,
      c.var.viewer,
      c.req.valid('param').id,
      c.var.deps.now(),
    );
    // What the reversal tells others (a live room) happens after the answer, as every room push does.
    if (afterCommit.length) afterResponse(c, Promise.allSettled(afterCommit.map((task) => task(c.var.deps))));
    return c.json(body, 200);
  });
