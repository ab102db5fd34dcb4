import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { adminCall } from './admin-request';

/** GET /api/admin/privacy-requests (admin): the privacy page's requests, open ones first by acknowledgement date. */
export const privacyRequestsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'privacy-requests'],
    queryFn: () => adminCall((headers) => api.api.admin['privacy-requests'].$get(undefined, { headers })),
  });

/** PATCH /api/admin/privacy-requests/{id} (admin): mới → đã xác nhận → đã xử lý. */
export const setPrivacyRequestStatus = (id: number, status: 'acknowledged' | 'done') =>
  adminCall((headers) => api.api.admin['privacy-requests'][':id'].$patch({ param: { id: String(id) }, json: { status } }, { headers }));

/** GET /api/admin/account-deletions (admin): members waiting out their 7 days before erasure. */
export const pendingDeletionsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'account-deletions'],
    queryFn: () => adminCall((headers) => api.api.admin['account-deletions'].$get(undefined, { headers })),
  });

/** POST /api/admin/account-deletions/{id}/erase (admin): erases one at once, for a member who asked by phone (audited). */
export const eraseMemberNow = (userId: number) =>
  adminCall((headers) => api.api.admin['account-deletions'][':id'].erase.$post({ param: { id: String(userId) } }, { headers }));
