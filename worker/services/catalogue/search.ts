import { desc, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { fold } from '../../db/fold';
import { batchPrepared, preparedOnce, sqlLimit } from '../../db/prepared';
import { films } from '../../db/schema';
import { type AnySQLiteColumn, alias } from 'drizzle-orm/sqlite-core';
import type { SearchResults } from '../../schemas/catalogue';
import { PEOPLE_SUGGESTIONS, peopleSuggestionStatement, toPersonSuggestions } from '../people/people';
import { cardArray, cardJson, cardsFromJson } from './film-card';
import { ftsPhrase, likeLiteral, pagination } from './listing';

/** Trigram FTS needs 3 characters; shorter queries are a prefix match on the folded title instead. */
const TRIGRAM = 3;
/**
 * Candidates ranked per query from each source (docs/decisions/0607): the first folded titles starting
 * with the query (the exact title sorts first there) and the newest FTS matches. Up to this many, every
 * match is a candidate, so the ranking is the full one; a word matching 50,000 titles ranks 2 × 200 rows.
 */
export const SEARCH_CANDIDATES = 200;

const p = {
  folded: sql.placeholder('folded'),
  phrase: sql.placeholder('phrase'),
  upper: sql.placeholder('upper'),
  prefix: sql.placeholder('prefix'),
  word: sql.placeholder('word'),
  inside: sql.placeholder('inside'),
  limit: sql.placeholder('limit'),
  offset: sql.placeholder('offset'),
  candidates: sql.placeholder('candidates'),
  needed: sql.placeholder('needed'),
};

/** Folded titles starting with the query, as an index range (films_title_folded) rather than a scan. */
const titleStartsWith = sql`(${films.titleFolded} >= ${p.folded} and ${films.titleFolded} < ${p.upper})`;
// A quoted FTS5 string is a phrase; with the trigram tokenizer that is a substring match.
const ftsMatch = sql`${films.id} in (select rowid from films_fts where films_fts match ${p.phrase})`;

// Bounded candidate sets: an index range and an FTS doclist, each read for its first rows only.
/**
 * The first folded titles starting with the query, with what the ranking reads (title, views) taken from
 * the films_title_views index: no film row is read to rank them, which at 100,000 films was most of a
 * suggestion's time (a row read per candidate, mostly outside SQLite's page cache; docs/decisions/0608).
 */
const titleRows = sql`select ${films.id}, ${films.titleFolded}, ${films.views} from ${films} where ${titleStartsWith} order by ${films.titleFolded} limit ${p.candidates}`;
/**
 * The FTS candidates only add words and substrings inside titles, which rank after every title starting
 * with the query: when at least a page's worth of titles start with it (counted in the title index, up to
 * the page's end), the page is made of those alone and the FTS read is skipped. A LIMIT of 0 is tested
 * before the virtual table is opened; the same test in WHERE would run per FTS row and read the whole
 * doclist (docs/decisions/0608).
 */
const ftsLimit = sql`(select case when count(*) >= ${p.needed} then 0 else ${p.candidates} end from (select 1 from ${films} where ${titleStartsWith} limit ${p.needed}))`;
const ftsCandidates = sql`select rowid from films_fts where films_fts match ${p.phrase} order by rowid desc limit ${ftsLimit}`;
const ftsRows = sql`select ${films.id}, ${films.titleFolded}, ${films.views} from ${films} where ${films.id} in (${ftsCandidates})`;
// The candidate rows (id, title_folded, views) under the name of an alias of films, so the ranking reads
// their columns as it reads a film's.
const candidates = alias(films, 'candidates');
const boundedFts = sql`(select * from (${titleRows}) union select * from (${ftsRows})) as ${candidates}`;
const boundedPrefix = sql`(${titleRows}) as ${candidates}`;
// Counted in the FTS index (or the title index) alone, not joined to films: the exact number of matches
// for a fraction of a millisecond even when they are tens of thousands.
const ftsCount = sql<number>`(select count(*) from films_fts where films_fts match ${p.phrase})`;
const prefixCount = sql<number>`(select count(*) from ${films} where ${titleStartsWith})`;
/**
 * A deep page ranks every match; a page past the last one gets LIMIT 0 (tested before the ranking starts)
 * after counting the matches in the index alone, instead of ranking them all to return nothing
 * (docs/decisions/0608).
 */
const pastTheEnd = (count: SQL<number>) => sql`(select case when ${count} > ${p.offset} then ${p.limit} else 0 end)`;

/** The columns the ranking reads, from films or from the candidate rows. */
type RankColumns = { id: AnySQLiteColumn; titleFolded: AnySQLiteColumn; views: AnySQLiteColumn };

const rankOf = (t: RankColumns) => sql`case
    when ${t.titleFolded} = ${p.folded} then 0
    when ${t.titleFolded} like ${p.prefix} escape '\\' then 1
    when ${t.titleFolded} like ${p.word} escape '\\' then 2
    when ${t.titleFolded} like ${p.inside} escape '\\' then 3
    else 4 end`;

/**
 * One statement per search: the page of ranked ids with the match count beside each row (a window over
 * the matches the ranking sorts anyway, so the FTS match runs once, not again for a count), joined to
 * the card columns of that page alone. Built once per database and reused with placeholders: building
 * drizzle's SQL was a third of a suggestion's CPU (bench/service.ts).
 */
function searchStatement(
  db: Db,
  source: { from: SQL | typeof films; t: RankColumns },
  where: SQL | undefined,
  total: SQL<number> = sql<number>`count(*) over ()`,
  limit: SQL = sql`${p.limit}`,
) {
  const { t } = source;
  const rank = rankOf(t);
  const ranked = db
    // Raw columns: drizzle refuses a table's columns over rows it does not know are that table's.
    .select({
      id: sql<number>`${t.id}`.as('id'),
      rank: rank.as('rank'),
      views: sql<number>`${t.views}`.as('views'),
      total: total.as('total'),
    })
    // A table or rows: drizzle renders either; its types want one kind per call.
    .from(source.from as SQL)
    .where(where)
    .orderBy(rank, desc(t.views), desc(t.id))
    .limit(sqlLimit(limit))
    .offset(p.offset)
    .as('ranked');
  // The page's cards in rank order as one JSON array (film-card.ts cardList), with the total its rows carry.
  const list = db
    .select({ card: cardJson.as('card'), total: ranked.total })
    .from(ranked)
    .innerJoin(films, sql`${films.id} = "ranked"."id"`)
    .orderBy(sql`"ranked"."rank"`, sql`"ranked"."views" desc`, sql`"ranked"."id" desc`)
    .as('list');
  return db
    .select({ cards: cardArray(list.card), total: sql<number | null>`max(${list.total})` })
    .from(list)
    .prepare();
}

/** A page past the last match has no row to carry the count: count on its own then. */
function countStatement(db: Db, where: SQL, from: SQL | typeof films = films) {
  return db.select({ n: sql<number>`count(*)` }).from(from).where(where).prepare();
}

/** Built once per database (db/prepared.ts). */
const statementsFor = preparedOnce((db: Db) => ({
  fts: {
    bounded: searchStatement(db, { from: boundedFts, t: candidates }, undefined, ftsCount),
    page: searchStatement(db, { from: films, t: films }, ftsMatch, undefined, pastTheEnd(ftsCount)),
    // In the FTS index alone, as the first page counts: not joined to films.
    count: countStatement(db, sql`films_fts match ${p.phrase}`, sql`films_fts`),
  },
  prefix: {
    bounded: searchStatement(db, { from: boundedPrefix, t: candidates }, undefined, prefixCount),
    page: searchStatement(db, { from: films, t: films }, titleStartsWith, undefined, pastTheEnd(prefixCount)),
    count: countStatement(db, titleStartsWith),
  },
}));

/**
 * Diacritics-insensitive title search (docs/decisions/0002), ranked: exact title, title prefix, a word
 * of the title starting with the query, any other substring (English name included); ties by views.
 * Pages within the first SEARCH_CANDIDATES results rank the bounded candidate sets (the whole ranking
 * whenever a query matches fewer titles); a deeper page ranks every match, as rare as it is costly.
 */
export async function searchFilms(db: Db, input: { q: string; limit: number; page: number }): Promise<SearchResults> {
  const folded = fold(input.q);
  if (!folded) return { data: [], pagination: pagination(input.page, input.limit, 0), people: [] };
  const literal = likeLiteral(folded);
  const values = {
    folded,
    phrase: ftsPhrase(folded),
    upper: `${folded}\uffff`,
    prefix: `${literal}%`,
    word: `% ${literal}%`,
    inside: `%${literal}%`,
    limit: input.limit,
    offset: (input.page - 1) * input.limit,
    candidates: SEARCH_CANDIDATES,
    needed: input.page * input.limit,
  };
  const { bounded, page, count } = statementsFor(db)[folded.length < TRIGRAM ? 'prefix' : 'fts'];
  const statement = input.page * input.limit <= SEARCH_CANDIDATES ? bounded : page;
  // The first page also suggests people whose name starts with the query (issue 40 §1), in the same round trip.
  if (input.page === 1) {
    const [rows, peopleRows] = await batchPrepared(db, [statement, peopleSuggestionStatement(db)] as const, {
      ...values,
      peopleLimit: PEOPLE_SUGGESTIONS,
    });
    return {
      data: cardsFromJson(rows),
      pagination: pagination(input.page, input.limit, rows[0]?.total ?? 0),
      people: toPersonSuggestions(peopleRows),
    };
  }
  const rows = await statement.all(values);
  const total = rows[0]?.total ?? (await count.all(values))[0]?.n ?? 0;
  return { data: cardsFromJson(rows), pagination: pagination(input.page, input.limit, total), people: [] };
}
