// Reconciliation (docs/decisions/1051): a gateway order still pending 15 minutes after it was created may have been
// paid with its IPN lost (VNPay does not resend one it thinks was answered; a power cut can undo an answered one). The
// scheduler asks the gateway (VNPay querydr, MoMo's v2 query API) and records the answer exactly as an IPN would:
// payOrder / failOrder (services/payments/orders.ts), the one conditional update with its grant, so an IPN arriving
// later, a second run or a concurrent IPN changes nothing more.
import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { payments } from '../../db/schema';
import { hitRateLimit } from '../rate-limit';
import { momoConfig, type PaymentDeps, vnpayConfig } from './checkout';
import { MOMO_PAID_CODES, MOMO_PENDING_CODES, momoQueryEndpoint, momoQueryRequest } from './momo';
import { failOrder, findOrder, type GatewayOutcome, type OrderRow, payOrder } from './orders';
import { randomOrderId } from './signing';
import {
  VNPAY_RESPONSE_TEXTS,
  VNPAY_TRANSACTION_FAILED,
  VNPAY_TRANSACTION_PAID,
  vnpayQueryRequest,
  vnpayVerifyQueryResponse,
} from './vnpay';

/** An order younger than this is left to its IPN (VNPay's payment page itself expires after 15 minutes). */
export const RECONCILE_AFTER_MS = 15 * 60_000;
/** Each order is asked at most once in this window (a pending one is asked again later, until it is cancelled). */
export const RECONCILE_EVERY_MS = 15 * 60_000;
/** Orders asked per run: a backlog is worked through over several ticks. */
export const RECONCILE_BATCH = 20;

export type ReconcileResult = 'paid' | 'failed' | 'pending' | 'unchanged' | 'error';

/** The merchant API querydr goes to: VNPAY_API_URL, else /merchant_webapi/api/transaction on VNPAY_URL's host. */
export function vnpayApiUrl(deps: Pick<PaymentDeps, 'config'>): string | null {
  const { VNPAY_API_URL, VNPAY_URL } = deps.config;
  if (VNPAY_API_URL) return VNPAY_API_URL;
  return VNPAY_URL ? new URL('/merchant_webapi/api/transaction', VNPAY_URL).toString() : null;
}

async function postJson(deps: PaymentDeps, url: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await deps.fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=UTF-8' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const answer: unknown = await res.json();
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) throw new Error('answer is not a JSON object');
  return answer as Record<string, unknown>;
}

const settle = async (deps: PaymentDeps, order: OrderRow, paid: boolean, outcome: GatewayOutcome): Promise<ReconcileResult> => {
  const done = paid ? await payOrder(deps.db, order, outcome, deps.now()) : await failOrder(deps.db, order, outcome);
  if (done === 'not_pending') return 'unchanged';
  return paid ? 'paid' : 'failed';
};

/** Asks VNPay (querydr) about one order and settles it when the answer is final. */
export async function reconcileVnpay(deps: PaymentDeps, order: OrderRow): Promise<ReconcileResult> {
  const config = vnpayConfig(deps.config);
  const url = vnpayApiUrl(deps);
  if (!config || !url) return 'error';
  const request = await vnpayQueryRequest(config, {
    requestId: randomOrderId(),
    txnRef: order.txnRef,
    transactionAt: order.createdAt,
    ipAddr: '127.0.0.1',
    orderInfo: `Truy van don ${order.txnRef}`,
    now: deps.now(),
  });
  const answer = await postJson(deps, url, request);
  const s = (k: string) => (answer[k] === undefined || answer[k] === null ? '' : String(answer[k]));
  if (!(await vnpayVerifyQueryResponse(config.hashSecret, answer))) throw new Error('querydr answer: invalid vnp_SecureHash');
  // 00: the query itself succeeded; 91 (not found), 94 (duplicate request) and the others settle nothing.
  if (s('vnp_ResponseCode') !== '00') return 'pending';
  if (s('vnp_TmnCode') !== config.tmnCode || s('vnp_TxnRef') !== order.txnRef) throw new Error('querydr answer: another order');
  if (s('vnp_Amount') !== String(order.amount * 100)) throw new Error('querydr answer: amount differs from the order');
  const status = s('vnp_TransactionStatus');
  if (status !== VNPAY_TRANSACTION_PAID && status !== VNPAY_TRANSACTION_FAILED) return 'pending';
  const paid = status === VNPAY_TRANSACTION_PAID;
  return settle(deps, order, paid, {
    providerTxnId: s('vnp_TransactionNo') && s('vnp_TransactionNo') !== '0' ? s('vnp_TransactionNo') : null,
    responseCode: status,
    reason: paid ? null : (VNPAY_RESPONSE_TEXTS[status] ?? 'Giao dịch không thành công'),
    raw: JSON.stringify(answer),
  });
}

