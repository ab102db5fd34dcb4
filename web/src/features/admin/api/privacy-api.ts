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
