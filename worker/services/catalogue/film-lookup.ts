import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { films } from '../../db/schema';
import { notFound } from '../../lib/errors';

/**
 * The id of the film at `slug`, for every write keyed by a film (views, comments, ratings, error
 * reports). Unknown → 404; `field` names the request field that carried the slug.
 */
export async function filmIdBySlug(db: Db, slug: string, field?: string): Promise<number> {
  const [film] = await db.select({ id: films.id }).from(films).where(eq(films.slug, slug)).limit(1);
  if (!film) throw notFound(field ? `${field}: không tìm thấy phim` : 'Không tìm thấy phim');
  return film.id;
}
