import { asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { batchPrepared, type PreparedResults, preparedOnce } from '../../db/prepared';
import { alias } from 'drizzle-orm/sqlite-core';
import {
  countries,
  episodeReleases,
  episodes,
  filmAliases,
  filmCountries,
  filmGenres,
  filmPeople,
  films,
  filmSources,
  genres,
  people,
  sources,
} from '../../db/schema';
import type { Session, Viewer } from '../../lib/context';
import { notFound } from '../../lib/errors';
import type { TtlCache } from '../../lib/ttl-cache';
import type { EpisodeLink, FilmDetail, FilmDetailResponse, ServerEpisodes, ServerSource } from '../../schemas/catalogue';
import { type FilmExtras, TMDB_MIN_VOTES } from '../../schemas/discovery';
import { batchWithViewer } from '../auth/viewer';
import { filmRankStatement, filmTop10, top10Values } from '../plays/plays';
import { vipAccess } from './access';
import { cardColumns, toFilmCard } from './film-card';
import { relatedFromJson, relatedList } from '../related/related-list';
import { filmThreadQueries, toThreadPage } from '../comments/comments';
import { FilmMovedError, keptSlugOf } from './film-lookup';
import { ownRatingQuery, ratingSummaryQuery, toRatingSummary } from '../ratings/ratings';
import { filmScheduleOf, RELEASES_READ } from '../schedule/film-schedule';
import { predictSchedule } from '../schedule/predict';

/** "Các phần" shows at most this many seasons of a show. */
const MAX_SEASONS = 30;
const seasonFilms = alias(films, 'season_films');

/** What a film page needs of an episode. */
type EpisodeRow = Pick<typeof episodes.$inferSelect, 'id' | 'serverName' | 'episode' | 'name' | 'm3u8Url' | 'embedUrl'> & {
  source: ServerSource | null;
};

/**
 * The order a film's servers are offered and tried in (the player's failover walks it): servers added by hand
 * first, then each source's by its priority, a down source's ("Không phản hồi") or a disabled one's last; within a
 * source, its own order. One ORDER BY for the film page and the episode link (watch.ts).
 */
export const serverOrder = [
  sql`coalesce(${sources.down} or not ${sources.enabled}, 0)`,
  sql`case when ${episodes.filmSourceId} is null then -1 else coalesce(${sources.priority}, 1000000000) end`,
  sql`coalesce(${sources.id}, 0)`,
  asc(episodes.id),
];

/**
 * A film's episodes in server order as one JSON array of [id, server, episode, name, m3u8, embed, source, down],
 * built by the database: a series has tens to hundreds of them, which Hrana would answer as a row of tagged values each.
 */
function episodeList(db: Db, filmId: SQL) {
  const list = db
    .select({
      id: episodes.id,
      server: episodes.serverName,
      episode: episodes.episode,
      name: episodes.name,
      m3u8: episodes.m3u8Url,
      embed: episodes.embedUrl,
      source: sql<string | null>`${sources.name}`.as('source'),
      down: sql<number>`coalesce(${sources.down}, 0)`.as('down'),
    })
    .from(episodes)
    .leftJoin(filmSources, eq(filmSources.id, episodes.filmSourceId))
    .leftJoin(sources, eq(sources.id, filmSources.sourceId))
    .where(eq(episodes.filmId, filmId))
    .orderBy(...serverOrder)
    .as('list');
  return db
    .select({
      list: sql<string>`coalesce(json_group_array(json_array(${list.id}, ${list.server}, ${list.episode}, ${list.name}, ${list.m3u8}, ${list.embed}, ${list.source}, ${list.down})), '[]')`,
    })
    .from(list);
}

function episodesFromJson(json: string | undefined): EpisodeRow[] {
  const rows = JSON.parse(json ?? '[]') as [number, string, number, string, string, string, string | null, number][];
  return rows.map(([id, serverName, episode, name, m3u8Url, embedUrl, source, down]) => ({
    id,
    serverName,
    episode,
    name,
    m3u8Url,
    embedUrl,
    source: source === null ? null : { name: source, down: down === 1 },
  }));
}

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

/** Groups episodes by server in first-seen server order (serverOrder), each server's list by episode number. */
export function groupByServer(rows: EpisodeRow[], withLinks: boolean): ServerEpisodes[] {
  const servers = new Map<string, { source: ServerSource | null; linkfilms: EpisodeLink[] }>();
  for (const row of rows) {
    const server = servers.get(row.serverName) ?? { source: row.source ?? null, linkfilms: [] };
    server.linkfilms.push(toEpisodeLink(row, withLinks));
    servers.set(row.serverName, server);
  }
  return [...servers].map(([server_name, { source, linkfilms }]) => ({
    server_name,
    ...(source ? { source } : {}),
    linkfilms: linkfilms.sort((a, b) => a.episode - b.episode),
  }));
}

/** A film is read by its slug (the film page) or its id (getdetail_xemphim); each has its own statements. */
type FilmKey = { slug: string } | { id: number };
type KeyKind = 'slug' | 'id';
const kindOf = (key: FilmKey): KeyKind => ('slug' in key ? 'slug' : 'id');
const valuesOf = (key: FilmKey, now: number) => ({ ...('slug' in key ? { slug: key.slug } : { id: key.id }), ...top10Values(now) });

const p = { slug: sql.placeholder('slug'), id: sql.placeholder('id'), viewer: sql.placeholder('viewer') };
/** The detail carries the newest threads: older than any id. */
const NEWEST = { before: Number.MAX_SAFE_INTEGER };

/** The film id as SQL: the id itself, or the slug's lookup as a subquery, so dependent reads need not wait for it. */
const filmIdOf = (kind: KeyKind): SQL =>
  kind === 'slug' ? sql`(select ${films.id} from ${films} where ${films.slug} = ${p.slug})` : sql`${p.id}`;

/**
 * The film's newest releases' first-seen times as one JSON array: the newest episodes by number, read in the order of
 * the (film, episode) index, so a long series costs no sort and one row (docs/decisions/1110).
 */
function releaseTimes(db: Db, filmId: SQL) {
  const newest = db
    .select({ at: episodeReleases.createdAt })
    .from(episodeReleases)
    .where(eq(episodeReleases.filmId, filmId))
    .orderBy(desc(episodeReleases.episode))
    .limit(RELEASES_READ)
    .as('newest');
  return db.select({ list: sql<string>`coalesce(json_group_array(${newest.at}), '[]')` }).from(newest);
}

/**
 * The statements of a film record: the film, its taxonomy, episodes (links included) and
 * recommendations, the same for every viewer. Each finds the film by its key on its own, so all of them
 * go to the database in one batch: one round trip on Workers instead of three in sequence.
 */
function recordQueries(db: Db, kind: KeyKind) {
  const id = filmIdOf(kind);
  return [
    db
      .select({
        ...cardColumns,
        director: films.director,
        actors: films.actors,
        status: films.status,
        trailerId: films.trailerId,
        showtimes: films.showtimes,
        notify: films.notify,
        chieurap: films.chieurap,
        tmdbVoteAverage: films.tmdbVoteAverage,
        tmdbVoteCount: films.tmdbVoteCount,
      })
      .from(films)
      .where(kind === 'slug' ? eq(films.slug, p.slug) : eq(films.id, p.id))
      .limit(1)
      .prepare(),
    db
      .select({ slug: genres.slug, name: genres.name })
      .from(filmGenres)
      .innerJoin(genres, eq(genres.id, filmGenres.genreId))
      .where(eq(filmGenres.filmId, id))
      .orderBy(asc(filmGenres.genreId))
      .prepare(),
    db
      .select({ slug: countries.slug, name: countries.name })
      .from(filmCountries)
      .innerJoin(countries, eq(countries.id, filmCountries.countryId))
      .where(eq(filmCountries.filmId, id))
      .prepare(),
    episodeList(db, id).prepare(),
    // "Phim tương tự" (docs/decisions/1090): the film's precomputed related list, best first, each with its reason.
    relatedList(db, id).prepare(),
    // Slugs merged into this film (docs/decisions/0104): a device's downloads under one of them are this film's.
    db.select({ slug: filmAliases.slug }).from(filmAliases).where(eq(filmAliases.filmId, id)).prepare(),
    // Its directors and actors, linked (issue 40 §1), in the source's order.
    db
      .select({ slug: people.slug, name: people.name, role: filmPeople.role })
      .from(filmPeople)
      .innerJoin(people, eq(people.id, filmPeople.personId))
      .where(eq(filmPeople.filmId, id))
      .orderBy(asc(filmPeople.role), asc(filmPeople.position))
      .prepare(),
    // "Các phần": the films of the same TMDB tv show, by season (no season or a junk one last, by year).
    db
      .select({ slug: seasonFilms.slug, title: seasonFilms.title, season: seasonFilms.tmdbSeason, year: seasonFilms.year })
      .from(seasonFilms)
      .where(
        sql`${seasonFilms.tmdbType} = 'tv' and ${seasonFilms.tmdbId} = (select ${films.tmdbId} from ${films} where ${films.id} = ${id} and ${films.tmdbType} = 'tv')`,
      )
      .orderBy(sql`${seasonFilms.tmdbSeason} is null`, asc(seasonFilms.tmdbSeason), asc(seasonFilms.year), asc(seasonFilms.id))
      .limit(MAX_SEASONS)
      .prepare(),
    // "#3 phim bộ hôm nay" (issue 40 §3).
    filmRankStatement(db, id).prepare(),
    // When its newest episodes first appeared: "Tập mới: Thứ 4 · khoảng 20:00 (dự kiến)" (issue 40 §5, decision 1110).
    releaseTimes(db, id).prepare(),
  ] as const;
}

/** The comments and ratings, read fresh on every request so a new comment or rating shows on the next load. */
function freshQueries(db: Db, kind: KeyKind | 'hit') {
  // On a record cache hit the id is known: no slug lookup.
  const id = kind === 'slug' ? filmIdOf('slug') : filmIdOf('id');
  const [thread, roots, total] = filmThreadQueries(db, id, p.viewer as unknown as number, sql.placeholder('before') as unknown as number);
  return [
    // The newest threads with their replies, the viewer's own held comments too, less the members they hid, the
    // next page's cursor and the film's count (services/comments/comments.ts): bounded however long the thread.
    thread.prepare(),
    roots.prepare(),
    total.prepare(),
    ratingSummaryQuery(db, id).prepare(),
    // A placeholder where the builder takes the user id (drizzle binds either); user ids start at 1, so a
    // signed-out viewer (0) has no row.
    ownRatingQuery(db, id, p.viewer as unknown as number).prepare(),
  ] as const;
}

/** Built once per database (worker/db/prepared.ts). */
const statementsFor = preparedOnce((db: Db) => ({
  record: { slug: recordQueries(db, 'slug'), id: recordQueries(db, 'id') },
  fresh: { slug: freshQueries(db, 'slug'), id: freshQueries(db, 'id') },
}));

type RecordStatements = ReturnType<typeof recordQueries>;
type RecordResults = Awaited<ReturnType<typeof batchPrepared<RecordStatements>>>;

function toRecord([
  [film],
  genreRows,
  countryRows,
  episodeRows,
  recommendedRows,
  aliasRows,
  peopleRows,
  seasonRows,
  rankRows,
  releaseRows,
]: RecordResults) {
  if (!film) return null;
  const person = (role: string) => peopleRows.filter((r) => r.role === role).map(({ slug, name }) => ({ slug, name }));
  const extras: FilmExtras = {
    directors: person('director'),
    actors: person('actor'),
    trailer: film.trailerId,
    showtimes: film.showtimes,
    notify: film.notify,
    chieurap: film.chieurap,
    tmdb:
      film.tmdbVoteAverage !== null && film.tmdbVoteCount !== null && film.tmdbVoteCount >= TMDB_MIN_VOTES && film.tmdbVoteAverage > 0
        ? { score: film.tmdbVoteAverage, votes: film.tmdbVoteCount }
        : null,
    seasons: seasonRows.length > 1 ? seasonRows : [],
    top10: filmTop10(rankRows),
  };
  return {
    extras,
    prediction: film.status === 'ongoing' ? predictSchedule(JSON.parse(releaseRows[0]?.list ?? '[]') as number[]) : null,
    film,
    genreRows,
    countryRows,
    episodeRows: episodesFromJson(episodeRows[0]?.list),
    recommendedFilms: relatedFromJson(recommendedRows),
    aliases: aliasRows.map((a) => a.slug),
  };
}

export type FilmRecord = NonNullable<ReturnType<typeof toRecord>>;

/** Film records by 'slug:{slug}' or 'id:{id}', shared by every request of one app instance. */
export type FilmRecordCache = TtlCache<FilmRecord>;

const cacheKeyOf = (key: FilmKey) => ('slug' in key ? `slug:${key.slug}` : `id:${key.id}`);

/** The film's detail for this viewer from its record: links are withheld unless the viewer may watch it. */
function detailOf(record: FilmRecord, viewer: Viewer | null, now: number) {
  const { film, genreRows, countryRows, episodeRows, recommendedFilms, aliases, extras, prediction } = record;
  const access = vipAccess(film.vipOnly, viewer);
  const servers = groupByServer(episodeRows, access === 'allowed');
  const detail: FilmDetail = {
    ...toFilmCard(film, true),
    daodien: film.director,
    dienvien: film.actors,
    ongoing: film.status === 'ongoing',
    schedule: filmScheduleOf(prediction, now),
    genres: genreRows,
    countries: countryRows,
    linkfilms: servers[0]?.linkfilms ?? [],
    servers,
    ...(aliases.length ? { aliases } : {}),
    ...extras,
  };
  return { detail, access, recommended: recommendedFilms };
}

/** The film's detail for this viewer: links are withheld unless the viewer may watch it. */
export async function loadFilmDetail(db: Db, key: FilmKey, viewer: Viewer | null, cache?: FilmRecordCache, now = Date.now()) {
  const hit = cache?.get(cacheKeyOf(key));
  const record = hit ?? toRecord(await batchPrepared(db, statementsFor(db).record[kindOf(key)], valuesOf(key, now)));
  if (!record) throw notFound('Không tìm thấy phim');
  if (!hit) cache?.set(cacheKeyOf(key), record);
  return { ...detailOf(record, viewer, now), cached: hit !== undefined };
}

const threadFields = (page: ReturnType<typeof toThreadPage>) => ({
  comments: page.comments,
  comments_cursor: page.cursor,
  comments_total: page.total,
});

/**
 * GET /api/product/{slug}: the spec's detail response, with the VIP flags of docs/decisions/0003-vip-access.md. One batch, so
 * one round trip on Workers, signed in or not: the record (unless cached) with the comments and ratings,
 * which are read fresh every time so a new comment or rating shows on the next load, and the viewer
 * behind a verified token (services/auth/viewer.ts). Also answers that viewer (null when signed out or
 * retired), for the response's cache rule.
 */
export async function filmDetailBySlug(
  db: Db,
  slug: string,
  who: { session: Session | null; now: number },
  cache?: FilmRecordCache,
): Promise<FilmDetailResponse & { cached: boolean; viewer: Viewer | null }> {
  const key = { slug };
  const hit = cache?.get(cacheKeyOf(key));
  const statements = statementsFor(db);
  // The token's user id for the own rating; used only once the viewer is known to be current.
  const viewerId = who.session?.userId ?? 0;
  let record: FilmRecord | null | undefined = hit;
  let fresh: PreparedResults<(typeof statements.fresh)['id']>;
  let viewer: Viewer | null;
  if (hit) {
    ({ viewer, results: fresh } = await batchWithViewer(db, who.session, who.now, statements.fresh.id, {
      id: hit.film.id,
      viewer: viewerId,
      ...NEWEST,
    }));
  } else {
    const read = await batchWithViewer(db, who.session, who.now, [...statements.record.slug, ...statements.fresh.slug] as const, {
      slug,
      viewer: viewerId,
      ...NEWEST,
      ...top10Values(who.now),
    });
    // The record's statements come first in the batch, then the fresh ones: one split, whatever either list holds.
    const recordCount = statements.record.slug.length;
    viewer = read.viewer;
    record = toRecord(read.results.slice(0, recordCount) as unknown as RecordResults);
    fresh = read.results.slice(recordCount) as unknown as typeof fresh;
    if (record) cache?.set(cacheKeyOf(key), record);
  }
  const [commentRows, rootRows, countRows, ratingRows, own] = fresh;
  if (!record) {
    // A film merged into another: its slug answers 301 there (docs/decisions/0104).
    const kept = await keptSlugOf(db, slug);
    if (kept) throw new FilmMovedError(kept, slug);
    throw notFound('Không tìm thấy phim');
  }
  const { detail, access, recommended: recommendedFilms } = detailOf(record, viewer, who.now);
  return {
    datafilm: detail,
    ...threadFields(toThreadPage([commentRows, rootRows, countRows], viewer?.id ?? 0)),
    rating_star: { rating: viewer ? (own[0]?.stars ?? null) : null },
    general_assessment: toRatingSummary(ratingRows),
    recommended: recommendedFilms,
    cached: hit !== undefined,
    viewer,
    ...(access === 'error1' ? { error1: true } : access === 'error' ? { error: true } : {}),
  };
}
