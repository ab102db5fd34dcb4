import { count, desc, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { fold } from '../../db/fold';
import { films } from '../../db/schema';
import type { FilmCard, Paginated } from '../../schemas/catalogue';
import { cardColumns, toFilmCard } from './film-card';
import { likeLiteral, pagination } from './listing';

/** Trigram FTS needs 3 characters; shorter queries are a prefix match on the folded title instead. */
const TRIGRAM = 3;

/** Folded titles starting with `prefix`, as an index range (films_title_folded) rather than a scan. */
function titleStartsWith(prefix: string): SQL {
  return sql`(${films.titleFolded} >= ${prefix} and ${films.titleFolded} < ${`${prefix}\uffff`})`;
}

function matchCondition(folded: string): SQL {
  if (folded.length < TRIGRAM) return titleStartsWith(folded);
  // A quoted FTS5 string is a phrase; with the trigram tokenizer that is a substring match.
  const phrase = `"${folded.replace(/"/g, '""')}"`;
  return sql`${films.id} in (select rowid from films_fts where films_fts match ${phrase})`;
}

/**
 * Diacritics-insensitive title search (docs/decisions/0002), ranked: exact title, title prefix, a word
 * of the title starting with the query, any other substring (English name included); ties by views.
 */
export async function searchFilms(db: Db, input: { q: string; limit: number; page: number }): Promise<Paginated<FilmCard>> {
  const folded = fold(input.q);
  if (!folded) return { data: [], pagination: pagination(input.page, input.limit, 0) };
  const where = matchCondition(folded);
  const literal = likeLiteral(folded);
  const rank = sql`case
    when ${films.titleFolded} = ${folded} then 0
    when ${films.titleFolded} like ${`${literal}%`} escape '\\' then 1
    when ${films.titleFolded} like ${`% ${literal}%`} escape '\\' then 2
    when ${films.titleFolded} like ${`%${literal}%`} escape '\\' then 3
    else 4 end`;
  // Rank and paginate over ids and the two sort keys only; fetch card columns for the page alone.
  const ranked = db
    .select({ id: films.id, rank: rank.as('rank'), views: films.views })
    .from(films)
    .where(where)
    .orderBy(rank, desc(films.views), desc(films.id))
    .limit(input.limit)
    .offset((input.page - 1) * input.limit)
    .as('ranked');
  const [rows, [total]] = await Promise.all([
    db
      .select(cardColumns)
      .from(ranked)
      .innerJoin(films, sql`${films.id} = ${ranked.id}`)
      .orderBy(sql`"ranked"."rank"`, desc(ranked.views), desc(ranked.id)),
    db.select({ n: count() }).from(films).where(where),
  ]);
  return { data: rows.map((r) => toFilmCard(r)), pagination: pagination(input.page, input.limit, total?.n ?? 0) };
}
