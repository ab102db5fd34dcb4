import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { fold } from '../../db/fold';
import { countries, filmCountries, filmGenres, films, genres } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import type { FilmCard, ListingQuery, Paginated } from '../../schemas/catalogue';
import { COUNTRIES, GENRES, PAGE_SIZE, type ListingScope } from '../../schemas/taxonomy';
import { cardColumns, toFilmCard } from './film-card';

const genreSlugs = new Set(GENRES.map((g) => g.slug));
const countrySlugs = new Set(COUNTRIES.map((c) => c.slug));

/** Films in a genre: the slug resolves once (scalar subquery), then the (genre_id, film_id) index answers. */
export const hasGenre = (slug: string) =>
  sql`${films.id} in (select ${filmGenres.filmId} from ${filmGenres} where ${filmGenres.genreId} = (select ${genres.id} from ${genres} where ${genres.slug} = ${slug}))`;

export const hasCountry = (slug: string) =>
  sql`${films.id} in (select ${filmCountries.filmId} from ${filmCountries} where ${filmCountries.countryId} = (select ${countries.id} from ${countries} where ${countries.slug} = ${slug}))`;

/** Escapes LIKE wildcards so user text matches literally (used with ESCAPE '\'). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function containsFolded(column: typeof films.searchText, text: string): SQL {
  return sql`${column} like ${`%${likeLiteral(fold(text))}%`} escape '\\'`;
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
  if (query.keyword) conditions.push(containsFolded(films.searchText, query.keyword));
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

/** One page of a genre / country / category listing with the filter bar applied. */
export async function listFilms(db: Db, scope: ListingScope, query: ListingQuery): Promise<Paginated<FilmCard>> {
  const where = and(scopeCondition(scope), ...filterConditions(query));
  const [rows, [total]] = await Promise.all([
    db
      .select(cardColumns)
      .from(films)
      .where(where)
      .orderBy(...listingOrder(query.sort))
      .limit(PAGE_SIZE)
      .offset((query.page - 1) * PAGE_SIZE),
    db.select({ n: count() }).from(films).where(where),
  ]);
  return { data: rows.map((r) => toFilmCard(r)), pagination: pagination(query.page, PAGE_SIZE, total?.n ?? 0) };
}

/** GET /api/product: every film, a page at a time (admin list and anything that needs the catalogue). */
export async function listAllFilms(db: Db, input: { page: number; pageSize: number; q?: string }): Promise<Paginated<FilmCard>> {
  const where = input.q ? containsFolded(films.searchText, input.q) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select(cardColumns)
      .from(films)
      .where(where)
      .orderBy(desc(films.updatedAt), desc(films.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize),
    db.select({ n: count() }).from(films).where(where),
  ]);
  return { data: rows.map((r) => toFilmCard(r)), pagination: pagination(input.page, input.pageSize, total?.n ?? 0) };
}

