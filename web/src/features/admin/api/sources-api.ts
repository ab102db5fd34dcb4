import { queryOptions } from '@tanstack/react-query';
import type { CreateSourceInput, MergeFilmsInput, UpdateSourceInput } from '../../../../../worker/schemas/sources';
import { api } from '../../../lib/api-client';
import { adminCall } from './admin-request';

/** GET /api/admin/sources (admin): every source in priority order, with its films, errors in 24 h and health. */
export const sourcesQuery = () =>
  queryOptions({
    queryKey: ['admin', 'sources'],
    queryFn: () => adminCall((headers) => api.api.admin.sources.$get({}, { headers })),
  });

/** POST /api/admin/sources: a new source (family detected from its answers unless given). */
export const createSource = (json: CreateSourceInput) => adminCall((headers) => api.api.admin.sources.$post({ json }, { headers }));

/** PATCH /api/admin/sources/{id}: name, family, priority, enabled. */
export const updateSource = (id: number, json: UpdateSourceInput) =>
  adminCall((headers) => api.api.admin.sources[':id'].$patch({ param: { id: String(id) }, json }, { headers }));

/** POST /api/admin/sources/check: does each enabled source answer now? */
export const checkAllSources = () => adminCall((headers) => api.api.admin.sources.check.$post({}, { headers }));

/** POST /api/admin/sources/{id}/check. */
export const checkSource = (id: number) =>
  adminCall((headers) => api.api.admin.sources[':id'].check.$post({ param: { id: String(id) } }, { headers }));

/** GET /api/admin/sources/{id}/log: what its crawls said (errors, merges in doubt). */
export const sourceLogQuery = (id: number) =>
  queryOptions({
    queryKey: ['admin', 'source-log', id],
    queryFn: () => adminCall((headers) => api.api.admin.sources[':id'].log.$get({ param: { id: String(id) } }, { headers })),
  });

/** GET /api/admin/merge-suggestions?status=: pairs of films that may be one. */
export const mergeSuggestionsQuery = (status: 'open' | 'dismissed') =>
  queryOptions({
    queryKey: ['admin', 'merge-suggestions', status],
    queryFn: () => adminCall((headers) => api.api.admin['merge-suggestions'].$get({ query: { status } }, { headers })),
  });

/** POST /api/admin/merge-suggestions/scan: finds duplicates among the films already there. */
export const scanDuplicates = () => adminCall((headers) => api.api.admin['merge-suggestions'].scan.$post({}, { headers }));

/** POST /api/admin/merge-suggestions/{id}/dismiss: two different films. */
export const dismissSuggestion = (id: number) =>
  adminCall((headers) => api.api.admin['merge-suggestions'][':id'].dismiss.$post({ param: { id: String(id) } }, { headers }));

/** POST /api/admin/merges { keep, drop }: "Gộp phim". */
export const mergeFilms = (json: MergeFilmsInput) => adminCall((headers) => api.api.admin.merges.$post({ json }, { headers }));
