// Money in erasure and export (docs/decisions/1041, docs/export-format.md). Accounting law keeps orders, gateway
// ids and bank notifications 10 years after the end of their fiscal year: an erased member's orders,
// subscriptions and payment audit entries stay, without the person (no user id, email or name), and the
// scheduler deletes them once that time is over (pruneErasedMoney).
import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditLog, bankTransactions, payments, subscriptions } from '../../db/schema';
import type { EraseStep, ExportSection } from '../../lib/duties';

/** Years money records are kept after the end of their fiscal year (Law on Accounting 2015, Art. 41). */
export const MONEY_RETENTION_YEARS = 10;
const VIETNAM_OFFSET_MS = 7 * 60 * 60 * 1000;

/** Records created before this instant have been kept their 10 years (the fiscal year is the calendar year, Vietnam time). */
export function moneyRetentionCutoff(now: number): number {
  const year = new Date(now + VIETNAM_OFFSET_MS).getUTCFullYear();
  return Date.UTC(year - MONEY_RETENTION_YEARS, 0, 1) - VIETNAM_OFFSET_MS;
}

export const detachMoney: EraseStep = {
  name: 'money',
  async erase(tx, member) {
    // An unpaid order is cancelled: a late IPN then pays nothing to nobody (payOrder refuses an order without a member).
    await tx
      .update(payments)
      .set({ status: 'cancelled' })
      .where(and(eq(payments.userId, member.id), eq(payments.status, 'pending')));
    const refs = tx.select({ ref: payments.txnRef }).from(payments).where(eq(payments.userId, member.id));
    // The payment audit entries name the member by id in their 'after' JSON.
    await tx
      .update(auditLog)
      .set({ after: sql`json_remove(${auditLog.after}, '$.userId')` })
      .where(and(inArray(auditLog.target, refs), sql`json_valid(${auditLog.after})`));
    await tx.update(payments).set({ userId: null }).where(eq(payments.userId, member.id));
    await tx.update(subscriptions).set({ userId: null }).where(eq(subscriptions.userId, member.id));
    // A member who was an admin: the confirmations they wrote keep no address.
    await tx.update(payments).set({ confirmedByEmail: '' }).where(eq(payments.confirmedByEmail, member.email));
    await tx.update(bankTransactions).set({ resolvedByEmail: '' }).where(eq(bankTransactions.resolvedByEmail, member.email));
  },
};

/**
 * Erased members' money records past their 10 years: payments without a member, the subscriptions and bank
 * notifications tied to them (or to no order), and their audit entries. Returns how many orders went.
 */
export async function pruneErasedMoney(db: Db, now: number): Promise<number> {
  const cutoff = moneyRetentionCutoff(now);
  const old = and(isNull(payments.userId), lt(payments.createdAt, cutoff));
  const ids = db.select({ id: payments.id }).from(payments).where(old);
  const refs = db.select({ ref: payments.txnRef }).from(payments).where(old);
  const [, , , , gone] = await db.batch([
    db
      .delete(subscriptions)
      .where(or(inArray(subscriptions.paymentId, ids), and(isNull(subscriptions.userId), lt(subscriptions.createdAt, cutoff)))),
    db
      .delete(bankTransactions)
      .where(
        and(lt(bankTransactions.receivedAt, cutoff), or(isNull(bankTransactions.paymentId), inArray(bankTransactions.paymentId, ids))),
      ),
    db.delete(auditLog).where(inArray(auditLog.target, refs)),
    db.update(bankTransactions).set({ paymentId: null }).where(inArray(bankTransactions.paymentId, ids)),
    db.delete(payments).where(old).returning({ id: payments.id }),
  ]);
  return gone.length;
}

/** Orders (no gateway payload) and the plan periods they granted. */
export const exportOrders: ExportSection = {
  key: 'orders',
  read: (db, userId) =>
    db
      .select({
        id: payments.txnRef,
        plan: payments.plan,
        months: payments.months,
        amount: payments.amount,
        method: payments.gateway,
        status: payments.status,
        paymentCode: payments.paymentCode,
        createdAt: payments.createdAt,
        paidAt: payments.paidAt,
      })
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(asc(payments.createdAt), asc(payments.id)),
};

export const exportSubscriptions: ExportSection = {
  key: 'subscriptions',
  read: (db, userId) =>
    db
      .select({ plan: subscriptions.plan, startsAt: subscriptions.startsAt, expiresAt: subscriptions.expiresAt })
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId))
      .orderBy(asc(subscriptions.startsAt), asc(subscriptions.id)),
};
