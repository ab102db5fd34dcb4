// Push subscriptions in erasure and export (docs/decisions/1041, docs/export-format.md).
import { asc, eq } from 'drizzle-orm';
import { pushSubscriptions } from '../../db/schema';
import type { EraseStep, ExportSection } from '../../lib/duties';

export const erasePush: EraseStep = {
  name: 'push',
  async erase(tx, member) {
    await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, member.id));
  },
};

/** The push service (its origin, never the endpoint's secret path or the keys) and when the browser subscribed. */
export const exportPush: ExportSection = {
  key: 'pushSubscriptions',
  async read(db, userId) {
    const rows = await db
      .select({ endpoint: pushSubscriptions.endpoint, createdAt: pushSubscriptions.createdAt })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
    return rows.map((r) => ({ service: originOf(r.endpoint), createdAt: r.createdAt }));
  },
};

function originOf(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return '';
  }
}
