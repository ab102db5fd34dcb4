// "Xóa tài khoản" (issue 39 §1, docs/decisions/1041-account-erasure.md). The owner of the erasure duty: it runs
// the erase steps the composition root registered (worker/wiring.ts), in one transaction, then removes the
// users row and keeps a keyed hash of the address so a restored backup erases the account again.
// Features never import this module (lint: features-do-not-import-duty-owners).
import { and, asc, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { erasedAccounts, pushSubscriptions, refreshTokens, users } from '../../db/schema';
import type { EraseStep, ErasedMember } from '../../lib/duties';
import { ApiError, conflict, notFound } from '../../lib/errors';
import { toHex } from '../../lib/bytes';
import {
  ACCOUNT_DATA_TEXTS,
  type AdminPendingDeletion,
  ERASURE_GRACE_DAYS,
  type PendingDeletion,
  type RequestDeletionInput,
} from '../../schemas/account-data';
import { type Actor, auditInsert } from '../admin/audit';
import { outboxInsert, outboxRow } from '../mail/outbox';

const DAY = 86_400_000;

/** The database and the secret the erasure record is keyed with. */
export interface ErasureDeps {
  db: Db;
  config: Pick<Config, 'JWT_SECRET'>;
}
export const ERASURE_GRACE_MS = ERASURE_GRACE_DAYS * DAY;

/** HMAC-SHA-256 of the lower-cased address under a key derived from JWT_SECRET: the erasure record, never the address. */
export async function erasedEmailHash(config: Pick<Config, 'JWT_SECRET'>, email: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', enc.encode(`erasure:${config.JWT_SECRET}`), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  return toHex(new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(email.trim().toLowerCase()))));
}

export function pendingOf(user: {
  deletionRequestedAt: number | null;
  deletionDueAt: number | null;
  deletionComments: 'anonymise' | 'delete' | null;
}): PendingDeletion | null {
  if (user.deletionDueAt === null) return null;
  return {
    requestedAt: user.deletionRequestedAt ?? user.deletionDueAt - ERASURE_GRACE_MS,
    dueAt: user.deletionDueAt,
    comments: user.deletionComments ?? 'anonymise',
  };
}

/**
 * POST /api/account/deletion: in one batch the request is stored (erasure due in 7 days), every device is signed
 * out (the session epoch bumped retires every access token, the refresh tokens are revoked), the push
 * subscriptions are deleted, and the acknowledgement mail with the erasure date is queued (sent right after).
 */
export async function requestErasure(
  deps: ErasureDeps,
  userId: number,
  input: RequestDeletionInput,
  now: number,
): Promise<PendingDeletion> {
  const { db } = deps;
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw notFound(ACCOUNT_DATA_TEXTS.memberNotFound);
  if (user.deletionDueAt !== null) throw conflict(ACCOUNT_DATA_TEXTS.alreadyPending);
  const dueAt = now + ERASURE_GRACE_MS;
  const mail = await outboxRow(
    deps.config,
    {
      kind: 'account_deletion',
      to: user.email,
      userId,
      params: { name: user.username, dueAt },
      dedupeKey: `account_deletion:${userId}:${now}`,
    },
    now,
  );
  await db.batch([
    db
      .update(users)
      .set({
        deletionRequestedAt: now,
        deletionDueAt: dueAt,
        deletionComments: input.comments,
        sessionEpoch: sql`${users.sessionEpoch} + 1`,
        updatedAt: now,
      })
      .where(and(eq(users.id, userId), isNull(users.deletionDueAt))),
    db
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt))),
    db.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)),
    outboxInsert(db, [mail]),
  ]);
  return { requestedAt: now, dueAt, comments: input.comments };
}

/** "Khôi phục tài khoản": the request is cancelled; the account stays as it was (its push subscriptions are gone). */
export async function cancelErasure(db: Db, userId: number, now: number): Promise<void> {
  const done = await db
    .update(users)
    .set({ deletionRequestedAt: null, deletionDueAt: null, deletionComments: null, updatedAt: now })
    .where(and(eq(users.id, userId), isNotNull(users.deletionDueAt)))
    .returning({ id: users.id });
  if (done.length === 0) throw new ApiError(409, 'no_pending_deletion', ACCOUNT_DATA_TEXTS.noPendingDeletion);
}

/**
 * Erases one member now, in one transaction: every registered step, then the users row (its remaining foreign
 * keys cascade or set null; money rows are only detached), then the erasure record. Returns the record's hash,
 * or null when there was no such member.
 */
