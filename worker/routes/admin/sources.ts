import { Hono } from 'hono';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import {
  createSourceSchema,
  mergeFilmsSchema,
  sourceIdParamSchema,
  suggestionIdParamSchema,
  suggestionsQuerySchema,
  updateSourceSchema,
} from '../../schemas/sources';
import { dismissSuggestion, listMergeSuggestions, scanDuplicates } from '../../services/admin/merges';
import { checkSources, createSource, listSources, sourceLogLines, updateSource } from '../../services/admin/sources';
import { mergeFilms } from '../../services/films/film-merge';
import { adminOnly } from './access';

/**
 * "Nguồn phim" and "Gộp phim" (issue 32), mounted under /api/admin: the sources the crawler reads, and merging two
 * films that are one. Admin only.
 */
export const adminSourceRoutes = new Hono<AppEnv>()
  .get('/sources', adminOnly, async (c) => {
    return c.json(await listSources(c.var.deps), 200);
  })
  .post('/sources', adminOnly, validate('json', createSourceSchema), async (c) => {
    return c.json({ data: await createSource(c.var.deps, c.var.viewer, c.req.valid('json')) }, 201);
  })
  .post('/sources/check', adminOnly, async (c) => {
    return c.json(await checkSources(c.var.deps), 200);
  })
  .patch('/sources/:id', adminOnly, validate('param', sourceIdParamSchema), validate('json', updateSourceSchema), async (c) => {
    return c.json({ data: await updateSource(c.var.deps, c.var.viewer, c.req.valid('param').id, c.req.valid('json')) }, 200);
  })
  .post('/sources/:id/check', adminOnly, validate('param', sourceIdParamSchema), async (c) => {
    return c.json(await checkSources(c.var.deps, c.req.valid('param').id), 200);
  })
  .get('/sources/:id/log', adminOnly, validate('param', sourceIdParamSchema), async (c) => {
    return c.json(await sourceLogLines(c.var.db, c.req.valid('param').id), 200);
  })
  .get('/merge-suggestions', adminOnly, validate('query', suggestionsQuerySchema), async (c) => {
    return c.json(await listMergeSuggestions(c.var.db, c.req.valid('query').status), 200);
  })
  .post('/merge-suggestions/scan', adminOnly, async (c) => {
    return c.json(await scanDuplicates(c.var.db, c.var.deps.now()), 200);
  })
  .post('/merge-suggestions/:id/dismiss', adminOnly, validate('param', suggestionIdParamSchema), async (c) => {
    return c.json(await dismissSuggestion(c.var.db, c.var.viewer, c.req.valid('param').id, c.var.deps.now()), 200);
  })
  .post('/merges', adminOnly, validate('json', mergeFilmsSchema), async (c) => {
    // The merge raises the catalogue version (the films' triggers) and this POST makes the app read it again (app.ts).
    return c.json(await mergeFilms(c.var.db, c.var.viewer, c.req.valid('json'), c.var.deps.now()), 200);
  });
