// Orders (the payments table) and the subscriptions they grant. Every state change of an order is one
// conditional update `where status = 'pending'`, in the same batch (one transaction) as the grant, so a
// replayed or concurrent duplicate callback changes nothing (docs/decisions/0400-payments.md).
import { and, count, desc, eq, gt, inArray, lte, max, ne, notExists, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { auditLog, mailOutbox, payments, subscriptions, users } from '../../db/schema';
import {
  ORDER_STATUSES,
  orderAmount,
  PLANS,
  type AdminOrder,
  type Order,
  type OrderStatus,
  type PaymentMethod,
  type PlanId,
  type Subscription,
  VIP_TEXTS,
} from '../../schemas/vip';
import { auditInsertWhere } from '../admin/audit';
import { enforceRateLimits, RATE_LIMITS } from '../rate-limit';
import { randomPaymentCode } from './payment-code';
import { randomOrderId } from './signing';

const GMT7_MS = 7 * 60 * 60 * 1000;

/**
 * `months` calendar months after `ms` on the Vietnamese wall clock (GMT+7, no DST); a day that does not
 * exist in the target month is clamped to its last day (31 Jan + 1 month = 28/29 Feb).
 */
export function addMonths(ms: number, months: number): number {
  const local = new Date(ms + GMT7_MS);
  const day = local.getUTCDate();
  const target = new Date(local);
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.getTime() - GMT7_MS;
}

/** The query behind activeSubscriptions, for callers that batch it with their own (the viewer load). */
export function activeSubscriptionsQuery(db: Db, userId: number, now: number) {
  return db
    .select({ plan: subscriptions.plan, expiresAt: max(subscriptions.expiresAt) })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), gt(subscriptions.expiresAt, now)))
    .groupBy(subscriptions.plan);
}

/** Rows of activeSubscriptionsQuery as subscriptions, highest plan first. */
export function toSubscriptions(rows: { plan: PlanId; expiresAt: number | null }[]): Subscription[] {
  return rows
    .filter((r): r is Subscription => r.expiresAt !== null)
    .sort((a, b) => PLANS[b.plan].monthlyPrice - PLANS[a.plan].monthlyPrice);
}

/** The latest expiry of each plan the user holds right now (expired ones left out). */
export async function activeSubscriptions(db: Db, userId: number, now: number): Promise<Subscription[]> {
  return toSubscriptions(await activeSubscriptionsQuery(db, userId, now));
}

/**
 * Effective permissions = those an admin granted ∪ the plans of active subscriptions, with what each
 * plan includes (VIP2 → VIP1 too).
 */
export function withPlans(granted: string[], active: Subscription[]): string[] {
  const permissions = new Set(granted);
  for (const s of active) {
    permissions.add(s.plan);
    for (const included of PLANS[s.plan].includes) permissions.add(included);
  }
  return [...permissions];
}

export interface OrderRow {
  id: number;
  /** Null once the member was erased (the order is kept without the person, docs/decisions/1041). */
  userId: number | null;
  txnRef: string;
  plan: PlanId;
  months: number;
  amount: number;
  method: PaymentMethod;
  status: OrderStatus;
  providerTxnId: string | null;
  providerPayload: string | null;
  createdAt: number;
  paidAt: number | null;
  confirmedBy: number | null;
  confirmedByEmail: string | null;
  paymentCode: string | null;
}

const orderColumns = {
  id: payments.id,
  userId: payments.userId,
  txnRef: payments.txnRef,
  plan: payments.plan,
  months: payments.months,
  amount: payments.amount,
  method: payments.gateway,
  status: payments.status,
  providerTxnId: payments.providerTxnId,
  providerPayload: payments.providerPayload,
  createdAt: payments.createdAt,
  paidAt: payments.paidAt,
  confirmedBy: payments.confirmedBy,
  confirmedByEmail: payments.confirmedByEmail,
  paymentCode: payments.paymentCode,
};

export async function findOrder(db: Db, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await db.select(orderColumns).from(payments).where(eq(payments.txnRef, orderId)).limit(1);
  return row;
}

