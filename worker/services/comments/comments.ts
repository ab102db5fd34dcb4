import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { comments, films, users } from '../../db/schema';
import { badRequest, notFound } from '../../lib/errors';
import type { CommentDto } from '../../schemas/catalogue';
import { filmComments } from '../catalogue/detail';
import { enforceRateLimits, RATE_LIMITS } from '../rate-limit';

const TOO_FAST = 'Bạn bình luận quá nhanh. Vui lòng chờ một lát rồi thử lại.';

export interface CreateCommentInput {
  filmSlug: string;
  userId: number;
  text: string;
  parentId?: number | null;
  now: number;
}

export async function findFilmIdBySlug(db: Db, slug: string): Promise<number | null> {
  const [film] = await db.select({ id: films.id }).from(films).where(eq(films.slug, slug)).limit(1);
  return film?.id ?? null;
}

/** Stores a comment or a reply (whose parent must be on the same film) and returns it as the wire shape. */
export async function createComment(db: Db, input: CreateCommentInput): Promise<{ filmSlug: string; comment: CommentDto }> {
  const filmId = await findFilmIdBySlug(db, input.filmSlug);
  if (filmId === null) throw notFound('titlefilm: không tìm thấy phim');
  await enforceRateLimits(db, [{ key: `comment:user:${input.userId}`, ...RATE_LIMITS.commentPerUser }], input.now, TOO_FAST);

  const parentId = input.parentId ?? null;
  if (parentId !== null) {
    const [parent] = await db.select({ id: comments.id }).from(comments).where(and(eq(comments.id, parentId), eq(comments.filmId, filmId))).limit(1);
    if (!parent) throw badRequest('parent_id', 'bình luận gốc không tồn tại trong phim này');
  }

  const [row] = await db
    .insert(comments)
    .values({ filmId, userId: input.userId, parentId, body: input.text, createdAt: input.now })
    .returning({ id: comments.id, parentId: comments.parentId, body: comments.body, createdAt: comments.createdAt });
  const [author] = await db.select({ username: users.username }).from(users).where(eq(users.id, input.userId)).limit(1);
  return {
    filmSlug: input.filmSlug,
    comment: { id: row!.id, parent_id: row!.parentId, comment: row!.body, createdAt: row!.createdAt, users: { username: author?.username ?? '' } },
  };
}

/**
 * A film's comments in posting order as a flat list the web nests by parent_id; with sinceId only the
 * newer ones (what a reconnecting client missed). Same query as the film detail's comments.
 */
export async function listCommentsBySlug(db: Db, slug: string, options: { sinceId?: number } = {}): Promise<CommentDto[]> {
  const filmId = await findFilmIdBySlug(db, slug);
  if (filmId === null) throw notFound('Không tìm thấy phim');
  return filmComments(db, filmId, options.sinceId ?? 0);
}
