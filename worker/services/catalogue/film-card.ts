import { type SQL, type Subquery, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { films, type Film } from '../../db/schema';
import type { FilmCard } from '../../schemas/catalogue';

const CARD_DESCRIPTION_LENGTH = 200;

/** Columns a card needs; every list query selects exactly these. */
export const cardColumns = {
  id: films.id,
  slug: films.slug,
  title: films.title,
  nameEnglish: films.nameEnglish,
  posterUrl: films.posterUrl,
  thumbUrl: films.thumbUrl,
  statusText: films.statusText,
  language: films.language,
  episodeCountText: films.episodeCountText,
  duration: films.duration,
  year: films.year,
  quality: films.quality,
  genreNames: films.genreNames,
  countryNames: films.countryNames,
  description: films.description,
  views: films.views,
  likes: films.likes,
  categoryId: films.categoryId,
  vipOnly: films.vipOnly,
  createdAt: films.createdAt,
  updatedAt: films.updatedAt,
};

export type CardRow = Pick<Film, keyof typeof cardColumns>;

/**
 * A card's description: the whole text up to `max` characters (Unicode code points, as SQLite's substr counts
 * them, so a cut never splits an emoji's surrogate pair), else cut at its last space past 60 % of `max` (else at
 * `max`), trailing white space dropped, and '…' added.
 */
function shorten(text: string, max: number): string {
  // Fewer UTF-16 units than `max` is fewer code points too: most descriptions end here.
  if (text.length <= max) return text;
  // One walk over the UTF-16 units, counting code points: where the max-th one ends, and the last space
  // before it (as a count of code points before it). No array of one-character strings: a home page cuts
  // a hundred descriptions.
  let points = 0;
  let end = 0;
  let lastSpaceAt = -1;
  let lastSpaceEnd = 0;
  while (end < text.length && points < max) {
    const unit = text.charCodeAt(end);
    if (unit === 0x20) {
      lastSpaceAt = points;
      lastSpaceEnd = end;
    }
    end += unit >= 0xd800 && unit <= 0xdbff && end + 1 < text.length && (text.charCodeAt(end + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    points++;
  }
  if (end >= text.length) return text;
  return `${text.slice(0, lastSpaceAt > max * 0.6 ? lastSpaceEnd : end).trimEnd()}…`;
}

/**
 * A card as the spec's JSON object (toFilmCard's fields, in its order), built by the database. A list of cards
 * is read as one JSON array (cardArray) rather than as rows: Hrana answers a row as one tagged value per
 * column, which its client decodes value by value on the Worker, the largest JavaScript cost of a home page's
 * miss (bench/edge.ts). The description comes cut to what shorten() looks at; cardsFromJson finishes it.
 */
export const cardJson = sql<string>`json_object(
  'id', ${films.id}, 'slug', ${films.slug}, 'title', ${films.title}, 'nameenglish', ${films.nameEnglish},
  'hinhanh', ${films.posterUrl}, 'thumb', ${films.thumbUrl}, 'trangthai', ${films.statusText}, 'ngonngu', ${films.language},
  'sotap', ${films.episodeCountText}, 'thoiluong', ${films.duration}, 'namphathanh', ${films.year}, 'chatluong', ${films.quality},
  'theloai', ${films.genreNames}, 'quocgia', ${films.countryNames},
  'descripts', substr(${films.description}, 1, ${sql.raw(String(CARD_DESCRIPTION_LENGTH + 1))}),
  'views', ${films.views}, 'likes', ${films.likes}, 'category_id', ${films.categoryId}, 'VIP1', ${films.vipOnly} != 0,
  'createdAt', ${films.createdAt}, 'updatedAt', ${films.updatedAt})`;

/** The `card` column of a list's rows (cardJson, in the list's order) as one JSON array; '[]' when there are none. */
export const cardArray = (card: SQL.Aliased<string>) => sql<string>`coalesce('[' || group_concat(${card}, ',') || ']', '[]')`;

/** Films as cards, for cardList: `cardList(db, selectCards(db).where(…).orderBy(…).limit(…))`. */
export const selectCards = (db: Db) => db.select({ card: cardJson.as('card') }).from(films);

/** A select of cards ({ card: cardJson.as('card') }, ordered and limited as the list is) as one row of their JSON array. */
export function cardList(db: Db, select: { as(alias: 'list'): Subquery & { card: SQL.Aliased<string> } }) {
  const list = select.as('list');
  return db.select({ cards: cardArray(list.card) }).from(list);
}

/** A cardList's row (or a select's row carrying a cardArray as `cards`) → the cards, each description cut as toFilmCard cuts it. */
export function cardsFromJson(rows: readonly { cards: string }[]): FilmCard[] {
  const cards = JSON.parse(rows[0]?.cards ?? '[]') as FilmCard[];
  for (const card of cards) card.descripts = shorten(card.descripts, CARD_DESCRIPTION_LENGTH);
  return cards;
}

/** Database row → the spec's wire fields. */
export function toFilmCard(row: CardRow, fullDescription = false): FilmCard {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    nameenglish: row.nameEnglish,
    hinhanh: row.posterUrl,
    thumb: row.thumbUrl,
    trangthai: row.statusText,
    ngonngu: row.language,
    sotap: row.episodeCountText,
    thoiluong: row.duration,
    namphathanh: row.year,
    chatluong: row.quality,
    theloai: row.genreNames,
    quocgia: row.countryNames,
    descripts: fullDescription ? row.description : shorten(row.description, CARD_DESCRIPTION_LENGTH),
    views: row.views,
    likes: row.likes,
    category_id: row.categoryId,
    VIP1: row.vipOnly ? 1 : 0,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