/** The order whose bank-transfer payment code is one of `codes` (they are unique), if any. */
export async function findOrderByPaymentCode(db: Db, codes: string[]): Promise<OrderRow | undefined> {
  if (codes.length === 0) return undefined;
  const rows = await db.select(orderColumns).from(payments).where(inArray(payments.paymentCode, codes));
  // The first candidate in the note that names an order wins.
  return codes.map((code) => rows.find((r) => r.paymentCode === code)).find((r) => r !== undefined);
}

/**
 * A pending order priced on the server; its id is random and is the gateway's reference. A bank transfer
 * also gets a random payment code for its note, drawn again on the rare clash with another order's. Each
 * buyer may open RATE_LIMITS.orderPerUser orders per window: every order is a row kept for the history.
 */
export async function createOrder(
  db: Db,
  input: { userId: number; plan: PlanId; months: number; method: PaymentMethod; now: number },
): Promise<OrderRow> {
  await enforceRateLimits(db, [{ key: `order:user:${input.userId}`, ...RATE_LIMITS.orderPerUser }], input.now, VIP_TEXTS.tooManyOrders);
  for (let attempt = 0; ; attempt++) {
    try {
      const [row] = await db
        .insert(payments)
        .values({
          userId: input.userId,
          plan: input.plan,
          months: input.months,
          amount: orderAmount(input.plan, input.months),
          gateway: input.method,
          txnRef: randomOrderId(),
          status: 'pending',
          createdAt: input.now,
          paymentCode: input.method === 'bank_transfer' ? randomPaymentCode() : null,
        })
        .returning(orderColumns);
      if (!row) throw new Error('order insert returned nothing');
      return row;
    } catch (err) {
      if (attempt >= 4 || !isUniqueViolation(err)) throw err;
    }
  }
}

/** What the gateway said, kept with the order (transaction number and the reason shown on failure). */
export interface GatewayOutcome {
  providerTxnId: string | null;
  responseCode: string;
  reason: string | null;
  /**
   * What the gateway sent, as it arrived (an IPN's parameters, a query's answer): kept in payments.gateway_raw,
   * not in provider_payload (docs/decisions/1051).
   */
  raw?: string;
}

/** provider_payload (the outcome without the raw message) and gateway_raw, for an order's update. */
function outcomeColumns({ raw, ...outcome }: GatewayOutcome) {
  return {
    providerTxnId: outcome.providerTxnId,
    providerPayload: JSON.stringify(outcome),
    ...(raw === undefined ? {} : { gatewayRaw: raw }),
  };
}

/** The admin who confirms a bank transfer: kept on the order and in the audit log, with the grant. */
export interface Confirmer {
  id: number;
  email: string;
}

/** The bank notification that proves a transfer (SePay's `id` and the bank's `referenceCode`). */
export interface BankEvidence {
  transactionId: number;
  providerId: string;
  referenceCode: string;
  gateway: string;
  amount: number;
}

/**
 * Who paid a bank-transfer order, for its audit row: an admin by hand (`order.confirm`), the bank's
 * notification (`order.bank_confirm`, no admin), or an admin attaching an unmatched notification
 * (`bank_transaction.attach`, both).
 */
export type PaymentAuthor =
  | { action: 'order.confirm'; admin: Confirmer }
  | { action: 'order.bank_confirm'; bank: BankEvidence }
  | { action: 'bank_transaction.attach'; admin: Confirmer; bank: BankEvidence };

const PAYMENT_AUDIT_ACTIONS = ['order.confirm', 'order.bank_confirm', 'bank_transaction.attach'];

/**
 * Pays a pending order and grants its plan until max(now, current expiry of that plan) + months, as one
 * batch: the conditional update, then an insert that only happens for a paid order without a grant yet.
 * The update also checks that the plan's expiry is still the one the new expiry was computed from, so
 * two different orders of the same plan paid at once both extend it; on such a race it reads again.
 * `reopen` also takes a cancelled (expired) order: an admin attaching a transfer that came late.
 * Answers 'paid' when this call paid it, 'not_pending' when it was already decided.
 */
