import { eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedOnce } from '../../db/prepared';
import { filmAliases, films } from '../../db/schema';
import { ApiError, notFound } from '../../lib/errors';

/**
 * The few columns every by-slug caller needs, built once per database (worker/db/prepared.ts). A slug merged into
 * another film (film_aliases) finds the kept film: a comment, rating, view, report or progress sent under the old
 * slug (an outbox, an open tab, a downloaded episode) lands on the film it is now.
 */
export const filmBySlugStatement = preparedOnce((db: Db) =>
  db
    .select({ id: films.id, title: films.title, slug: films.slug, vipOnly: films.vipOnly, posterUrl: films.posterUrl })
    .from(films)
    .where(
      or(
        eq(films.slug, sql.placeholder('slug')),
        eq(films.id, sql`(select ${filmAliases.filmId} from ${filmAliases} where ${filmAliases.slug} = ${sql.placeholder('slug')})`),
      ),
    )
    .limit(1)
    .prepare(),
);

/** The slug of the film `slug` was merged into, or undefined (not an alias). */
export async function keptSlugOf(db: Db, slug: string): Promise<string | undefined> {
  const [row] = await db
    .select({ slug: films.slug })
    .from(filmAliases)
    .innerJoin(films, eq(films.id, filmAliases.filmId))
    .where(eq(filmAliases.slug, slug))
    .limit(1);
  return row?.slug;
}

/** A read of a merged-away film (`from`): the API answers 301 to the same path under the kept film's slug (app.ts). */
export class FilmMovedError extends ApiError {
  constructor(
    readonly slug: string,
    readonly from: string,
  ) {
    super(301, 'moved_permanently', `Phim đã chuyển sang /${slug}`);
  }
}

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
  return (await filmBySlugOr404(db, slug, field)).id;
}

/** The film at `slug` (or the film it was merged into), else 404 naming `field`. */
export async function filmBySlugOr404(db: Db, slug: string, field?: string) {
  const film = await findFilmBySlug(db, slug);
  if (!film) throw notFound(field ? `${field}: không tìm thấy phim` : 'Không tìm thấy phim');
  return film;
}
