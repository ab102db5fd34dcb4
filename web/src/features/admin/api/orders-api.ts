import { queryOptions } from '@tanstack/react-query';
import { adminCall } from './admin-request';

/**
 * Pending bank transfers (issue 9, from the VIP issue): GET /api/admin/orders?status=pending and
 * POST /api/admin/orders/{orderId}/confirm are served by the payments branch, which is not in this
 * branch's AppType yet; until the merge the page calls them with fetch and reads the answer
 * defensively (docs/decisions: switch to api.api.admin.orders once both branches are in main).
 */
export interface PendingOrder {
  orderId: string;
  email: string;
  plan: string;
  months: number | null;
  amount: number | null;
  createdAt: number | null;
}

const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const rec = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v)) : {});

function toOrder(raw: unknown): PendingOrder | null {
  const o = rec(raw);
  const orderId = str(o.orderId ?? o.id);
  if (!orderId) return null;
  const user = rec(o.user);
  return {
    orderId,
    email: str(o.email ?? user.email),
    plan: str(o.plan),
    months: num(o.months),
    amount: num(o.amount),
    createdAt: num(o.createdAt ?? o.created),
  };
}

const jsonHeaders = (headers: Record<string, string>) => ({ ...headers, 'Content-Type': 'application/json' });

export const pendingOrdersQuery = () =>
  queryOptions({
    queryKey: ['admin', 'orders', 'pending'],
    queryFn: async (): Promise<PendingOrder[]> => {
      const body = await adminCall((headers) => fetch('/api/admin/orders?status=pending', { headers }));
      const list = Array.isArray(body) ? body : rec(body).data;
      return (Array.isArray(list) ? list : []).map(toOrder).filter((o): o is PendingOrder => o !== null);
    },
  });

export const confirmOrder = (orderId: string) =>
  adminCall((headers) =>
    fetch(`/api/admin/orders/${encodeURIComponent(orderId)}/confirm`, { method: 'POST', headers: jsonHeaders(headers), body: '{}' }),
  );