export async function payOrder(
  db: Db,
  order: OrderRow,
  outcome: GatewayOutcome,
  now: number,
  author?: PaymentAuthor,
  options: { reopen?: boolean } = {},
): Promise<'paid' | 'not_pending'> {
  // An erased member's order is kept without the person (docs/decisions/1041): there is no one to grant a plan to.
  const userId = order.userId;
  if (userId === null) return 'not_pending';
  const payable: OrderStatus[] = options.reopen ? ['pending', 'cancelled'] : ['pending'];
  const admin = author && 'admin' in author ? author.admin : undefined;
  const currentExpiry = sql<number>`coalesce((select max(${subscriptions.expiresAt}) from ${subscriptions} where ${subscriptions.userId} = ${userId} and ${subscriptions.plan} = ${order.plan}), 0)`;
  for (let attempt = 0; attempt < 8; attempt++) {
    const [snapshot] = await db
      .select({ expiresAt: max(subscriptions.expiresAt) })
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), eq(subscriptions.plan, order.plan)));
    const current = snapshot?.expiresAt ?? 0;
    const startsAt = Math.max(now, current);
    const expiresAt = addMonths(startsAt, order.months);
    const [updated] = await db.batch([
      db
        .update(payments)
        .set({
          status: 'paid',
          paidAt: now,
          ...outcomeColumns(outcome),
          ...(admin ? { confirmedBy: admin.id, confirmedByEmail: admin.email } : {}),
        })
        .where(and(eq(payments.id, order.id), inArray(payments.status, payable), sql`${currentExpiry} = ${current}`))
        .returning({ id: payments.id }),
      db.insert(subscriptions).select(
        db
          .select({
            id: sql<null>`null`.as('id'),
            userId: payments.userId,
            plan: payments.plan,
            paymentId: payments.id,
            startsAt: sql<number>`${startsAt}`.as('starts_at'),
            expiresAt: sql<number>`${expiresAt}`.as('expires_at'),
            createdAt: sql<number>`${now}`.as('created_at'),
          })
          .from(payments)
          .where(
            and(
              eq(payments.id, order.id),
              eq(payments.status, 'paid'),
              notExists(db.select({ one: sql`1` }).from(subscriptions).where(eq(subscriptions.paymentId, order.id))),
            ),
          ),
      ),
      // The audit row of who paid it, written only if this batch's update paid it.
      ...(author ? [paymentAudit(db, order, outcome, author, { startsAt, expiresAt }, now)] : []),
      // The receipt mail, likewise only if this batch paid it (and one per order, ever).
      receiptMail(db, order, outcome, expiresAt, now),
    ]);
    if (updated.length > 0) return 'paid';
    const fresh = await findOrder(db, order.txnRef);
    if (!fresh || !payable.includes(fresh.status)) return 'not_pending';
  }
  throw new Error(`order ${order.txnRef}: the plan's expiry kept changing`);
}

/**
 * The receipt of a payment in the mail outbox (services/mail/outbox.ts; plan, amount, method, order code, new
 * expiry), inserted only when the order is paid by this very batch (its paid time and transaction are this
 * outcome's) and with the order's dedupe key, so a replayed IPN or a concurrent duplicate mails nothing more.
 * The address and name are read from the account in the same statement.
 */
function receiptMail(db: Db, order: OrderRow, outcome: GatewayOutcome, expiresAt: number, now: number) {
  const params = JSON.stringify({
    plan: order.plan,
    months: order.months,
    amount: order.amount,
    method: order.method,
    orderId: order.txnRef,
    paymentCode: order.paymentCode,
    expiresAt,
    paidAt: now,
  });
  return db
    .insert(mailOutbox)
    .select(
      db
        .select({
          id: sql<null>`null`.as('id'),
          kind: sql<string>`'receipt'`.as('kind'),
          toAddress: users.email,
          userId: users.id,
          payload: sql<string>`json_set(${params}, '$.name', ${users.username})`.as('payload'),
          dedupeKey: sql<string>`${`receipt:${order.txnRef}`}`.as('dedupe_key'),
          status: sql<'pending'>`'pending'`.as('status'),
          attempts: sql<number>`0`.as('attempts'),
          nextAttemptAt: sql<number>`${now}`.as('next_attempt_at'),
          leaseUntil: sql<null>`null`.as('lease_until'),
          lastError: sql<null>`null`.as('last_error'),
          createdAt: sql<number>`${now}`.as('created_at'),
          sentAt: sql<null>`null`.as('sent_at'),
        })
        .from(payments)
        .innerJoin(users, eq(users.id, payments.userId))
        .where(
          and(
            eq(payments.id, order.id),
            eq(payments.status, 'paid'),
            eq(payments.paidAt, now),
            outcome.providerTxnId === null ? undefined : eq(payments.providerTxnId, outcome.providerTxnId),
          ),
        ),
    )
    .onConflictDoNothing();
}

