import { and, asc, desc, eq, ne, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { countries, episodes, filmCountries, filmGenres, films, genres } from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { notFound } from '../../lib/errors';
import type { TtlCache } from '../../lib/ttl-cache';
import type { EpisodeLink, FilmCard, FilmDetail, FilmDetailResponse, ServerEpisodes } from '../../schemas/catalogue';
import { vipAccess } from './access';
import { cardColumns, toFilmCard } from './film-card';
import { hasGenre } from './listing';
import { filmComments } from '../comments/comments';
import { ownRating, ratingSummary } from '../ratings/ratings';

const RECOMMENDED = 8;

type EpisodeRow = typeof episodes.$inferSelect;

function toEpisodeLink(row: EpisodeRow, withLinks: boolean): EpisodeLink {
  const link_m3u8 = withLinks ? row.m3u8Url : '';
  const link_embed = withLinks ? row.embedUrl : '';
  return {
    id: row.id,
    episode: row.episode,
    name: row.name,
    server_name: row.serverName,
    linkfilm: link_m3u8 || link_embed,
    link_m3u8,
    link_embed,
  };
}

/** Groups episodes by server in first-seen server order, each server's list by episode number. */
export function groupByServer(rows: EpisodeRow[], withLinks: boolean): ServerEpisodes[] {
  const servers = new Map<string, EpisodeLink[]>();
  for (const row of rows) {
    const list = servers.get(row.serverName) ?? [];
    list.push(toEpisodeLink(row, withLinks));
    servers.set(row.serverName, list);
  }
  return [...servers].map(([server_name, linkfilms]) => ({ server_name, linkfilms: linkfilms.sort((a, b) => a.episode - b.episode) }));
}

/** The film with its taxonomy, episodes (links included) and recommendations: the same for every viewer. */
async function loadFilmRecord(db: Db, where: SQL) {
  const [film] = await db
    .select({ ...cardColumns, director: films.director, actors: films.actors })
    .from(films)
    .where(where)
    .limit(1);
  if (!film) return null;
  const [genreRows, countryRows, episodeRows] = await Promise.all([
    db
      .select({ slug: genres.slug, name: genres.name })
      .from(filmGenres)
      .innerJoin(genres, eq(genres.id, filmGenres.genreId))
      .where(eq(filmGenres.filmId, film.id)),
    db
      .select({ slug: countries.slug, name: countries.name })
      .from(filmCountries)
      .innerJoin(countries, eq(countries.id, filmCountries.countryId))
      .where(eq(filmCountries.filmId, film.id)),
    db.select().from(episodes).where(eq(episodes.filmId, film.id)).orderBy(asc(episodes.id)),
  ]);
  const recommendedFilms = await recommended(
    db,
    film.id,
    genreRows.map((g) => g.slug),
  );
  return { film, genreRows, countryRows, episodeRows, recommendedFilms };
}

export type FilmRecord = NonNullable<Awaited<ReturnType<typeof loadFilmRecord>>>;

/** Film records by 'slug:{slug}' or 'id:{id}', shared by every request of one app instance. */
export type FilmRecordCache = TtlCache<FilmRecord>;

/** The film's detail for this viewer: links are withheld unless the viewer may watch it. */
export async function loadFilmDetail(db: Db, key: { slug: string } | { id: number }, viewer: Viewer | null, cache?: FilmRecordCache) {
  const cacheKey = 'slug' in key ? `slug:${key.slug}` : `id:${key.id}`;
  const where = 'slug' in key ? eq(films.slug, key.slug) : eq(films.id, key.id);
  const hit = cache?.get(cacheKey);
  const record = hit ?? (await loadFilmRecord(db, where));
  if (!record) throw notFound('Không tìm thấy phim');
  if (!hit) cache?.set(cacheKey, record);
  const { film, genreRows, countryRows, episodeRows, recommendedFilms } = record;
  const access = vipAccess(film.vipOnly, viewer);
  const servers = groupByServer(episodeRows, access === 'allowed');
  const detail: FilmDetail = {
    ...toFilmCard(film, true),
    daodien: film.director,
    dienvien: film.actors,
    genres: genreRows,
    countries: countryRows,
    linkfilms: servers[0]?.linkfilms ?? [],
    servers,
  };
  return { detail, access, recommended: recommendedFilms, cached: hit !== undefined };
}

/** The most viewed films of this film's first genre (its main one), itself excluded. */
async function recommended(db: Db, filmId: number, genreSlugs: string[]): Promise<FilmCard[]> {
  const [main] = genreSlugs;
  if (!main) return [];
  const rows = await db
    .select(cardColumns)
    .from(films)
    .where(and(hasGenre(main), ne(films.id, filmId)))
    .orderBy(desc(films.views), desc(films.id))
    .limit(RECOMMENDED);
  return rows.map((r) => toFilmCard(r));
}

/** GET /api/product/{slug}: the spec's detail response, with the VIP flags of docs/decisions/0003-vip-access.md. */
export async function filmDetailBySlug(
  db: Db,
  slug: string,
  viewer: Viewer | null,
  cache?: FilmRecordCache,
): Promise<FilmDetailResponse & { cached: boolean }> {
  const { detail, access, recommended: recommendedFilms, cached } = await loadFilmDetail(db, { slug }, viewer, cache);
  // Comments and ratings are read fresh every time: a new comment or rating shows on the next load.
  const [commentList, general_assessment, own] = await Promise.all([
    filmComments(db, detail.id),
    ratingSummary(db, detail.id),
    viewer ? ownRating(db, detail.id, viewer.id) : null,
  ]);
  return {
    datafilm: detail,
    comments: commentList,
    rating_star: { rating: own },
    general_assessment,
    recommended: recommendedFilms,
    cached,
    ...(access === 'error1' ? { error1: true } : access === 'error' ? { error: true } : {}),
  };
}
