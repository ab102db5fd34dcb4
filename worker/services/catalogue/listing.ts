import { and, count, desc, eq, like, type Placeholder, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { fold } from '../../db/fold';
import { batchPrepared, preparedOnce, sqlLimit } from '../../db/prepared';
import { countries, filmCountries, filmGenres, films, genres, listingCounts, listingFacetCounts } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import type { FilmCard, ListingQuery, Paginated } from '../../schemas/catalogue';
import { COUNTRIES, GENRES, PAGE_SIZE, type ListingScope } from '../../schemas/taxonomy';
import { cardList, cardsFromJson, selectCards } from './film-card';

const genreSlugs = new Set(GENRES.map((g) => g.slug));
const countrySlugs = new Set(COUNTRIES.map((c) => c.slug));

/** A slug given now, or a placeholder of a statement prepared once. */
type Slug = string | Placeholder;

const genreId = (slug: Slug) => sql`(select ${genres.id} from ${genres} where ${genres.slug} = ${slug})`;
const countryId = (slug: Slug) => sql`(select ${countries.id} from ${countries} where ${countries.slug} = ${slug})`;

/**
 * Films in a genre, as a correlated EXISTS: with ORDER BY … LIMIT the planner walks the sort index and
 * stops after a page, instead of sorting every member (measured at 20k films: 0.8 ms vs 8 ms).
 */
export const hasGenre = (slug: Slug) =>
  sql`exists (select 1 from ${filmGenres} where ${filmGenres.filmId} = ${films.id} and ${filmGenres.genreId} = ${genreId(slug)})`;

export const hasCountry = (slug: Slug) =>
  sql`exists (select 1 from ${filmCountries} where ${filmCountries.filmId} = ${films.id} and ${filmCountries.countryId} = ${countryId(slug)})`;

/** Escapes LIKE wildcards so user text matches literally (used with ESCAPE '\'). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A folded text of 3 characters or more is a trigram FTS phrase: the same substring match on search_text. */
export const ftsPhrase = (folded: string) => `"${folded.replace(/"/g, '""')}"`;

/**
 * The filter bar's keyword and the admin's film search: a substring of the folded search text
 * (docs/decisions/0002, 0608). From 3 characters on it is answered by the trigram FTS index (the matches
 * are read from their doclists instead of testing every film's text with LIKE, 70 ms at 100,000 films).
 * Shorter text has no trigram to look up and is tested with LIKE: Vietnamese has many one- and two-letter
 * words ('ma', 'bố', 'hồ') a viewer expects to find anywhere in a title, so it stays a substring match
 * (a scan of the scope, the one filter whose cost still grows with the catalogue).
 */
export function containsFolded(text: string): SQL {
  const folded = fold(text);
  if (folded.length >= 3) return sql`${films.id} in (select rowid from films_fts where films_fts match ${ftsPhrase(folded)})`;
  return sql`${films.searchText} like ${`%${likeLiteral(folded)}%`} escape '\\'`;
}

function scopeCondition(scope: ListingScope): SQL {
  switch (scope.kind) {
    case 'category':
      return eq(films.categoryId, scope.category.id);
    case 'genre':
      return hasGenre(scope.genre.slug);
    case 'country':
      return hasCountry(scope.country.slug);
  }
}

/** Filter bar → SQL conditions; an unknown genre or country slug is a 400 naming its field. */
export function filterConditions(query: Omit<ListingQuery, 'page' | 'sort'>): SQL[] {
  const conditions: SQL[] = [];
  if (query.category !== undefined) {
    if (!genreSlugs.has(query.category)) throw badRequest('category', `unknown genre '${query.category}'`);
    conditions.push(hasGenre(query.category));
  }
  if (query.country !== undefined) {
    if (!countrySlugs.has(query.country)) throw badRequest('country', `unknown country '${query.country}'`);
    conditions.push(hasCountry(query.country));
  }
  if (query.type !== undefined) conditions.push(eq(films.categoryId, query.type));
  if (query.year !== undefined) conditions.push(eq(films.year, query.year));
  if (query.keyword) conditions.push(containsFolded(query.keyword));
  // "Phim chiếu rạp" (issue 40 §2): counted per request, like a keyword (not a kept facet).
  if (query.chieurap) conditions.push(eq(films.chieurap, true));
  return conditions;
}

export function listingOrder(sort: ListingQuery['sort']) {
  if (sort === 'views') return [desc(films.views), desc(films.id)];
  if (sort === 'createdAt') return [desc(films.createdAt), desc(films.id)];
  return [desc(films.updatedAt), desc(films.id)];
}

export function pagination(page: number, pageSize: number, totalItems: number) {
  return { page, pageSize, totalItems, totalPages: Math.max(1, Math.ceil(totalItems / pageSize)) };
}

/**
 * The listing_counts key of a scope, as its triggers write it (drizzle/0004_trending_rollup.sql), from the
 * scope's category id or genre/country slug (or a placeholder for one). A category id is cast: a bound JS
 * number reaches SQLite as a real, and 'category:24.0' would miss its key.
 */
function scopeKey(kind: ListingScope['kind'], value: Slug | number): SQL {
  switch (kind) {
    case 'category':
      return sql`'category:' || cast(${value} as integer)`;
    case 'genre':
      return sql`'genre:' || ${genreId(value as Slug)}`;
    case 'country':
      return sql`'country:' || ${countryId(value as Slug)}`;
  }
}

/** A page's LIMIT from a kept count: the rows left after the page's offset, at most a page (see pageLimit). */
function limitFromKept(kept: SQL, offset: number | Placeholder): number {
  return sqlLimit(sql`(select cast(max(0, min(${PAGE_SIZE}, coalesce(${kept}, 0) - ${offset})) as integer))`);
}

/**
 * The listing_facet_counts key of a scope with its filters (docs/decisions/0608), or null when the filters
 * are not facets of one film (a keyword, two different genres or countries, a type other than the
 * category's). A genre or country missing from its table is id -1: no key, a count of 0.
 */
function facetKey(scope: ListingScope, query: Omit<ListingQuery, 'page' | 'sort'>): SQL | null {
  if (query.keyword || query.chieurap) return null;
  const genre = scope.kind === 'genre' ? scope.genre.slug : undefined;
  const country = scope.kind === 'country' ? scope.country.slug : undefined;
  const category = scope.kind === 'category' ? scope.category.id : undefined;
  if (genre !== undefined && query.category !== undefined && query.category !== genre) return null;
  if (country !== undefined && query.country !== undefined && query.country !== country) return null;
  if (category !== undefined && query.type !== undefined && query.type !== category) return null;
  const genreSlug = genre ?? query.category;
  const countrySlug = country ?? query.country;
  // Integers as the triggers print them: a bound JS number reaches SQLite as a real ('2020.0').
  const part = (value: SQL | number | undefined) => (value === undefined ? sql`null` : sql`cast(${value} as integer)`);
  const id = (lookup: SQL) => sql`coalesce(${lookup}, -1)`;
  return sql`printf('g%s:k%s:c%s:y%s', ${part(genreSlug === undefined ? undefined : id(genreId(genreSlug)))}, ${part(
    countrySlug === undefined ? undefined : id(countryId(countrySlug)),
  )}, ${part(category ?? query.type)}, ${part(query.year)})`;
}

/**
 * Counts a listing. Without filters (most listing pages) the count is one row of listing_counts, and with
 * the filter bar's genre, country, type and year one row of listing_facet_counts, both kept by triggers on
 * films and their links (docs/decisions/0607, 0608): the same cost at any catalogue size. Only a keyword
 * (or two genres or two countries at once) counts per request, from the scope's membership table (the
 * (genre_id, film_id) index) joined to films rather than testing every film.
 */
async function countListing(db: Db, scope: ListingScope, query: Omit<ListingQuery, 'page' | 'sort'>, filters: SQL[]): Promise<number> {
  const key = facetKey(scope, query);
  if (key) {
    const [row] = await db.select({ n: listingFacetCounts.films }).from(listingFacetCounts).where(eq(listingFacetCounts.facets, key));
    return row?.n ?? 0;
  }
  const count = sql<number>`count(*)`;
  if (scope.kind === 'genre') {
    const [row] = await db
      .select({ n: count })
      .from(filmGenres)
      .innerJoin(films, eq(films.id, filmGenres.filmId))
      .where(and(eq(filmGenres.genreId, genreId(scope.genre.slug)), ...filters));
    return row?.n ?? 0;
  }
  if (scope.kind === 'country') {
    const [row] = await db
      .select({ n: count })
      .from(filmCountries)
      .innerJoin(films, eq(films.id, filmCountries.filmId))
      .where(and(eq(filmCountries.countryId, countryId(scope.country.slug)), ...filters));
    return row?.n ?? 0;
  }
  const [row] = await db
    .select({ n: count })
    .from(films)
    .where(and(eq(films.categoryId, scope.category.id), ...filters));
  return row?.n ?? 0;
}

/**
 * The page's LIMIT when the listing has a kept count: the rows left from the page's offset, at most a
 * page. A page past the end (any page number up to 10,000 is valid) or an empty filter combination gets
 * LIMIT 0, which SQLite tests before it starts the walk, instead of walking the whole scope to find
 * nothing (31 ms for page 10,000 of a genre at 100,000 films; docs/decisions/0608).
 */
function pageLimit(scope: ListingScope, query: ListingQuery): number {
  const key = facetKey(scope, query);
  if (!key) return PAGE_SIZE;
  const kept = sql`(select ${listingFacetCounts.films} from ${listingFacetCounts} where ${listingFacetCounts.facets} = ${key})`;
  return limitFromKept(kept, (query.page - 1) * PAGE_SIZE);
}

/**
 * A listing without filters (most listing pages) as two statements prepared once per scope kind and sort
 * and sent in one batch (docs/decisions/0610): drizzle built the page's select per request. The scope's
 * id or slug and the page's offset are placeholders.
 */
const unfilteredListing = preparedOnce((db: Db) => {
  const scope = sql.placeholder('scope');
  const offset = sql.placeholder('offset');
  const built = new Map<string, ReturnType<typeof build>>();
  function build(kind: ListingScope['kind'], sort: ListingQuery['sort']) {
    const where = kind === 'category' ? eq(films.categoryId, scope) : kind === 'genre' ? hasGenre(scope) : hasCountry(scope);
    const key = scopeKey(kind, scope);
    const kept = sql`(select ${listingCounts.films} from ${listingCounts} where ${listingCounts.scope} = ${key})`;
    return [
      cardList(
        db,
        selectCards(db)
          .where(where)
          .orderBy(...listingOrder(sort))
          .limit(limitFromKept(kept, offset))
          .offset(offset),
      ).prepare(),
      db.select({ n: listingCounts.films }).from(listingCounts).where(eq(listingCounts.scope, key)).prepare(),
    ] as const;
  }
  // Every scope kind and sort, built at once (prepareAll builds them as the app is created).
  for (const kind of ['category', 'genre', 'country'] as const)
    for (const sort of [undefined, 'createdAt', 'views'] as const) built.set(`${kind}:${sort ?? ''}`, build(kind, sort));
  return (kind: ListingScope['kind'], sort: ListingQuery['sort']) => built.get(`${kind}:${sort ?? ''}`)!;
});

const scopeValue = (scope: ListingScope) =>
  scope.kind === 'category' ? scope.category.id : scope.kind === 'genre' ? scope.genre.slug : scope.country.slug;

/** One page of a genre / country / category listing with the filter bar applied. */
export async function listFilms(db: Db, scope: ListingScope, query: ListingQuery): Promise<Paginated<FilmCard>> {
  const filters = filterConditions(query);
  if (filters.length === 0) {
    const [rows, [kept]] = await batchPrepared(db, unfilteredListing(db)(scope.kind, query.sort), {
      scope: scopeValue(scope),
      offset: (query.page - 1) * PAGE_SIZE,
    });
    return { data: cardsFromJson(rows), pagination: pagination(query.page, PAGE_SIZE, kept?.n ?? 0) };
  }
  const [rows, total] = await Promise.all([
    cardList(
      db,
      selectCards(db)
        .where(and(scopeCondition(scope), ...filters))
        .orderBy(...listingOrder(query.sort))
        .limit(pageLimit(scope, query))
        .offset((query.page - 1) * PAGE_SIZE),
    ),
    countListing(db, scope, query, filters),
  ]);
  return { data: cardsFromJson(rows), pagination: pagination(query.page, PAGE_SIZE, total) };
}

/** GET /api/product: every film, a page at a time (admin list and anything that needs the catalogue). */
export async function listAllFilms(db: Db, input: { page: number; pageSize: number; q?: string }): Promise<Paginated<FilmCard>> {
  const where = input.q ? containsFolded(input.q) : undefined;
  const [rows, [total]] = await Promise.all([
    cardList(
      db,
      selectCards(db)
        .where(where)
        .orderBy(desc(films.updatedAt), desc(films.id))
        .limit(input.pageSize)
        .offset((input.page - 1) * input.pageSize),
    ),
    // Every film has one category: without a query, the total is the sum of the kept category counts.
    where
      ? db.select({ n: count() }).from(films).where(where)
      : db
          .select({ n: sql<number>`coalesce(sum(${listingCounts.films}), 0)` })
          .from(listingCounts)
          .where(like(listingCounts.scope, 'category:%')),
  ]);
  return { data: cardsFromJson(rows), pagination: pagination(input.page, input.pageSize, total?.n ?? 0) };
}