/**
 * The audit row of a payment, inserted only when the order is paid by this outcome and has no payment
 * audit yet: a concurrent duplicate whose update changed nothing writes none.
 */
function paymentAudit(
  db: Db,
  order: OrderRow,
  outcome: GatewayOutcome,
  author: PaymentAuthor,
  grant: { startsAt: number; expiresAt: number },
  now: number,
) {
  const admin = 'admin' in author ? author.admin : null;
  const bank = 'bank' in author ? author.bank : null;
  const after = {
    status: 'paid',
    amount: order.amount,
    plan: order.plan,
    months: order.months,
    userId: order.userId,
    ...(order.paymentCode ? { paymentCode: order.paymentCode } : {}),
    confirmedBy: admin ? admin.email : 'SePay',
    ...(bank
      ? {
          bankNotification: {
            id: bank.providerId,
            referenceCode: bank.referenceCode,
            gateway: bank.gateway,
            amount: bank.amount,
            transaction: bank.transactionId,
          },
        }
      : {}),
    grantedFrom: grant.startsAt,
    grantedUntil: grant.expiresAt,
  };
  // The bank notification is its own author: no account, its SePay id in place of an email.
  const actor = admin ?? { id: null, email: `sepay:${bank?.providerId ?? ''}` };
  return auditInsertWhere(
    db,
    actor,
    { action: author.action, target: order.txnRef, before: { status: order.status }, after },
    now,
    payments,
    and(
      eq(payments.id, order.id),
      eq(payments.status, 'paid'),
      outcome.providerTxnId === null ? undefined : eq(payments.providerTxnId, outcome.providerTxnId),
      notExists(
        db
          .select({ one: sql`1` })
          .from(auditLog)
          .where(and(eq(auditLog.target, order.txnRef), inArray(auditLog.action, PAYMENT_AUDIT_ACTIONS))),
      ),
    ),
  );
}

/** Marks a pending order failed (or cancelled); 'not_pending' when it was already decided. */
export async function failOrder(
  db: Db,
  order: OrderRow,
  outcome: GatewayOutcome,
  status: 'failed' | 'cancelled' = 'failed',
): Promise<'failed' | 'not_pending'> {
  const updated = await db
    .update(payments)
    .set({ status, ...outcomeColumns(outcome) })
    .where(and(eq(payments.id, order.id), eq(payments.status, 'pending')))
    .returning({ id: payments.id });
  return updated.length > 0 ? 'failed' : 'not_pending';
}

/**
 * How long an unpaid order stays open. A gateway's payment page expires long before (VNPay after 15
 * minutes, MoMo's default is 100) and a late IPN for a cancelled order is answered "already confirmed",
 * so a day leaves a wide margin; a bank transfer is made by a person and checked by an admin, so a week.
 */
export const PENDING_ORDER_LIFETIME = {
  gateway: 24 * 60 * 60_000,
  bankTransfer: 7 * 24 * 60 * 60_000,
} as const;

export const STALE_ORDER_REASON = 'Đơn hàng đã hết hạn thanh toán';

/** Cancels the pending orders older than their lifetime in one conditional update; answers how many. */
export async function cancelStaleOrders(db: Db, now: number): Promise<number> {
  const cancelled = await db
    .update(payments)
    .set({ status: 'cancelled', providerPayload: JSON.stringify({ providerTxnId: null, reason: STALE_ORDER_REASON }) })
    .where(
      and(
        eq(payments.status, 'pending'),
        or(
          and(ne(payments.gateway, 'bank_transfer'), lte(payments.createdAt, now - PENDING_ORDER_LIFETIME.gateway)),
          and(eq(payments.gateway, 'bank_transfer'), lte(payments.createdAt, now - PENDING_ORDER_LIFETIME.bankTransfer)),
        ),
      ),
    )
    .returning({ id: payments.id });
  return cancelled.length;
}