/** Asks MoMo (v2 query) about one order and settles it when the answer is final. */
export async function reconcileMomo(deps: PaymentDeps, order: OrderRow): Promise<ReconcileResult> {
  const config = momoConfig(deps.config);
  if (!config) return 'error';
  const request = await momoQueryRequest(config, { orderId: order.txnRef, requestId: randomOrderId() });
  const answer = await postJson(deps, momoQueryEndpoint(config.endpoint), request);
  if (String(answer.partnerCode) !== config.partnerCode || String(answer.orderId) !== order.txnRef)
    throw new Error('MoMo query answer: another order');
  const code = Number(answer.resultCode);
  if (!Number.isInteger(code) || MOMO_PENDING_CODES.has(code)) return 'pending';
  const paid = MOMO_PAID_CODES.has(code);
  if (paid && Number(answer.amount) !== order.amount) throw new Error('MoMo query answer: amount differs from the order');
  return settle(deps, order, paid, {
    providerTxnId: answer.transId !== undefined && String(answer.transId) !== '0' ? String(answer.transId) : null,
    responseCode: String(code),
    reason: paid ? null : (typeof answer.message === 'string' && answer.message) || `Mã lỗi ${code}`,
    raw: JSON.stringify(answer),
  });
}

/**
 * One reconciliation run: the oldest gateway orders pending for at least RECONCILE_AFTER_MS, each asked at most once
 * per RECONCILE_EVERY_MS (a key in rate_limits). One order's failure (network, a bad signature) is logged and the
 * others go on. Answers what happened to each order asked.
 */
export async function reconcilePendingOrders(deps: PaymentDeps, now: number): Promise<Record<ReconcileResult, number>> {
  const counts: Record<ReconcileResult, number> = { paid: 0, failed: 0, pending: 0, unchanged: 0, error: 0 };
  const due = await deps.db
    .select({ txnRef: payments.txnRef })
    .from(payments)
    .where(
      and(eq(payments.status, 'pending'), inArray(payments.gateway, ['vnpay', 'momo']), lte(payments.createdAt, now - RECONCILE_AFTER_MS)),
    )
    .orderBy(asc(payments.createdAt), asc(payments.id))
    .limit(RECONCILE_BATCH * 3);
  let asked = 0;
  for (const { txnRef } of due) {
    if (asked >= RECONCILE_BATCH) break;
    const turn = await hitRateLimit(deps.db, { key: `reconcile:order:${txnRef}`, limit: 1, windowMs: RECONCILE_EVERY_MS }, now);
    if (!turn.allowed) continue;
    asked += 1;
    const order = await findOrder(deps.db, txnRef);
    if (order?.status !== 'pending') continue;
    try {
      counts[order.method === 'vnpay' ? await reconcileVnpay(deps, order) : await reconcileMomo(deps, order)] += 1;
    } catch (err) {
      console.error(`[payments] reconciling ${order.method} order ${txnRef} failed`, err);
      counts.error += 1;
    }
  }
  return counts;
}
