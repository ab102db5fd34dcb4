// Playback problems viewers reported from the watch page (services/catalogue/error-reports.ts), for
// admins: open reports first, then resolved ones; resolving is audited.
import { and, count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { errorReports, films, users } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { ADMIN_REPORTS_PAGE_SIZE, ADMIN_TEXTS, type ErrorReportsResponse } from '../../schemas/admin';
import { type Actor, auditInsert } from './audit';

export async function listErrorReports(db: Db, input: { page: number; state: 'all' | 'open' | 'resolved' }): Promise<ErrorReportsResponse> {
  const where =
    input.state === 'open' ? isNull(errorReports.resolvedAt) : input.state === 'resolved' ? isNotNull(errorReports.resolvedAt) : undefined;
  const pageSize = ADMIN_REPORTS_PAGE_SIZE;
  const [rows, [total], [open]] = await Promise.all([
    db
      .select({
        id: errorReports.id,
        slug: films.slug,
        title: films.title,
        episode: errorReports.episode,
        serverName: errorReports.serverName,
        reason: errorReports.reason,
        message: errorReports.message,
        userId: users.id,
        username: users.username,
        createdAt: errorReports.createdAt,
        resolvedAt: errorReports.resolvedAt,
      })
      .from(errorReports)
      .innerJoin(films, eq(films.id, errorReports.filmId))
      .leftJoin(users, eq(users.id, errorReports.userId))
      .where(where)
      // Open first (resolved_at NULL), newest first within each group.
      .orderBy(sql`${errorReports.resolvedAt} IS NOT NULL`, desc(errorReports.id))
      .limit(pageSize)
      .offset((input.page - 1) * pageSize),
    db.select({ n: count() }).from(errorReports).where(where),
    db.select({ n: count() }).from(errorReports).where(isNull(errorReports.resolvedAt)),
  ]);
  const totalItems = total?.n ?? 0;
  return {
    data: rows.map((r) => ({
      id: r.id,
      film: { slug: r.slug, title: r.title },
      episode: r.episode,
      server_name: r.serverName,
      reason: r.reason,
      message: r.message,
      user: r.userId === null || r.username === null ? null : { id: r.userId, username: r.username },
      createdAt: r.createdAt,
      resolvedAt: r.resolvedAt,
    })),
    pagination: { page: input.page, pageSize, totalItems, totalPages: Math.max(1, Math.ceil(totalItems / pageSize)) },
    open: open?.n ?? 0,
  };
}

/** POST /api/admin/error-reports/{id}/resolve: idempotent; the first resolution's time is kept. */
export async function resolveErrorReport(db: Db, actor: Actor, id: number, now: number): Promise<{ id: number; resolvedAt: number }> {
  const [row] = await db
    .select({ id: errorReports.id, resolvedAt: errorReports.resolvedAt })
    .from(errorReports)
    .where(eq(errorReports.id, id));
  if (!row) throw notFound(ADMIN_TEXTS.reportNotFound);
  if (row.resolvedAt !== null) return { id, resolvedAt: row.resolvedAt };
  await db.batch([
    db
      .update(errorReports)
      .set({ resolvedAt: now })
      .where(and(eq(errorReports.id, id), isNull(errorReports.resolvedAt))),
    auditInsert(db, actor, { action: 'error_report.resolve', target: id, before: { resolvedAt: null }, after: { resolvedAt: now } }, now),
  ]);
  return { id, resolvedAt: now };
}
