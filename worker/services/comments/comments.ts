import { and, asc, eq, gt, lte, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { comments, rateLimits, users } from '../../db/schema';
import { badRequest, tooManyRequests } from '../../lib/errors';
import { COMMENT_MESSAGES, type CommentDto } from '../../schemas/comments';
import { filmIdBySlug } from '../catalogue/film-lookup';
import { countHit, RATE_LIMITS } from '../rate-limit';

export interface CreateCommentInput {
  filmSlug: string;
  userId: number;
  text: string;
  parentId?: number | null;
  /** The author's display name when the caller already has it (the viewer); else it is looked up. */
  authorName?: string;
  now: number;
}

/** Stores a comment or a reply (whose parent must be on the same film) and returns it as the wire shape. */
export async function createComment(db: Db, input: CreateCommentInput): Promise<{ filmSlug: string; comment: CommentDto }> {
  const filmId = await filmIdBySlug(db, input.filmSlug, 'titlefilm');

  const parentId = input.parentId ?? null;
  if (parentId !== null) {
    const [parent] = await db
      .select({ id: comments.id })
      .from(comments)
      .where(and(eq(comments.id, parentId), eq(comments.filmId, filmId)))
      .limit(1);
    if (!parent) throw badRequest('parent_id', 'bình luận gốc không tồn tại trong phim này');
  }

  // Counting the hit and inserting the comment is one batch: one transaction, one commit (on a
  // local file that is one fsync instead of two). The insert only happens while the counter it
  // just bumped is within the limit.
  const rule = { key: `comment:user:${input.userId}`, ...RATE_LIMITS.commentPerUser };
  const [, inserted] = await db.batch([
    countHit(db, rule, input.now),
    db
      .insert(comments)
      .select(
        db
          .select({
            id: sql<null>`null`.as('id'),
            filmId: sql<number>`${filmId}`.as('film_id'),
            userId: sql<number>`${input.userId}`.as('user_id'),
            parentId: sql<number | null>`${parentId}`.as('parent_id'),
            body: sql<string>`${input.text}`.as('body'),
            createdAt: sql<number>`${input.now}`.as('created_at'),
          })
          .from(rateLimits)
          .where(and(eq(rateLimits.key, rule.key), lte(rateLimits.count, rule.limit))),
      )
      .returning({ id: comments.id, parentId: comments.parentId, body: comments.body, createdAt: comments.createdAt }),
  ]);
  const row = inserted[0];
  if (!row) throw tooManyRequests(COMMENT_MESSAGES.tooFast);
  const username =
    input.authorName ??
    (await db.select({ username: users.username }).from(users).where(eq(users.id, input.userId)).limit(1))[0]?.username ??
    '';
  return {
    filmSlug: input.filmSlug,
    comment: { id: row.id, parent_id: row.parentId, comment: row.body, createdAt: row.createdAt, users: { username } },
  };
}

/**
 * A film's comments in posting order as a flat list the web nests by parent_id; with sinceId only the
 * newer ones (what a reconnecting client missed). The film detail's comments are the same query.
 */
export async function listCommentsBySlug(db: Db, slug: string, options: { sinceId?: number } = {}): Promise<CommentDto[]> {
  const filmId = await filmIdBySlug(db, slug);
  return filmComments(db, filmId, options.sinceId ?? 0);
}

/** The statement of a film's comments newer than sinceId, unexecuted so the film detail can batch it. */
export function filmCommentsQuery(db: Db, filmId: number | SQL, sinceId = 0) {
  return db
    .select({ id: comments.id, parentId: comments.parentId, body: comments.body, createdAt: comments.createdAt, username: users.username })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.userId))
    .where(and(eq(comments.filmId, filmId), gt(comments.id, sinceId)))
    .orderBy(asc(comments.id));
}

export const toCommentDtos = (rows: Awaited<ReturnType<typeof filmCommentsQuery>>): CommentDto[] =>
  rows.map((r) => ({ id: r.id, parent_id: r.parentId, comment: r.body, createdAt: r.createdAt, users: { username: r.username } }));

/** A film's comments (newer than sinceId) as the wire shape: the film detail's list and the comments endpoint. */
export async function filmComments(db: Db, filmId: number, sinceId = 0): Promise<CommentDto[]> {
  return toCommentDtos(await filmCommentsQuery(db, filmId, sinceId));
}
