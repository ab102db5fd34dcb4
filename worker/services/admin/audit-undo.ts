// "Hoàn tác" from the audit log: an admin undoes a recorded action from the data its entry kept
// (docs/decisions/0503-undo-from-the-audit-log.md). One way for every feature: a feature that wants its
// action undoable exports a handler and adds it to UNDO below; nothing else changes.
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditLog } from '../../db/schema';
import { ApiError, notFound } from '../../lib/errors';
import { ADMIN_TEXTS } from '../../schemas/admin';
import type { FilmTx } from '../films/film-writer';
import { type Actor, type AuditInput, auditInsert, parseAuditJson } from './audit';
import { undoFilmMerge } from '../films/film-merge';
import { undoFilmVip1 } from './films';
import type { AppDeps } from '../../lib/context';
import { undoCommentApprove, undoCommentRemove, undoMemberBan, undoMemberMute } from '../comments/moderation';
import { undoWordAdd, undoWordRemove } from '../comments/words';

/** An entry as stored, its JSON parsed: what an undo handler reads. */
export interface UndoableEntry {
  id: number;
  actorId: number | null;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  createdAt: number;
}

/** Work an undo leaves for after its commit (a live room told that a comment is back), given the host's services. */
export type AfterUndo = (deps: Pick<AppDeps, 'config' | 'fetch'>) => Promise<unknown>;

/**
 * Writes the reversal of `entry` inside `tx` and returns the audit record of the undo itself (its
 * action, target, before and after). It throws an ApiError (409) when the world has moved on so far that
 * the entry's data can no longer be put back; the whole undo then rolls back. `afterCommit` queues work that
 * must only happen once the reversal is stored (it runs after the response, and never throws).
 */
export type UndoHandler = (
  tx: FilmTx,
  entry: UndoableEntry,
  ctx: { actor: Actor; now: number; afterCommit: (task: AfterUndo) => void },
) => Promise<AuditInput>;

/** Every action that can be undone, and how. */
const UNDO: Readonly<Record<string, UndoHandler>> = {
  'film.vip1': undoFilmVip1,
  'film.merge': undoFilmMerge,
  // Comment moderation (docs/decisions/0230-comment-moderation.md).
  'comment.approve': undoCommentApprove,
  'comment.remove': undoCommentRemove,
  'user.mute': undoMemberMute,
  'user.ban': undoMemberBan,
  'comment_word.add': undoWordAdd,
  'comment_word.remove': undoWordRemove,
};

/** Whether an entry can be undone now: its action has a handler, it stands, and it is not itself an undo. */
export const isUndoable = (entry: { action: string; undoneAt: number | null; undoOf: number | null }) =>
  Object.hasOwn(UNDO, entry.action) && entry.undoneAt === null && entry.undoOf === null;

/**
 * POST /api/admin/audit/{id}/undo: in one transaction, the entry is claimed (undone_at set only where it
 * is still null, so two admins pressing at once undo it once), the handler writes the reversal, and a new
 * entry records who undid it (undo_of → the original).
 */
export async function undoAuditEntry(
  db: Db,
  actor: Actor,
  id: number,
  now: number,
): Promise<{ message: string; undoId: number; afterCommit: AfterUndo[] }> {
  const afterCommit: AfterUndo[] = [];
  const result = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(auditLog).where(eq(auditLog.id, id));
    if (!row) throw notFound(ADMIN_TEXTS.auditEntryNotFound);
    const handler = UNDO[row.action];
    if (!handler || row.undoOf !== null) throw new ApiError(409, 'not_undoable', ADMIN_TEXTS.auditNotUndoable);
    const claimed = await tx
      .update(auditLog)
      .set({ undoneAt: now })
      .where(and(eq(auditLog.id, id), isNull(auditLog.undoneAt)))
      .returning({ id: auditLog.id });
    if (claimed.length === 0) throw new ApiError(409, 'already_undone', ADMIN_TEXTS.auditAlreadyUndone);
    const entry: UndoableEntry = {
      id: row.id,
      actorId: row.actorId,
      action: row.action,
      target: row.target,
      before: parseAuditJson(row.before),
      after: parseAuditJson(row.after),
      createdAt: row.createdAt,
    };
    const record = await handler(tx, entry, { actor, now, afterCommit: (task) => void afterCommit.push(task) });
    const [undo] = await auditInsert(tx, actor, { ...record, undoOf: id }, now).returning({ id: auditLog.id });
    return { message: ADMIN_TEXTS.auditUndone, undoId: undo!.id };
  });
  return { ...result, afterCommit };
}
