// Comments in erasure and export (docs/decisions/1041, docs/export-format.md). An erased member's comments
// change author to one shared account named "Tài khoản đã xóa" (no address anyone can receive, no password, no
// Google id: nobody signs in as it), their text removed, so the replies under them keep their thread. A member
// who chose "delete" loses the comments nobody answered; the answered ones are anonymised all the same.
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { commentHiddenAuthors, commentReports, comments, films, users } from '../../db/schema';
import type { FilmTx } from '../films/film-writer';
import type { EraseStep, ExportSection } from '../../lib/duties';
import { ERASED_AUTHOR_NAME } from '../../schemas/account-data';

/** The shared author of erased members' comments (.invalid never receives mail, RFC 2606). */
export const ERASED_AUTHOR_EMAIL = 'tai-khoan-da-xoa@phimviet.invalid';

async function erasedAuthorId(tx: FilmTx, now: number): Promise<number> {
  await tx
    .insert(users)
    .values({ email: ERASED_AUTHOR_EMAIL, username: ERASED_AUTHOR_NAME, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: users.email });
  const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.email, ERASED_AUTHOR_EMAIL));
  if (!row) throw new Error('erased author missing');
  return row.id;
}

export const eraseComments: EraseStep = {
  name: 'comments',
  async erase(tx, member, now) {
    // The member's open reports stop counting against the comments they reported.
    const open = tx
      .select({ id: commentReports.commentId })
      .from(commentReports)
      .where(and(eq(commentReports.userId, member.id), isNull(commentReports.resolvedAt)));
    await tx
      .update(comments)
      .set({ openReports: sql`max(${comments.openReports} - 1, 0)` })
      .where(inArray(comments.id, open));
    await tx.delete(commentReports).where(eq(commentReports.userId, member.id));
    await tx
      .delete(commentHiddenAuthors)
      .where(or(eq(commentHiddenAuthors.userId, member.id), eq(commentHiddenAuthors.hiddenUserId, member.id)));
    if (member.comments === 'delete') {
      await tx
        .delete(comments)
        .where(and(eq(comments.userId, member.id), sql`not exists (select 1 from ${comments} as r where r.parent_id = ${comments.id})`));
    }
    const [mine] = await tx.select({ n: sql<number>`count(*)` }).from(comments).where(eq(comments.userId, member.id));
    if (!mine?.n) return;
    const author = await erasedAuthorId(tx, now);
    await tx
      .update(comments)
      .set({ userId: author, body: '', rawBody: null, fingerprint: null, removalReason: null })
      .where(eq(comments.userId, member.id));
  },
};

/** The member's comments as written (before any masking), with their state; reports; hidden authors. */
export const exportComments: ExportSection = {
  key: 'comments',
  read: (db, userId) =>
    db
      .select({
        id: comments.id,
        film: films.slug,
        episode: comments.episode,
        replyTo: comments.parentId,
        text: sql<string>`coalesce(${comments.rawBody}, ${comments.body})`,
        status: comments.status,
        spoiler: comments.spoiler,
        createdAt: comments.createdAt,
        removedAt: comments.removedAt,
        removalReason: comments.removalReason,
      })
      .from(comments)
      .innerJoin(films, eq(films.id, comments.filmId))
      .where(eq(comments.userId, userId))
      .orderBy(asc(comments.createdAt), asc(comments.id)),
};

export const exportReports: ExportSection = {
  key: 'commentReports',
  read: (db, userId) =>
    db
      .select({
        comment: commentReports.commentId,
        reason: commentReports.reason,
        note: commentReports.note,
        createdAt: commentReports.createdAt,
        resolvedAt: commentReports.resolvedAt,
      })
      .from(commentReports)
      .where(eq(commentReports.userId, userId))
      .orderBy(asc(commentReports.createdAt), asc(commentReports.id)),
};

export const exportHiddenAuthors: ExportSection = {
  key: 'hiddenAuthors',
  read: (db, userId) =>
    db
      .select({ name: users.username, createdAt: commentHiddenAuthors.createdAt })
      .from(commentHiddenAuthors)
      .innerJoin(users, eq(users.id, commentHiddenAuthors.hiddenUserId))
      .where(eq(commentHiddenAuthors.userId, userId))
      .orderBy(asc(commentHiddenAuthors.createdAt), asc(users.username)),
};
