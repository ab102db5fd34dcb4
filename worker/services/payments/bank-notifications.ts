// Bank transfers that confirm themselves (docs/decisions/0403-bank-notifications.md): SePay's webhook
// posts every transaction of the bank account; each is stored raw first (its SePay `id` is unique), then
// matched by the payment code in its note and its amount to a pending order, which is paid through the
// same conditional update as the gateways' IPN. What matches nothing waits for an admin
// ("Giao dịch chưa khớp"), who attaches it to an order or dismisses it, both audited.
import { and, count, desc, eq, notExists, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import { auditLog, bankTransactions, payments, users } from '../../db/schema';
import { timingSafeEqual } from '../../lib/bytes';
import { ApiError, conflict, notFound } from '../../lib/errors';
import {
  type AdminBankTransaction,
  type AdminBankTransactionsResponse,
  type BankTransactionReason,
  type BankTransactionStatus,
  type SepayNotification,
  VIP_TEXTS,
} from '../../schemas/vip';
import { auditInsertWhere } from '../admin/audit';
import { readSettings } from '../admin/settings';
import type { PaymentDeps } from './checkout';
import { type BankEvidence, type Confirmer, findOrder, findOrderByPaymentCode, type OrderRow, payOrder } from './orders';
import { paymentCodeCandidates } from './payment-code';

const encoder = new TextEncoder();

/**
 * SePay's API-key authentication: `Authorization: Apikey <key>`, compared in constant time. No key
 * configured (production without SEPAY_API_KEY): 503, transfers are confirmed by hand.
 */
export function checkSepayKey(config: Config, authorization: string | undefined): void {
  const key = config.SEPAY_API_KEY;
  if (!key) throw new ApiError(503, 'payment_unavailable', VIP_TEXTS.bankNotificationsUnavailable);
  const given = /^apikey\s+(.+)$/i.exec((authorization ?? '').trim())?.[1] ?? '';
  if (!timingSafeEqual(encoder.encode(given.trim()), encoder.encode(key)))
    throw new ApiError(401, 'unauthorized', VIP_TEXTS.bankNotificationKey);
}

/** Account numbers as banks print them: spaces, dots and dashes are not part of the number. */
const accountOf = (value: string | null | undefined) => (value ?? '').replace(/[^0-9A-Za-z]/g, '').toUpperCase();

/** The order's reference for a payment by this notification (kept on the order as providerTxnId). */
const providerTxnIdOf = (providerId: string) => `sepay:${providerId}`;

type Decision = { status: Extract<BankTransactionStatus, 'matched' | 'unmatched' | 'ignored'>; reason: BankTransactionReason | null };

/**
 * POST /api/payment/sepay-webhook after the key and the body were checked: stores the notification, then
 * decides it. A notification already stored and decided changes nothing (SePay retries up to 7 times);
 * one stored but never decided (the process stopped half-way) is decided again, which is safe: paying is
 * conditional and recognises its own earlier payment.
 */
export async function receiveSepayNotification(deps: PaymentDeps, notification: SepayNotification, raw: unknown): Promise<void> {
  const providerId = String(notification.id);
  const [inserted] = await deps.db
    .insert(bankTransactions)
    .values({
      providerId,
      gateway: notification.gateway,
      transactionDate: notification.transactionDate,
      accountNumber: notification.accountNumber,
      code: notification.code,
      content: notification.content,
      transferType: notification.transferType,
      transferAmount: notification.transferAmount,
      referenceCode: notification.referenceCode,
      raw: JSON.stringify(raw),
      status: 'received',
      receivedAt: deps.now(),
    })
    .onConflictDoNothing({ target: bankTransactions.providerId })
    .returning({ id: bankTransactions.id });
  let transactionId = inserted?.id;
  if (transactionId === undefined) {
    const [stored] = await deps.db
      .select({ id: bankTransactions.id, status: bankTransactions.status })
      .from(bankTransactions)
      .where(eq(bankTransactions.providerId, providerId));
    if (stored?.status !== 'received') return;
    transactionId = stored.id;
  }
  await decide(deps, transactionId, notification);
}

async function decide(deps: PaymentDeps, transactionId: number, n: SepayNotification): Promise<void> {
  const record = (decision: Decision, order?: OrderRow, matchedCode?: string) =>
    deps.db
      .update(bankTransactions)
      .set({ ...decision, matchedCode: matchedCode ?? order?.paymentCode ?? null, paymentId: order?.id ?? null })
      .where(and(eq(bankTransactions.id, transactionId), eq(bankTransactions.status, 'received')));

  if (n.transferType !== 'in') return void (await record({ status: 'ignored', reason: 'money_out' }));
  const { bankAccount } = await readSettings(deps.db, deps.config);
  const ours = accountOf(bankAccount);
  if (!ours || (accountOf(n.accountNumber) !== ours && accountOf(n.subAccount) !== ours))
    return void (await record({ status: 'ignored', reason: 'other_account' }));

  const candidates = [...new Set([n.code, n.content, n.description].flatMap((text) => (text ? paymentCodeCandidates(text) : [])))];
  if (candidates.length === 0) return void (await record({ status: 'unmatched', reason: 'no_code' }));
  const order = await findOrderByPaymentCode(deps.db, candidates);
  if (!order) return void (await record({ status: 'unmatched', reason: 'unknown_code' }, undefined, candidates[0]));

  const providerTxnId = providerTxnIdOf(String(n.id));
  const paidByThis = (o: OrderRow | undefined) => o?.status === 'paid' && o.providerTxnId === providerTxnId;
  if (paidByThis(order)) return void (await record({ status: 'matched', reason: null }, order));
  if (order.status !== 'pending') return void (await record({ status: 'unmatched', reason: 'order_not_pending' }, order));
  if (n.transferAmount !== order.amount) return void (await record({ status: 'unmatched', reason: 'amount_mismatch' }, order));

  const bank: BankEvidence = {
    transactionId,
    providerId: String(n.id),
    referenceCode: n.referenceCode,
    gateway: n.gateway,
    amount: n.transferAmount,
  };
  const outcome = { providerTxnId, responseCode: 'sepay', reason: null };
  const result = await payOrder(deps.db, order, outcome, deps.now(), { action: 'order.bank_confirm', bank });
  // Lost a race: either a concurrent delivery of this same notification paid it, or something else did.
  const paid = result === 'paid' || paidByThis(await findOrder(deps.db, order.txnRef));
  await record(paid ? { status: 'matched', reason: null } : { status: 'unmatched', reason: 'order_not_pending' }, order);
}

export const ADMIN_BANK_TRANSACTIONS_PAGE_SIZE = 50;

/** /api/admin/bank-transactions?status=unmatched&page=: the notifications in one state, newest first, with their order. */
export async function listBankTransactions(
  deps: Pick<PaymentDeps, 'db'>,
  input: { status: BankTransactionStatus; page: number },
): Promise<AdminBankTransactionsResponse> {
  const where = eq(bankTransactions.status, input.status);
  const [rows, [total]] = await Promise.all([
    deps.db
      .select({
        tx: bankTransactions,
        orderId: payments.txnRef,
        paymentCode: payments.paymentCode,
        orderAmount: payments.amount,
        orderStatus: payments.status,
        userEmail: users.email,
      })
      .from(bankTransactions)
      .leftJoin(payments, eq(payments.id, bankTransactions.paymentId))
      .leftJoin(users, eq(users.id, payments.userId))
      .where(where)
      .orderBy(desc(bankTransactions.receivedAt), desc(bankTransactions.id))
      .limit(ADMIN_BANK_TRANSACTIONS_PAGE_SIZE)
      .offset((input.page - 1) * ADMIN_BANK_TRANSACTIONS_PAGE_SIZE),
    deps.db.select({ n: count() }).from(bankTransactions).where(where),
  ]);
  const data: AdminBankTransaction[] = rows.map(({ tx, ...o }) => ({
    id: tx.id,
    providerId: tx.providerId,
    gateway: tx.gateway,
    transactionDate: tx.transactionDate,
    accountNumber: tx.accountNumber,
    content: tx.content,
    code: tx.code,
    transferType: tx.transferType,
    amount: tx.transferAmount,
    referenceCode: tx.referenceCode,
    status: tx.status,
    reason: (tx.reason as BankTransactionReason | null) ?? null,
    matchedCode: tx.matchedCode,
    order:
      o.orderId && o.orderAmount !== null && o.orderStatus
        ? { orderId: o.orderId, paymentCode: o.paymentCode, amount: o.orderAmount, status: o.orderStatus, userEmail: o.userEmail ?? '' }
        : null,
    receivedAt: tx.receivedAt,
    resolvedBy: tx.resolvedBy === null && tx.resolvedByEmail === null ? null : { id: tx.resolvedBy, email: tx.resolvedByEmail ?? '' },
    resolvedAt: tx.resolvedAt,
    resolution: tx.resolution,
  }));
  const totalItems = total?.n ?? 0;
  return {
    data,
    pagination: {
      page: input.page,
      pageSize: ADMIN_BANK_TRANSACTIONS_PAGE_SIZE,
      totalItems,
      totalPages: Math.max(1, Math.ceil(totalItems / ADMIN_BANK_TRANSACTIONS_PAGE_SIZE)),
    },
  };
}

async function unmatchedTransaction(deps: Pick<PaymentDeps, 'db'>, id: number) {
  const [tx] = await deps.db.select().from(bankTransactions).where(eq(bankTransactions.id, id));
  if (!tx) throw notFound('id: không tìm thấy giao dịch');
  if (tx.status !== 'unmatched') throw conflict('Giao dịch này đã được xử lý');
  return tx;
}

/**
 * POST /api/admin/bank-transactions/{id}/attach: the admin names the order an unmatched transfer was for
 * (by order id or payment code). The order is paid as the bank would have (an expired one too: the money
 * came), with the admin as author and the notification as evidence (audit `bank_transaction.attach`).
 */
export async function attachBankTransaction(deps: PaymentDeps, id: number, orderRef: string, admin: Confirmer): Promise<OrderRow> {
  const tx = await unmatchedTransaction(deps, id);
  const order = /^[0-9a-f]{32}$/.test(orderRef) ? await findOrder(deps.db, orderRef) : await findOrderByPaymentCode(deps.db, [orderRef]);
  if (!order) throw notFound('orderId: không tìm thấy đơn hàng');
  if (order.method !== 'bank_transfer') throw conflict('Chỉ gắn được vào đơn chuyển khoản ngân hàng');
  if (order.status !== 'pending' && order.status !== 'cancelled') throw conflict('Đơn hàng này đã được xử lý');
  const now = deps.now();
  // Claimed first, so two admins attaching the same transfer to two orders pay one.
  const claimed = await deps.db
    .update(bankTransactions)
    .set({
      status: 'attached',
      paymentId: order.id,
      matchedCode: order.paymentCode,
      resolvedBy: admin.id,
      resolvedByEmail: admin.email,
      resolvedAt: now,
    })
    .where(and(eq(bankTransactions.id, tx.id), eq(bankTransactions.status, 'unmatched')))
    .returning({ id: bankTransactions.id });
  if (claimed.length === 0) throw conflict('Giao dịch này đã được xử lý');
  const bank: BankEvidence = {
    transactionId: tx.id,
    providerId: tx.providerId,
    referenceCode: tx.referenceCode,
    gateway: tx.gateway,
    amount: tx.transferAmount,
  };
  const outcome = { providerTxnId: providerTxnIdOf(tx.providerId), responseCode: 'sepay', reason: null };
  const result = await payOrder(deps.db, order, outcome, now, { action: 'bank_transaction.attach', admin, bank }, { reopen: true });
  if (result === 'not_pending') {
    await deps.db
      .update(bankTransactions)
      .set({
        status: 'unmatched',
        paymentId: tx.paymentId,
        matchedCode: tx.matchedCode,
        resolvedBy: null,
        resolvedByEmail: null,
        resolvedAt: null,
      })
      .where(and(eq(bankTransactions.id, tx.id), eq(bankTransactions.status, 'attached')));
    throw conflict('Đơn hàng này đã được xử lý');
  }
  return order;
}

/** POST /api/admin/bank-transactions/{id}/dismiss: an unmatched transfer set aside with a reason, audited in the same batch. */
export async function dismissBankTransaction(deps: PaymentDeps, id: number, reason: string, admin: Confirmer): Promise<void> {
  const tx = await unmatchedTransaction(deps, id);
  const now = deps.now();
  const target = providerTxnIdOf(tx.providerId);
  const [updated] = await deps.db.batch([
    deps.db
      .update(bankTransactions)
      .set({ status: 'dismissed', resolution: reason, resolvedBy: admin.id, resolvedByEmail: admin.email, resolvedAt: now })
      .where(and(eq(bankTransactions.id, tx.id), eq(bankTransactions.status, 'unmatched')))
      .returning({ id: bankTransactions.id }),
    auditInsertWhere(
      deps.db,
      admin,
      {
        action: 'bank_transaction.dismiss',
        target,
        before: { status: 'unmatched', reason: tx.reason, amount: tx.transferAmount, content: tx.content },
        after: { status: 'dismissed', resolution: reason },
      },
      now,
      bankTransactions,
      and(
        eq(bankTransactions.id, tx.id),
        eq(bankTransactions.status, 'dismissed'),
        notExists(
          deps.db
            .select({ one: sql`1` })
            .from(auditLog)
            .where(and(eq(auditLog.action, 'bank_transaction.dismiss'), eq(auditLog.target, target))),
        ),
      ),
    ),
  ]);
  if (updated.length === 0) throw conflict('Giao dịch này đã được xử lý');
}
