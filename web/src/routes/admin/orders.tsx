import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { ORDER_STATUSES, type OrderStatus, PAYMENT_METHODS, type PaymentMethod } from '../../../../worker/schemas/vip';
import type { OrdersFilter } from '../../features/admin/api/orders-api';
import { OrdersPage } from '../../features/admin/components/orders-page';
import { requireAdminArea } from '../../features/admin/guard';

interface OrdersSearch {
  page?: number;
  method?: PaymentMethod;
  status?: OrderStatus;
}

/** ?page=&method=&status=, written without zod (validateSearch runs in the entry chunk); a bad value is dropped. */
function validateOrdersSearch(raw: Record<string, unknown>): OrdersSearch {
  const page = typeof raw.page === 'number' ? raw.page : Number(raw.page);
  const method = (PAYMENT_METHODS as readonly unknown[]).includes(raw.method) ? (raw.method as PaymentMethod) : undefined;
  const status = (ORDER_STATUSES as readonly unknown[]).includes(raw.status) ? (raw.status as OrderStatus) : undefined;
  return { page: Number.isInteger(page) && page > 1 && page <= 10_000 ? page : undefined, method, status };
}

export const Route = createFileRoute('/admin/orders')({
  beforeLoad: requireAdminArea('adminOnly'),
  validateSearch: validateOrdersSearch,
  component: function OrdersRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    const filter: OrdersFilter = { page: search.page ?? 1, method: search.method ?? '', status: search.status ?? '' };
    const onFilter = useCallback(
      (next: Partial<OrdersFilter>) =>
        void navigate({
          search: (prev) => {
            const merged = { ...prev, ...next };
            return {
              page: merged.page && merged.page > 1 ? merged.page : undefined,
              method: merged.method || undefined,
              status: merged.status || undefined,
            };
          },
          replace: true,
        }),
      [navigate],
    );
    return <OrdersPage filter={filter} onFilter={onFilter} />;
  },
});
