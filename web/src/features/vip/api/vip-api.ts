import { queryOptions } from '@tanstack/react-query';
import type {
  BankTransferResponse,
  Gateway,
  GatewayOrderResponse,
  PaymentMethod,
  PaymentReturnResponse,
  PlanId,
} from '../../../../../worker/schemas/vip';
import { PLAN_LIST } from '../../../../../worker/schemas/vip';
import { api, unwrap } from '../../../lib/api-client';
import { authedCall } from '../../../lib/auth-request';
import { getSession, storeRights } from '../../../lib/session';

/** GET /api/vip/plans; the same data ships in the bundle, so the page never waits for it. */
export const plansQuery = () =>
  queryOptions({
    queryKey: ['vip', 'plans'],
    queryFn: () => unwrap(api.api.vip.plans.$get()),
    placeholderData: { plans: PLAN_LIST, durations: [1, 3, 6, 12] },
    staleTime: 60 * 60_000,
  });

/** POST /api/product/{vnpay|momo}: a pending order and the gateway page to send the browser to. */
export function startGatewayPayment(method: Gateway, plan: PlanId, months: number): Promise<GatewayOrderResponse> {
  const json = { plan, months };
  return unwrap(
    authedCall((headers) =>
      method === 'vnpay' ? api.api.product.vnpay.$post({ json }, { headers }) : api.api.product.momo.$post({ json }, { headers }),
    ),
  );
}

/** POST /api/product/bank_transfer: a pending order and the transfer details to show. */
export function startBankTransfer(plan: PlanId, months: number): Promise<BankTransferResponse> {
  return unwrap(authedCall((headers) => api.api.product.bank_transfer.$post({ json: { plan, months } }, { headers })));
}

export const isPaymentMethod = (m: unknown): m is PaymentMethod => m === 'vnpay' || m === 'momo' || m === 'bank_transfer';

/** The bank-transfer answer is kept for this tab, so a reload of its page shows it again without a new order. */
const bankKey = (orderId: string) => `vip-bank-transfer:${orderId}`;
export function rememberBankTransfer(details: BankTransferResponse): void {
  sessionStorage.setItem(bankKey(details.orderId), JSON.stringify(details));
}
export function recallBankTransfer(orderId: string): BankTransferResponse | null {
  try {
    const raw = sessionStorage.getItem(bankKey(orderId));
    return raw ? (JSON.parse(raw) as BankTransferResponse) : null;
  } catch {
    return null;
  }
}

/** GET /api/payment/{gateway}-return with the gateway's query passed through untouched. */
export async function checkPaymentReturn(gateway: Gateway, search: string): Promise<PaymentReturnResponse> {
  const query = Object.fromEntries(new URLSearchParams(search));
  return unwrap(gateway === 'vnpay' ? api.api.payment['vnpay-return'].$get({ query }) : api.api.payment['momo-return'].$get({ query }));
}

/** GET /api/vip/orders/{orderId}; the return page polls it until the IPN has decided. */
export const orderQuery = (orderId: string) =>
  queryOptions({
    queryKey: ['vip', 'order', orderId],
    queryFn: () => unwrap(authedCall((headers) => api.api.vip.orders[':orderId'].$get({ param: { orderId } }, { headers }))),
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 1500 : false),
    retry: false,
  });

/** GET /api/vip/orders: the payment history. */
export const ordersQuery = (userId: string) =>
  queryOptions({
    queryKey: ['vip', 'orders', userId],
    queryFn: async () => (await unwrap(authedCall((headers) => api.api.vip.orders.$get(undefined, { headers })))).orders,
    staleTime: 0,
    retry: false,
  });

/** The subscription part of GET /api/account. */
export const subscriptionQuery = (userId: string) =>
  queryOptions({
    queryKey: ['vip', 'subscription', userId],
    queryFn: async () => {
      const account = await unwrap(authedCall((headers) => api.api.account.$get(undefined, { headers })));
      syncRights(account.roles, account.permissions);
      return account;
    },
    staleTime: 0,
    retry: false,
  });

function syncRights(roles: string[], permissions: string[]) {
  const session = getSession();
  if (session && (session.roles.join(',') !== roles.join(',') || session.permissions.join(',') !== permissions.join(','))) {
    storeRights(roles, permissions);
  }
}

/** After a payment: the session takes the rights the API now applies, so VIP films open at once. */
export async function refreshRights(): Promise<void> {
  const account = await unwrap(authedCall((headers) => api.api.account.$get(undefined, { headers })));
  syncRights(account.roles, account.permissions);
}
