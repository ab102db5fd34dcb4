import { queryOptions } from '@tanstack/react-query';
import type { OrderStatus, PaymentMethod } from '../../../../../worker/schemas/vip';
import { api } from '../../../lib/api-client';
import { adminCall } from './admin-request';

export interface OrdersFilter {
  page: number;
  /** Empty: every method / every status. */
  method: PaymentMethod | '';
  status: OrderStatus | '';
}

/** GET /api/admin/orders?method=&status=&page=: every order with its user, newest first, 50 a page. */
export const ordersQuery = ({ page, method, status }: OrdersFilter) =>
  queryOptions({
    queryKey: ['admin', 'orders', page, method, status],
    queryFn: () =>
      adminCall((headers) =>
        api.api.admin.orders.$get({ query: { page: String(page), method: method || undefined, status: status || undefined } }, { headers }),
      ),
    placeholderData: (previous) => previous,
  });

/** POST /api/admin/orders/{orderId}/confirm: pays a pending bank transfer and grants its plan. */
export const confirmOrder = (orderId: string) =>
  adminCall((headers) => api.api.admin.orders[':orderId'].confirm.$post({ param: { orderId } }, { headers }));

/** GET /api/admin/bank-transactions?status=unmatched: "Giao dịch chưa khớp", the bank notifications no order took. */
export const unmatchedTransactionsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'orders', 'bank-transactions', 'unmatched'],
    queryFn: () => adminCall((headers) => api.api.admin['bank-transactions'].$get({ query: { status: 'unmatched' } }, { headers })),
  });

/** POST /api/admin/bank-transactions/{id}/attach: the transfer was for this order (id or payment code); pays it. */
export const attachTransaction = (id: number, orderId: string) =>
  adminCall((headers) =>
    api.api.admin['bank-transactions'][':id'].attach.$post({ param: { id: String(id) }, json: { orderId } }, { headers }),
  );

/** POST /api/admin/bank-transactions/{id}/dismiss: set aside with a reason. */
export const dismissTransaction = (id: number, reason: string) =>
  adminCall((headers) =>
    api.api.admin['bank-transactions'][':id'].dismiss.$post({ param: { id: String(id) }, json: { reason } }, { headers }),
  );
