import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { activeSubscriptionsQuery, toSubscriptions, withPlans } from '../payments/orders';

/** users.roles and users.permissions are comma-separated lists. */
export const splitList = (csv: string): string[] =>
  csv
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * The viewer behind a verified access token, read from the database on every request so a revoked
 * permission, an expired plan or "sign out everywhere" applies at once, and a payment applies to the very
 * next request. Null when the user is gone or the token's session epoch has been retired. The one place a
 * viewer's roles and permissions are computed: permissions = admin-granted ∪ active subscriptions
 * (docs/decisions/0400-payments.md); the user and their subscriptions are read in one batch.
 */
export async function loadViewer(db: Db, userId: number, epoch: number, now: number): Promise<Viewer | null> {
  const [[user], active] = await db.batch([
    db
      .select({
        id: users.id,
        email: users.email,
        username: users.username,
        roles: users.roles,
        permissions: users.permissions,
        sessionEpoch: users.sessionEpoch,
      })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1),
    activeSubscriptionsQuery(db, userId, now),
  ]);
  if (!user || user.sessionEpoch !== epoch) return null;
  const subscriptions = toSubscriptions(active);
  return {
    id: user.id,
    email: user.email,
    name: user.username,
    roles: splitList(user.roles),
    permissions: withPlans(splitList(user.permissions), subscriptions),
    subscriptions,
  };
}
