// Data-subject requests sent through the privacy page's form (correct, restrict, object, withdraw consent, other):
// each is acknowledged within 2 working days and settled within the legal deadline (docs/decisions/1052). The back
// office moves it mới → đã xác nhận → đã xử lý, each step one conditional update with its audit row.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { privacyRequests } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../lib/errors';
import {
  ACKNOWLEDGE_WORKING_DAYS,
  type AdminPrivacyRequest,
  type PrivacyRequestInput,
  type PrivacyRequestReceipt,
  type PrivacyRequestStatus,
  SETTLE_DAYS,
} from '../../schemas/privacy';
import { DAY_MS } from '../../schemas/retention';
import { type Actor, auditInsertWhere } from '../admin/audit';
import { enforceRateLimits } from '../rate-limit';

const GMT7_MS = 7 * 60 * 60 * 1000;

/**
 * The end (23:59:59.999, Vietnamese time) of the `n`-th working day after the day `ms` falls on: Saturdays and
 * Sundays do not count. Public holidays are not known to the product and count as working days (the earlier date).
 */
export function workingDaysAfter(ms: number, n: number): number {
  const local = new Date(ms + GMT7_MS);
  let day = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate());
  let counted = 0;
  while (counted < n) {
    day += DAY_MS;
    const weekday = new Date(day).getUTCDay();
    if (weekday !== 0 && weekday !== 6) counted += 1;
  }
  return day + DAY_MS - 1 - GMT7_MS;
}

/** The legal deadline: `SETTLE_DAYS` calendar days after the request arrived. */
export const settleDeadline = (ms: number): number => ms + SETTLE_DAYS * DAY_MS;

/** Requests from one network or one account per hour: each is a row an operator must read. */
const PER_HOUR = { limit: 5, windowMs: 60 * 60_000 };

export async function createPrivacyRequest(
  db: Db,
  input: PrivacyRequestInput & { viewer: { id: number; email: string } | null; ip: string },
  now: number,
): Promise<PrivacyRequestReceipt> {
  const email = input.viewer?.email ?? input.email ?? '';
  if (!email) throw badRequest('email', 'is required');
  await enforceRateLimits(db, [{ key: input.viewer ? `privacy:user:${input.viewer.id}` : `privacy:ip:${input.ip}`, ...PER_HOUR }], now);
  const acknowledgeBy = workingDaysAfter(now, ACKNOWLEDGE_WORKING_DAYS);
  const dueAt = settleDeadline(now);
  const [row] = await db
    .insert(privacyRequests)
    .values({
      userId: input.viewer?.id ?? null,
      email: email.toLowerCase(),
      kind: input.kind,
      message: input.message,
      status: 'new',
      createdAt: now,
      acknowledgeBy,
      dueAt,
    })
    .returning({ id: privacyRequests.id });
  return { id: row!.id, acknowledgeBy, dueAt };
}

/** The back office's list: open requests first (oldest deadline first), then the settled ones, newest first. */
export async function listPrivacyRequests(db: Db): Promise<AdminPrivacyRequest[]> {
  const rows = await db.select().from(privacyRequests).orderBy(desc(privacyRequests.createdAt), desc(privacyRequests.id)).limit(500);
  const open = rows.filter((r) => r.status !== 'done').sort((a, b) => a.acknowledgeBy - b.acknowledgeBy || a.id - b.id);
  return [...open, ...rows.filter((r) => r.status === 'done')];
}

const FROM: Record<'acknowledged' | 'done', PrivacyRequestStatus[]> = { acknowledged: ['new'], done: ['new', 'acknowledged'] };

/** Moves a request forward, with its audit row, in one batch; a step already taken is a 409. */
export async function setPrivacyRequestStatus(
  db: Db,
  actor: Actor,
  id: number,
  status: 'acknowledged' | 'done',
  now: number,
): Promise<AdminPrivacyRequest> {
  const [before] = await db.select().from(privacyRequests).where(eq(privacyRequests.id, id)).limit(1);
  if (!before) throw notFound('Không tìm thấy yêu cầu');
  const set =
    status === 'acknowledged' ? { status, acknowledgedAt: now } : { status, doneAt: now, acknowledgedAt: before.acknowledgedAt ?? now };
  const [[updated]] = await db.batch([
    db
      .update(privacyRequests)
      .set(set)
      .where(and(eq(privacyRequests.id, id), inArray(privacyRequests.status, FROM[status])))
      .returning(),
    // Written only when the update just before it in this batch moved it: changes() counts that statement's rows
    // (a repeated tap, even within the same millisecond, writes no second row).
    auditInsertWhere(
      db,
      actor,
      {
        action: `privacy_request.${status === 'acknowledged' ? 'acknowledge' : 'done'}`,
        target: String(id),
        before: { status: before.status },
        after: { status, email: before.email, kind: before.kind },
      },
      now,
      privacyRequests,
      and(eq(privacyRequests.id, id), eq(privacyRequests.status, status), sql`changes() = 1`),
    ),
  ]);
  if (!updated) throw conflict('Yêu cầu này đã được xử lý');
  return updated;
}
