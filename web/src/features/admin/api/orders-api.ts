import { queryOptions } from '@tanstack/react-query';
import type { AdminOrder } from '../../../../../worker/schemas/vip';
import { api } from '../../../lib/api-client';
import { adminCall } from './admin-request';

/** GET /api/admin/orders?status=pending: bank transfers waiting for an admin (first page, newest first). */
export const pendingOrdersQuery = () =>
  queryOptions({
    queryKey: ['admin', 'orders', 'pending'],
    queryFn: async (): Promise<AdminOrder[]> =>
      (await adminCall((headers) => api.api.admin.orders.$get({ query: { status: 'pending' } }, { headers }))).data,
  });

/** POST /api/admin/orders/{orderId}/confirm: pays the order and grants its plan. */
export const confirmOrder = (orderId: string) =>
  adminCall((headers) => api.api.admin.orders[':orderId'].confirm.$post({ param: { orderId } }, { headers }));
