// The cross-cutting duties a feature takes part in (docs/decisions/1040-one-registry-per-duty.md): undo from the
// audit log, erasure of a member, export of a member's data. A feature exports its handler for a duty and
// imports only the types below; the composition root (worker/wiring.ts) puts the handlers in the registries
// and hands them to the duty's owner (services/admin/audit-undo.ts, services/account/erasure.ts,
// services/account/data-export.ts). So no feature imports a duty's owner, and no owner imports a feature.
import type { Db } from '../db/client';
import type { FilmTx } from '../services/films/film-writer';
import type { Actor, AuditInput } from '../services/admin/audit';
import type { AppDeps } from './context';

// ---- undo ("Hoàn tác" in the audit log, docs/decisions/0503-undo-from-the-audit-log.md) ----

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

/** Audit action → its undo. */
export type UndoRegistry = Readonly<Record<string, UndoHandler>>;

// ---- erasure ("Xóa tài khoản", docs/decisions/1041-account-erasure.md) ----

/** The member being erased, as read before anything is removed. */
export interface ErasedMember {
  id: number;
  email: string;
  name: string;
  /** What the member chose for their comments: anonymised (text removed, thread kept) or deleted. */
  comments: 'anonymise' | 'delete';
}

/**
 * Removes (or detaches from the person) what the feature holds about `member`, inside the erasure's
 * transaction, before the users row goes. Runs in registry order; must not throw for a member it holds
 * nothing about.
 */
export type EraseHandler = (tx: FilmTx, member: ErasedMember, now: number) => Promise<void>;

export interface EraseStep {
  /** What the step erases, for the decision record and logs (e.g. 'comments'). */
  name: string;
  erase: EraseHandler;
}

// ---- export ("Tải dữ liệu của tôi", docs/export-format.md) ----

/** One top-level key of the export file, read by the feature that owns the data. */
export interface ExportSection {
  /** The key in the file (docs/export-format.md). */
  key: string;
  read: (db: Db, userId: number, now: number) => Promise<unknown>;
}

/** Every duty's registry, filled once by the composition root (worker/wiring.ts). */
export interface Duties {
  undo: UndoRegistry;
  erase: readonly EraseStep[];
  export: readonly ExportSection[];
}
