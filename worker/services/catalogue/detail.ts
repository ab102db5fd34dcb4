import { and, asc, avg, count, desc, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { comments, countries, episodes, filmCountries, filmGenres, films, genres, ratings, users } from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { notFound } from '../../lib/errors';
import type { TtlCache } from '../../lib/ttl-cache';
import type { EpisodeLink, FilmCard, FilmDetail, FilmDetailResponse, ServerEpisodes } from '../../schemas/catalogue';
import type { CommentDto } from '../../schemas/comments';
import { vipAccess } from './access';
import { cardColumns, toFilmCard } from './film-card';
import { hasGenre } from './listing';

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

export async function filmComments(db: Db, filmId: number, sinceId = 0): Promise<CommentDto[]> {
  const rows = await db
    .select({ id: comments.id, parentId: comments.parentId, body: comments.body, createdAt: comments.createdAt, username: users.username })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.userId))
    .where(and(eq(comments.filmId, filmId), sql`${comments.id} > ${sinceId}`))
    .orderBy(asc(comments.id));
  return rows.map((r) => ({ id: r.id, parent_id: r.parentId, comment: r.body, createdAt: r.createdAt, users: { username: r.username } }));
}

export async function ratingSummary(db: Db, filmId: number) {
  const [row] = await db
    .select({ total: count(), average: avg(ratings.stars) })
    .from(ratings)
    .where(eq(ratings.filmId, filmId));
  const total = row?.total ?? 0;
  return { totalRatings: total, averageRating: total > 0 && row?.average != null ? Math.round(Number(row.average) * 10) / 10 : null };
}

/** GET /api/product/{slug}: the spec's detail response, with the VIP flags of SPEC.md §6. */
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
    viewer
      ? db
          .select({ stars: ratings.stars })
          .from(ratings)
          .where(and(eq(ratings.filmId, detail.id), eq(ratings.userId, viewer.id)))
          .limit(1)
      : Promise.resolve([]),
  ]);
  return {
    datafilm: detail,
    comments: commentList,
    rating_star: { rating: own[0]?.stars ?? null },
    general_assessment,
    recommended: recommendedFilms,
    cached,
    ...(access === 'error1' ? { error1: true } : access === 'error' ? { error: true } : {}),
  };
}
