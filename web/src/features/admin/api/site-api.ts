import { queryOptions } from '@tanstack/react-query';
import type { AdminSettings } from '../../../../../worker/schemas/admin';
import type { SitePageSlug, UpdateSitePageInput } from '../../../../../worker/schemas/pages';
import { api } from '../../../lib/api-client';
import { adminCall } from './admin-request';

/** GET /api/admin/stats (admin or VIP2): the dashboard's figures. */
export const statsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'stats'],
    queryFn: () => adminCall((headers) => api.api.admin.stats.$get({}, { headers })),
  });

/** GET /api/admin/analytics (admin). */
export const analyticsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'analytics'],
    queryFn: () => adminCall((headers) => api.api.admin.analytics.$get({}, { headers })),
  });

/** GET /api/admin/settings (admin). */
export const settingsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'settings'],
    queryFn: () => adminCall((headers) => api.api.admin.settings.$get({}, { headers })),
  });

/** PUT /api/admin/settings: any subset of the fields. */
export const saveSettings = (data: Partial<AdminSettings>) =>
  adminCall((headers) => api.api.admin.settings.$put({ json: data }, { headers }));

export type ReportState = 'all' | 'open' | 'resolved';

/** GET /api/admin/error-reports?page=&state= (admin). */
export const errorReportsQuery = (page: number, state: ReportState) =>
  queryOptions({
    queryKey: ['admin', 'error-reports', page, state],
    queryFn: () => adminCall((headers) => api.api.admin['error-reports'].$get({ query: { page: String(page), state } }, { headers })),
    placeholderData: (previous) => previous,
  });

/** POST /api/admin/error-reports/{id}/resolve (admin). */
export const resolveErrorReport = (id: number) =>
  adminCall((headers) => api.api.admin['error-reports'][':id'].resolve.$post({ param: { id: String(id) } }, { headers }));

/** GET /api/admin/audit?page=&action= (admin): who changed what, when, before → after. */
export const auditQuery = (page: number, action: string) =>
  queryOptions({
    queryKey: ['admin', 'audit', page, action],
    queryFn: () =>
      adminCall((headers) => api.api.admin.audit.$get({ query: { page: String(page), action: action || undefined } }, { headers })),
    placeholderData: (previous) => previous,
  });

/** POST /api/admin/audit/{id}/undo (admin): "Hoàn tác", from the data the entry kept. */
export const undoAuditEntry = (id: number) =>
  adminCall((headers) => api.api.admin.audit[':id'].undo.$post({ param: { id: String(id) } }, { headers }));

/** GET /api/admin/pages (admin): the footer pages' titles and texts. */
export const sitePagesQuery = () =>
  queryOptions({
    queryKey: ['admin', 'pages'],
    queryFn: () => adminCall((headers) => api.api.admin.pages.$get({}, { headers })),
  });

/** PUT /api/admin/pages/{slug} (admin): a footer page's title and text. */
export const saveSitePage = (slug: SitePageSlug, json: UpdateSitePageInput) =>
  adminCall((headers) => api.api.admin.pages[':slug'].$put({ param: { slug }, json }, { headers }));
