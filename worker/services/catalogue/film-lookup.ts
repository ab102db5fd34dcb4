import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedOnce } from '../../db/prepared';
import { films } from '../../db/schema';
import { notFound } from '../../lib/errors';

/** The few columns every by-slug caller needs, built once per database (worker/db/prepared.ts). */
export const filmBySlugStatement = preparedOnce((db: Db) =>
  db
    .select({ id: films.id, title: films.title, slug: films.slug, vipOnly: films.vipOnly, posterUrl: films.posterUrl })
    .from(films)
    .where(eq(films.slug, sql.placeholder('slug')))
    .limit(1)
    .prepare(),
);

/**
 * The film at `slug` (the few columns every by-slug caller needs: writes keyed by a film, an
 * episode's link, the Node host's poster preload), or undefined. The one film-by-slug query.
 */
export async function findFilmBySlug(db: Db, slug: string) {
  const [film] = await filmBySlugStatement(db).all({ slug });
  return film;
}

/**
 * The id of the film at `slug`, for every write keyed by a film (views, comments, ratings, error
 * reports). Unknown → 404; `field` names the request field that carried the slug.
 */
export async function filmIdBySlug(db: Db, slug: string, field?: string): Promise<number> {
  const film = await findFilmBySlug(db, slug);
  if (!film) throw notFound(field ? `${field}: không tìm thấy phim` : 'Không tìm thấy phim');
  return film.id;
}