export async function eraseMember(
  deps: ErasureDeps,
  steps: readonly EraseStep[],
  userId: number,
  now: number,
  audit?: { actor: Actor },
): Promise<string | null> {
  const [user] = await deps.db.select().from(users).where(eq(users.id, userId));
  if (!user) return null;
  const hash = await erasedEmailHash(deps.config, user.email);
  const member: ErasedMember = { id: user.id, email: user.email, name: user.username, comments: user.deletionComments ?? 'anonymise' };
  await deps.db.transaction(async (tx) => {
    for (const step of steps) await step.erase(tx, member, now);
    await tx.delete(users).where(eq(users.id, user.id));
    await tx
      .insert(erasedAccounts)
      .values({ emailHash: hash, erasedAt: now })
      .onConflictDoUpdate({ target: erasedAccounts.emailHash, set: { erasedAt: now } });
    // The admin who ran it (a member who asked by phone): the entry names the erasure record, never the person.
    if (audit)
      await auditInsert(
        tx,
        audit.actor,
        { action: 'account.erase', target: `erased:${hash.slice(0, 16)}`, before: null, after: { erasedAt: now } },
        now,
      );
  });
  return hash;
}

/** "Xóa ngay" by the member during the grace period. */
export async function eraseOwnAccountNow(deps: ErasureDeps, steps: readonly EraseStep[], userId: number, now: number) {
  const [user] = await deps.db.select({ due: users.deletionDueAt }).from(users).where(eq(users.id, userId));
  if (!user || user.due === null) throw new ApiError(409, 'no_pending_deletion', ACCOUNT_DATA_TEXTS.noPendingDeletion);
  await eraseMember(deps, steps, userId, now);
}

/** The scheduler: every member whose grace period is over is erased (each in its own transaction). */
export async function completeDueErasures(deps: ErasureDeps, steps: readonly EraseStep[], now: number): Promise<number> {
  const due = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(lte(users.deletionDueAt, now))
    .orderBy(asc(users.deletionDueAt))
    .limit(100);
  for (const { id } of due) await eraseMember(deps, steps, id, now);
  return due.length;
}

/** GET /api/admin/account-deletions: who is waiting, soonest first. */
export async function listPendingErasures(db: Db): Promise<AdminPendingDeletion[]> {
  const rows = await db.select().from(users).where(isNotNull(users.deletionDueAt)).orderBy(asc(users.deletionDueAt), asc(users.id));
  return rows.flatMap((u) => {
    const pending = pendingOf(u);
    return pending ? [{ userId: u.id, email: u.email, name: u.username, ...pending }] : [];
  });
}

/** POST /api/admin/account-deletions/{id}/erase: an admin erases a member at once (one who asked by phone); audited. */
export async function adminEraseMember(deps: ErasureDeps, steps: readonly EraseStep[], actor: Actor, userId: number, now: number) {
  if (actor.id === userId) throw new ApiError(409, 'own_account', 'Hãy dùng trang Tài khoản để xóa tài khoản của chính bạn.');
  const hash = await eraseMember(deps, steps, userId, now, { actor });
  if (!hash) throw notFound(ACCOUNT_DATA_TEXTS.memberNotFound);
}

/**
 * After a backup is restored (`npm run restore`, a post-restore step): every account whose address's hash is in
 * erased_accounts and that was created before that erasure is erased again; an address that registered again
 * after its erasure is a new member and stays. `steps` is the erase registry (`duties.erase` of worker/wiring.ts).
 * Returns how many accounts were erased again.
 */
export async function reapplyErasures(
  db: Db,
  config: Pick<Config, 'JWT_SECRET'>,
  steps: readonly EraseStep[],
  now: number,
  /** The database the restore kept aside: its records of erasures made after the backup come over first. */
  previous?: Db | null,
): Promise<number> {
  const later = previous
    ? await previous
        .select()
        .from(erasedAccounts)
        .catch(() => [])
    : [];
  if (later.length > 0) await db.insert(erasedAccounts).values(later).onConflictDoNothing();
  const records = await db.select().from(erasedAccounts);
  if (records.length === 0) return 0;
  const erasedAt = new Map(records.map((r) => [r.emailHash, r.erasedAt]));
  const members = await db.select({ id: users.id, email: users.email, createdAt: users.createdAt }).from(users);
  let n = 0;
  for (const m of members) {
    const at = erasedAt.get(await erasedEmailHash(config, m.email));
    if (at === undefined || m.createdAt >= at) continue;
    if (await eraseMember({ db, config }, steps, m.id, now)) n++;
  }
  return n;
}
