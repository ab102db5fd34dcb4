// "Gói VIP sắp hết hạn": three days before a plan runs out, a mail, and a Web Push to the member's devices
// where they allowed notifications; once per subscription period (the plan's expiry is part of the key, so a
// renewal starts a new period), from the scheduler (docs/decisions/0980).
import { gt, inArray, max } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { mailOutbox, pushSubscriptions, subscriptions, users } from '../../db/schema';
import type { AppDeps } from '../../lib/context';
import { PLANS, type PlanId } from '../../schemas/vip';
import { outboxInsert, outboxRow } from '../mail/outbox';
import { formatVietnamTime } from '../mail/templates';
import { sendBatch } from '../push/notifier';
import { splitList } from '../auth/viewer';

export const REMINDER_LEAD_MS = 3 * 24 * 60 * 60 * 1000;

interface Due {
  userId: number;
  plan: PlanId;
  expiresAt: number;
  email: string;
  name: string;
}

/** Members whose plan (its latest expiry) runs out within three days, and who keep no other right to it. */
async function dueReminders(db: Db, now: number): Promise<Due[]> {
  const latest = await db
    .select({ userId: subscriptions.userId, plan: subscriptions.plan, expiresAt: max(subscriptions.expiresAt) })
    .from(subscriptions)
    .where(gt(subscriptions.expiresAt, now))
    .groupBy(subscriptions.userId, subscriptions.plan);
  const soon = latest.filter(
    (row): row is typeof row & { userId: number; expiresAt: number } =>
      row.userId !== null && row.expiresAt !== null && row.expiresAt <= now + REMINDER_LEAD_MS,
  );
  if (soon.length === 0) return [];
  const people = await db
    .select({ id: users.id, email: users.email, name: users.username, permissions: users.permissions })
    .from(users)
    .where(inArray(users.id, [...new Set(soon.map((s) => s.userId))]));
  const byId = new Map(people.map((p) => [p.id, p]));
  return soon.flatMap((row) => {
    const person = byId.get(row.userId);
    if (!person) return [];
    // An admin grant of the plan, or a higher plan that includes it and lasts longer: nothing is lost.
    if (splitList(person.permissions).includes(row.plan)) return [];
    const covered = latest.some(
      (other) =>
        other.userId === row.userId &&
        other.plan !== row.plan &&
        PLANS[other.plan].includes.includes(row.plan) &&
        (other.expiresAt ?? 0) > row.expiresAt,
    );
    if (covered) return [];
    return [{ userId: row.userId, plan: row.plan, expiresAt: row.expiresAt, email: person.email, name: person.name }];
  });
}

/**
 * Queues each due reminder once (the outbox's dedupe key: the scheduler runs every minute, and a reminder already
 * queued this period is skipped by the insert itself), and pushes the newly queued ones to the members' devices.
 * One insert for all of them, one read of their devices.
 */
export async function remindExpiringPlans(deps: Pick<AppDeps, 'db' | 'config' | 'fetch'>, now: number): Promise<number> {
  const { db } = deps;
  const due = await dueReminders(db, now);
  if (due.length === 0) return 0;
  const keyOf = (r: Due) => `vip-expiring:${r.userId}:${r.plan}:${r.expiresAt}`;
  const rows = await Promise.all(
    due.map((r) =>
      outboxRow(
        deps.config,
        {
          kind: 'vip_expiring',
          to: r.email,
          userId: r.userId,
          params: { name: r.name, plan: r.plan, expiresAt: r.expiresAt },
          dedupeKey: keyOf(r),
        },
        now,
      ),
    ),
  );
  const inserted = new Set((await outboxInsert(db, rows).returning({ key: mailOutbox.dedupeKey })).map((r) => r.key));
  const fresh = due.filter((r) => inserted.has(keyOf(r)));
  if (fresh.length === 0) return 0; // reminded already this period
  const devices = await db
    .select({
      userId: pushSubscriptions.userId,
      id: pushSubscriptions.id,
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
    })
    .from(pushSubscriptions)
    .where(inArray(pushSubscriptions.userId, [...new Set(fresh.map((r) => r.userId))]));
  for (const reminder of fresh) {
    const targets = devices.filter((d) => d.userId === reminder.userId);
    if (targets.length === 0) continue;
    const plan = PLANS[reminder.plan].name;
    await sendBatch(
      deps,
      targets,
      {
        type: 'vip-expiring',
        title: `Gói ${plan} sắp hết hạn`,
        body: `Gói ${plan} của bạn hết hạn lúc ${formatVietnamTime(reminder.expiresAt)}. Gia hạn để xem tiếp phim VIP.`,
        url: `/dang-ky-goi-vip/${reminder.plan}`,
      },
      `vip-${reminder.plan}`,
    ).catch((err: unknown) => console.warn('[vip-reminders] push failed', err));
  }
  return fresh.length;
}
