import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { type AnyPrepared, batchPrepared, type PreparedResults, preparedOnce } from '../../db/prepared';
import { refreshTokens, users } from '../../db/schema';
import type { Session, Viewer } from '../../lib/context';
import { unauthorized } from '../../lib/errors';
import { activeSubscriptionsQuery, toSubscriptions, withPlans } from '../payments/orders';

/** users.roles and users.permissions are comma-separated lists. */
export const splitList = (csv: string): string[] =>
  csv
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The viewer's statements (the user and their active subscriptions), built once per database; placeholders viewerId and viewerNow. */
const viewerStatements = preparedOnce((db: Db) => {
  const userId = sql.placeholder('viewerId');
  return [
    db
      .select({
        id: users.id,
        email: users.email,
        username: users.username,
        roles: users.roles,
        permissions: users.permissions,
        sessionEpoch: users.sessionEpoch,
        bannedAt: users.bannedAt,
      })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1)
      .prepare(),
    // Placeholders where the builder takes numbers (drizzle binds either).
    activeSubscriptionsQuery(db, userId as unknown as number, sql.placeholder('viewerNow') as unknown as number).prepare(),
    // The token's device signed out ("Đăng xuất" in the device list, logout, a replayed refresh token): its
    // family is revoked, and its access token stops with it (one indexed row, in the same round trip).
    db
      .select({ revoked: refreshTokens.id })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.familyId, sql.placeholder('viewerSid')), isNotNull(refreshTokens.revokedAt)))
      .limit(1)
      .prepare(),
  ] as const;
});

type ViewerRows = PreparedResults<ReturnType<typeof viewerStatements>>;

/**
 * The one place a viewer's roles and permissions are computed: permissions = admin-granted ∪ active
 * subscriptions (docs/decisions/0400-payments.md). Null when the user is gone or the token's session
 * epoch has been retired.
 */
function toViewer([[user], active, revoked]: ViewerRows, epoch: number): Viewer | null {
  // A banned member's epoch moved with the ban; the ban itself is checked too (issue 33).
  if (!user || user.sessionEpoch !== epoch || revoked.length > 0 || user.bannedAt !== null) return null;
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

/**
 * A read together with the viewer behind a verified token, in one batch: one round trip on Workers, so a
 * signed-in read costs what the anonymous one does. The viewer is read from the database on every request
 * so a revoked permission, an expired plan or "sign out everywhere" applies at once, and a payment applies
 * to the very next request. `queries` are prepared statements with their placeholders in `values`; the
 * reads must be harmless for any user id (the caller refuses once it sees the viewer is null). Without a
 * session the queries run alone (a single one as a plain statement: on the Node host a batch adds BEGIN
 * and COMMIT).
 */
export async function batchWithViewer<const Q extends readonly AnyPrepared[]>(
  db: Db,
  session: Session | null,
  now: number,
  queries: Q,
  values: Record<string, unknown>,
): Promise<{ viewer: Viewer | null; results: PreparedResults<Q> }> {
  if (!session) {
    const [only] = queries;
    const results = queries.length === 1 && only ? [await only.all(values)] : await batchPrepared(db, queries, values);
    return { viewer: null, results: results as PreparedResults<Q> };
  }
  const [user, active, revoked, ...results] = await batchPrepared(db, [...viewerStatements(db), ...queries], {
    ...values,
    viewerId: session.userId,
    viewerNow: now,
    // A token without a device (issued before devices existed) matches no family.
    viewerSid: session.sid ?? '',
  });
  return { viewer: toViewer([user, active, revoked] as ViewerRows, session.epoch), results: results as PreparedResults<Q> };
}

/**
 * batchWithViewer for a member's own reads (/api/me): the same 401 as requireViewer when the token's user
 * is gone or its session retired. The queries, keyed by the token's user id, read nothing another user
 * could see, and their rows are dropped unanswered then.
 */
export async function batchAsMember<const Q extends readonly AnyPrepared[]>(
  db: Db,
  session: Session,
  now: number,
  queries: Q,
  values: Record<string, unknown>,
): Promise<{ viewer: Viewer; results: PreparedResults<Q> }> {
  const { viewer, results } = await batchWithViewer(db, session, now, queries, values);
  if (!viewer) throw unauthorized();
  return { viewer, results };
}

/** The viewer behind a verified token on its own, for guards that must know it before the handler runs (lib/auth-middleware.ts). */
export async function loadViewer(db: Db, session: Session, now: number): Promise<Viewer | null> {
  return (await batchWithViewer(db, session, now, [], {})).viewer;
}
