// Reads of "Phim tương tự" (docs/decisions/1090): the film's precomputed list as one JSON array of cards, each with
// its reason's kind and name, for the film's detail batch and for GET /api/related/{slug} (the home's
// "Vì bạn đã xem {phim}" row, asked by the browser from its own history).
import { asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { filmRelated, films } from '../../db/schema';
import { notFound } from '../../lib/errors';
import type { FilmCard } from '../../schemas/catalogue';
import { type RelatedFilm, type RelatedList, relatedReasonText } from '../../schemas/related';
import { cardArray, cardJson, cardsFromJson } from '../catalogue/film-card';

/** The related films of the film `filmId` (an SQL id or subquery) as one row `{ cards }`, best first. */
export function relatedList(db: Db, filmId: SQL) {
  const list = db
    .select({
      card: sql<string>`json_set(${cardJson}, '$.reason_kind', ${filmRelated.reason}, '$.reason_name', ${filmRelated.reasonName})`.as(
        'card',
      ),
    })
    .from(filmRelated)
    .innerJoin(films, eq(films.id, filmRelated.relatedId))
    .where(eq(filmRelated.filmId, filmId))
    .orderBy(asc(filmRelated.rank))
    .as('list');
  return db.select({ cards: cardArray(list.card) }).from(list);
}

/** relatedList's row → cards carrying their reason's text ("Cùng diễn viên Trấn Thành", "Người xem cũng xem", …). */
export function relatedFromJson(rows: readonly { cards: string }[]): RelatedFilm[] {
  return (cardsFromJson(rows) as (FilmCard & { reason_kind?: string; reason_name?: string })[]).map(
    ({ reason_kind = '', reason_name = '', ...card }) => ({ ...card, reason: relatedReasonText(reason_kind, reason_name) }),
  );
}

/** GET /api/related/{slug}: one batch (the film and its list); an unknown slug is a 404. */
export async function relatedBySlug(db: Db, slug: string): Promise<RelatedList> {
  const id = sql`(select ${films.id} from ${films} where ${films.slug} = ${slug})`;
  const [film, rows] = await db.batch([
    db.select({ slug: films.slug, title: films.title }).from(films).where(eq(films.slug, slug)).limit(1),
    relatedList(db, id),
  ]);
  if (!film[0]) throw notFound('Không tìm thấy phim');
  return { film: film[0], data: relatedFromJson(rows) };
}