function reasonOf(row: OrderRow): string | null {
  if (row.status !== 'failed' && row.status !== 'cancelled') return null;
  try {
    return (JSON.parse(row.providerPayload ?? '{}') as Partial<GatewayOutcome>).reason ?? null;
  } catch {
    return null;
  }
}

function toOrder(row: OrderRow, expiries: Map<PlanId, number>): Order {
  return {
    orderId: row.txnRef,
    plan: row.plan,
    months: row.months,
    amount: row.amount,
    method: row.method,
    status: row.status,
    transactionNo: row.providerTxnId,
    reason: reasonOf(row),
    paymentCode: row.paymentCode,
    createdAt: row.createdAt,
    paidAt: row.paidAt,
    expiresAt: row.status === 'paid' ? (expiries.get(row.plan) ?? null) : null,
  };
}

async function expiriesOf(db: Db, userId: number, now: number): Promise<Map<PlanId, number>> {
  return new Map((await activeSubscriptions(db, userId, now)).map((s) => [s.plan, s.expiresAt]));
}

/** The user's orders, newest first (payment history). */
export async function listOrders(db: Db, userId: number, now: number): Promise<Order[]> {
  const rows = await db
    .select(orderColumns)
    .from(payments)
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(100);
  const expiries = await expiriesOf(db, userId, now);
  return rows.map((row) => toOrder(row, expiries));
}

/** One of the user's orders; undefined when it does not exist or belongs to someone else. */
export async function getOwnOrder(db: Db, userId: number, orderId: string, now: number): Promise<Order | undefined> {
  const row = await findOrder(db, orderId);
  if (!row || row.userId !== userId) return undefined;
  return toOrder(row, await expiriesOf(db, userId, now));
}

export const ADMIN_ORDERS_PAGE_SIZE = 50;

/** Admin list: every order with its user, newest first, filtered by method and status, paged on the server. */
export async function listAllOrders(
  db: Db,
  input: { status?: OrderStatus; method?: PaymentMethod; page: number; now: number },
): Promise<{ data: AdminOrder[]; pagination: { page: number; pageSize: number; totalItems: number; totalPages: number } }> {
  const where = and(
    input.status ? eq(payments.status, input.status) : undefined,
    input.method ? eq(payments.gateway, input.method) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        ...orderColumns,
        userEmail: sql<string>`coalesce(${users.email}, '')`,
        userName: sql<string>`coalesce(${users.username}, '')`,
      })
      .from(payments)
      .leftJoin(users, eq(users.id, payments.userId))
      .where(where)
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(ADMIN_ORDERS_PAGE_SIZE)
      .offset((input.page - 1) * ADMIN_ORDERS_PAGE_SIZE),
    db.select({ n: count() }).from(payments).where(where),
  ]);
  const data: AdminOrder[] = [];
  for (const row of rows) {
    const expiries = row.status === 'paid' && row.userId !== null ? await expiriesOf(db, row.userId, input.now) : new Map();
    data.push({
      ...toOrder(row, expiries),
      userId: row.userId,
      userEmail: row.userEmail,
      userName: row.userName,
      confirmedBy:
        row.confirmedBy === null && row.confirmedByEmail === null ? null : { id: row.confirmedBy, email: row.confirmedByEmail ?? '' },
      confirmable: row.method === 'bank_transfer' && row.status === 'pending',
    });
  }
  const totalItems = total?.n ?? 0;
  return {
    data,
    pagination: {
      page: input.page,
      pageSize: ADMIN_ORDERS_PAGE_SIZE,
      totalItems,
      totalPages: Math.max(1, Math.ceil(totalItems / ADMIN_ORDERS_PAGE_SIZE)),
    },
  };
}

export const isOrderStatus = (s: string): s is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(s);
