// The audit log (issue 9): every admin write records who, what, which target, and the state before
// and after. Writes that change several rows record inside the same transaction, so a rolled-back
// change leaves no entry.
import { count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { auditLog } from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { ADMIN_AUDIT_PAGE_SIZE, type AuditChange, type AuditEntry, type AuditResponse } from '../../schemas/admin';
import type { FilmTx } from '../films/film-writer';

export interface AuditInput {
  action: string;
  target: string | number;
  before?: unknown;
  after?: unknown;
  /** On an undo's own entry: the entry it undid (worker/services/admin/audit-undo.ts). */
  undoOf?: number;
}

export type Actor = Pick<Viewer, 'id' | 'email'>;

const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));

/** The insert of one audit row, for db.batch([...]) or a transaction. */
export function auditInsert(db: Db | FilmTx, actor: Actor, entry: AuditInput, now: number) {
  return db.insert(auditLog).values({
    actorId: actor.id,
    actorEmail: actor.email,
    action: entry.action,
    target: String(entry.target),
    before: json(entry.before),
    after: json(entry.after),
    createdAt: now,
    undoOf: entry.undoOf ?? null,
  });
}

/**
 * The insert of one audit row that happens only if `condition` holds on `source` when the batch runs (a
 * conditional update earlier in the same db.batch changed a row): a write that changed nothing is not
 * recorded. `actor.id` null: the author is no account (a bank notification).
 */
export function auditInsertWhere(
  db: Db,
  actor: { id: number | null; email: string },
  entry: AuditInput,
  now: number,
  source: SQLiteTable,
  condition: SQL | undefined,
) {
  return db.insert(auditLog).select(
    db
      .select({
        id: sql<null>`null`.as('id'),
        actorId: sql<number | null>`${actor.id}`.as('actor_id'),
        actorEmail: sql<string>`${actor.email}`.as('actor_email'),
        action: sql<string>`${entry.action}`.as('action'),
        target: sql<string>`${String(entry.target)}`.as('target'),
        before: sql<string | null>`${json(entry.before)}`.as('before'),
        after: sql<string | null>`${json(entry.after)}`.as('after'),
        createdAt: sql<number>`${now}`.as('created_at'),
        // Every column in the table's order (drizzle checks it): a fresh entry is not undone.
        undoneAt: sql<null>`null`.as('undone_at'),
        undoOf: sql<null>`null`.as('undo_of'),
      })
      .from(source)
      .where(condition),
  );
}

export async function recordAudit(db: Db | FilmTx, actor: Actor, entry: AuditInput, now: number): Promise<void> {
  await auditInsert(db, actor, entry, now);
}

/** An entry's before or after as it was recorded (JSON; a bare string if it ever was not). */
export const parseAuditJson = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * What an entry changed, field by field: the keys whose value differs between before and after (a
 * created or deleted row lists its fields against null); a list or a single value is one 'value' change.
 */
export function auditChanges(before: unknown, after: unknown): AuditChange[] {
  if (isRecord(before) || isRecord(after)) {
    const b = isRecord(before) ? before : {};
    const a = isRecord(after) ? after : {};
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
    return keys.filter((k) => !same(b[k], a[k])).map((field) => ({ field, before: b[field] ?? null, after: a[field] ?? null }));
  }
  return same(before, after) ? [] : [{ field: 'value', before: before ?? null, after: after ?? null }];
}

/**
 * GET /api/admin/audit: newest first, optionally one action. `isUndoable` says which entries get "Hoàn
 * tác" (audit-undo.ts owns that list; passed in so this module does not import every feature's undo).
 */
export async function listAudit(
  db: Db,
  input: { page: number; action?: string },
  isUndoable: (entry: { action: string; undoneAt: number | null; undoOf: number | null }) => boolean,
): Promise<AuditResponse> {
  const where = input.action ? eq(auditLog.action, input.action) : undefined;
  const pageSize = ADMIN_AUDIT_PAGE_SIZE;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.id))
      .limit(pageSize)
      .offset((input.page - 1) * pageSize),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  const totalItems = total?.n ?? 0;
  const data: AuditEntry[] = rows.map((r) => ({
    id: r.id,
    actor: { id: r.actorId, email: r.actorEmail },
    action: r.action,
    target: r.target,
    before: parseAuditJson(r.before),
    after: parseAuditJson(r.after),
    changes: auditChanges(parseAuditJson(r.before), parseAuditJson(r.after)),
    createdAt: r.createdAt,
    undoable: isUndoable(r),
    undoneAt: r.undoneAt,
    undoOf: r.undoOf,
  }));
  return { data, pagination: { page: input.page, pageSize, totalItems, totalPages: Math.max(1, Math.ceil(totalItems / pageSize)) } };
}
