// "Hoàn tác" from the audit log: an admin undoes a recorded action from the data its entry kept
// (docs/decisions/0503-undo-from-the-audit-log.md). One way for every feature: a feature that wants its
// action undoable exports an UndoHandler (types in lib/duties.ts) and the composition root (worker/wiring.ts)
// puts it in the undo registry this module is given (docs/decisions/1040-one-registry-per-duty.md). This
// module imports no feature, and no feature imports it.
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditLog } from '../../db/schema';
import { ApiError, notFound } from '../../lib/errors';
import { ADMIN_TEXTS } from '../../schemas/admin';
import type { AfterUndo, UndoableEntry, UndoRegistry } from '../../lib/duties';
import { type Actor, auditInsert, parseAuditJson } from './audit';

/** Whether an entry can be undone now: its action has a handler, it stands, and it is not itself an undo. */
export const undoableIn = (registry: UndoRegistry) => (entry: { action: string; undoneAt: number | null; undoOf: number | null }) =>
  Object.hasOwn(registry, entry.action) && entry.undoneAt === null && entry.undoOf === null;

/**
 * POST /api/admin/audit/{id}/undo: in one transaction, the entry is claimed (undone_at set only where it
 * is still null, so two admins pressing at once undo it once), the handler writes the reversal, and a new
 * entry records who undid it (undo_of → the original).
 */
export async function undoAuditEntry(
  db: Db,
  registry: UndoRegistry,
  actor: Actor,
  id: number,
  now: number,
): Promise<{ message: string; undoId: number; afterCommit: AfterUndo[] }> {
  const afterCommit: AfterUndo[] = [];
  const result = await db.transaction(async (tx) => {
    const [row] = await tx.select().from(auditLog).where(eq(auditLog.id, id));
    if (!row) throw notFound(ADMIN_TEXTS.auditEntryNotFound);
    const handler = Object.hasOwn(registry, row.action) ? registry[row.action] : undefined;
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
