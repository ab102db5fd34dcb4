// Deleting a film leaves a tombstone with a snapshot of it (docs/decisions/0700-deleted-films-stay-deleted.md):
// crawls skip its source key from then on, the admin lists deleted films, and "Khôi phục" writes the film
// back through the one film writer, removing the tombstone in the same transaction.
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { countries, deletedFilms, episodes, filmCountries, filmGenres, films, filmSources, genres } from '../../db/schema';
import { ApiError, notFound } from '../../lib/errors';
import { ADMIN_DELETED_PAGE_SIZE, ADMIN_TEXTS, type DeletedFilm, type DeletedFilmsResponse } from '../../schemas/admin';
import type { CategoryId } from '../../schemas/taxonomy';
import { type FilmInput, type FilmStatus, FilmWriteError, upsertFilm } from '../films/film-writer';
import { type Actor, auditInsert } from './audit';

/** A film's source item as the snapshot keeps it (docs/decisions/0104): restored with the film. */
export interface SnapshotSource {
  sourceKey: string;
  sourceId: number | null;
  sourceSlug: string;
  label: string;
  checksum: string | null;
  tmdbType: 'movie' | 'tv' | null;
  tmdbId: string | null;
  tmdbSeason: number | null;
  imdbId: string | null;
}

/** What restores a film: the film writer's input plus its author, and its sources' items. */
export interface FilmSnapshot extends FilmInput {
  slug: string;
  createdBy: number | null;
  views: number;
  /** Absent in snapshots older than issue 32. */
  sources?: SnapshotSource[];
  /** Each episode's source item, by its key (null: added by hand); aligned with `episodes`. */
  episodeSources?: (string | null)[];
}

/** The snapshots of the films about to be deleted (fields, taxonomy slugs, every episode). */
export async function filmRestoreSnapshots(db: Db, ids: readonly number[]): Promise<FilmSnapshot[]> {
  if (!ids.length) return [];
  const [rows, genreRows, countryRows, episodeRows, sourceRows] = await Promise.all([
    db
      .select()
      .from(films)
      .where(inArray(films.id, [...ids])),
    db
      .select({ filmId: filmGenres.filmId, slug: genres.slug })
      .from(filmGenres)
      .innerJoin(genres, eq(genres.id, filmGenres.genreId))
      .where(inArray(filmGenres.filmId, [...ids])),
    db
      .select({ filmId: filmCountries.filmId, slug: countries.slug })
      .from(filmCountries)
      .innerJoin(countries, eq(countries.id, filmCountries.countryId))
      .where(inArray(filmCountries.filmId, [...ids])),
    db
      .select({
        filmId: episodes.filmId,
        serverName: episodes.serverName,
        episode: episodes.episode,
        name: episodes.name,
        m3u8Url: episodes.m3u8Url,
        embedUrl: episodes.embedUrl,
        sourceKey: filmSources.sourceKey,
      })
      .from(episodes)
      .leftJoin(filmSources, eq(filmSources.id, episodes.filmSourceId))
      .where(inArray(episodes.filmId, [...ids]))
      .orderBy(episodes.filmId, episodes.serverName, episodes.episode),
    db
      .select()
      .from(filmSources)
      .where(inArray(filmSources.filmId, [...ids])),
  ]);
  return rows.map((f) => ({
    slug: f.slug,
    title: f.title,
    nameEnglish: f.nameEnglish,
    posterUrl: f.posterUrl,
    thumbUrl: f.thumbUrl,
    statusText: f.statusText,
    status: f.status as FilmStatus,
    language: f.language,
    episodeCountText: f.episodeCountText,
    duration: f.duration,
    year: f.year,
    quality: f.quality,
    director: f.director,
    actors: f.actors,
    description: f.description,
    categoryId: f.categoryId as CategoryId,
    vipOnly: f.vipOnly,
    sourceKey: f.sourceKey,
    sourceChecksum: f.sourceChecksum,
    createdAt: f.createdAt,
    updatedAt: f.updatedAt,
    createdBy: f.createdBy,
    views: f.views,
    genreSlugs: genreRows.filter((g) => g.filmId === f.id).map((g) => g.slug),
    countrySlugs: countryRows.filter((c) => c.filmId === f.id).map((c) => c.slug),
    episodes: episodeRows.filter((e) => e.filmId === f.id).map(({ filmId: _, sourceKey: __, ...e }) => e),
    episodeSources: episodeRows.filter((e) => e.filmId === f.id).map((e) => e.sourceKey),
    identity: {
      tmdbType: f.tmdbType,
      tmdbId: f.tmdbId,
      tmdbSeason: f.tmdbSeason,
      imdbId: f.imdbId,
      originKey: f.originKey,
      year: f.year,
      kind: f.kind,
    },
    sources: sourceRows
      .filter((s) => s.filmId === f.id)
      .map((s) => ({
        sourceKey: s.sourceKey,
        sourceId: s.sourceId,
        sourceSlug: s.sourceSlug,
        label: s.label,
        checksum: s.checksum,
        tmdbType: s.tmdbType,
        tmdbId: s.tmdbId,
        tmdbSeason: s.tmdbSeason,
        imdbId: s.imdbId,
      })),
  }));
}

/** The tombstone inserts, for the delete's batch (one transaction with the deletes). */
export function tombstoneInserts(db: Db, actor: Actor, snapshots: readonly FilmSnapshot[], now: number) {
  return snapshots.map((f) => {
    // Every source's key and the film's identity: no source brings it back, under any slug or id (docs/decisions/0104).
    const keys = [...new Set([f.sourceKey, ...(f.sources ?? []).map((s) => s.sourceKey)].filter((k): k is string => !!k))];
    const tombstone = {
      slug: f.slug,
      title: f.title,
      snapshot: JSON.stringify(f),
      deletedBy: actor.id,
      deletedByEmail: actor.email,
      deletedAt: now,
      sourceKeys: JSON.stringify(keys),
      tmdbType: f.identity?.tmdbType ?? null,
      tmdbId: f.identity?.tmdbId ?? null,
      tmdbSeason: f.identity?.tmdbSeason ?? null,
      imdbId: f.identity?.imdbId ?? null,
      originKey: f.identity?.originKey ?? null,
      year: f.identity?.year ?? null,
      kind: f.identity?.kind ?? null,
    };
    return (
      db
        .insert(deletedFilms)
        .values({ ...tombstone, sourceKey: f.sourceKey ?? null })
        // Deleted again after a restore that a crawl has not yet matched: the newest snapshot wins.
        .onConflictDoUpdate({ target: deletedFilms.sourceKey, set: tombstone })
    );
  });
}

/** GET /api/admin/deleted-films?page=: newest deletions first. */
export async function listDeletedFilms(db: Db, input: { page: number }): Promise<DeletedFilmsResponse> {
  const pageSize = ADMIN_DELETED_PAGE_SIZE;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: deletedFilms.id,
        slug: deletedFilms.slug,
        title: deletedFilms.title,
        sourceKey: deletedFilms.sourceKey,
        deletedAt: deletedFilms.deletedAt,
        deletedBy: deletedFilms.deletedBy,
        deletedByEmail: deletedFilms.deletedByEmail,
      })
      .from(deletedFilms)
      .orderBy(desc(deletedFilms.deletedAt), desc(deletedFilms.id))
      .limit(pageSize)
      .offset((input.page - 1) * pageSize),
    db.select({ n: count() }).from(deletedFilms),
  ]);
  const data: DeletedFilm[] = rows.map((r) => ({
    id: r.id,
    slug: r.slug,
    title: r.title,
    fromCrawl: r.sourceKey !== null,
    deletedAt: r.deletedAt,
    deletedBy: r.deletedBy === null && !r.deletedByEmail ? null : { id: r.deletedBy, email: r.deletedByEmail },
  }));
  const totalItems = total?.n ?? 0;
  return { data, pagination: { page: input.page, pageSize, totalItems, totalPages: Math.max(1, Math.ceil(totalItems / pageSize)) } };
}

/**
 * POST /api/admin/deleted-films/{id}/restore: writes the film back from its snapshot (its slug if still
 * free) and removes the tombstone in the same transaction, so later crawls update it again. Comments,
 * ratings and view history went with the delete and do not come back.
 */
export async function restoreFilm(db: Db, actor: Actor, id: number, now: number) {
  const [row] = await db.select().from(deletedFilms).where(eq(deletedFilms.id, id));
  if (!row) throw notFound(`id: ${ADMIN_TEXTS.deletedFilmNotFound}`);
  const snapshot = JSON.parse(row.snapshot) as FilmSnapshot;
  const { createdBy, views, sources: items, episodeSources, ...input } = snapshot;
  const result = await upsertFilm(
    db,
    { ...input, actorId: actor.id },
    {
      now: () => now,
      beforeWrite: async (tx) => {
        // Conditional: of two restores at once, one removes the tombstone and writes; the other is a 409.
        const removed = await tx.delete(deletedFilms).where(eq(deletedFilms.id, id)).returning({ id: deletedFilms.id });
        if (!removed.length) throw new ApiError(409, 'conflict', ADMIN_TEXTS.deletedFilmNotFound);
      },
      afterWrite: async (tx, written) => {
        await tx.update(films).set({ createdBy, views }).where(eq(films.id, written.id));
        // Its sources' items come back with it, so their crawls update it again; its episodes know their source.
        for (const item of items ?? []) {
          await tx
            .insert(filmSources)
            .values({ ...item, filmId: written.id })
            .onConflictDoUpdate({ target: filmSources.sourceKey, set: { filmId: written.id, label: item.label, sourceId: item.sourceId } });
          const servers = [
            ...new Set((input.episodes ?? []).filter((_, i) => episodeSources?.[i] === item.sourceKey).map((e) => e.serverName)),
          ];
          if (servers.length)
            await tx
              .update(episodes)
              .set({ filmSourceId: sql`(select ${filmSources.id} from ${filmSources} where ${filmSources.sourceKey} = ${item.sourceKey})` })
              .where(and(eq(episodes.filmId, written.id), inArray(episodes.serverName, servers)));
        }
        await auditInsert(
          tx,
          actor,
          { action: 'film.restore', target: written.slug, before: null, after: { id: written.id, title: row.title, slug: written.slug } },
          now,
        );
      },
    },
  ).catch((err: unknown) => {
    // A snapshot the writer refuses now (a taxonomy entry since removed): say so, restore nothing.
    if (err instanceof FilmWriteError) throw new ApiError(409, 'conflict', `snapshot: ${err.message}`);
    throw err;
  });
  return { message: ADMIN_TEXTS.filmRestored, slug: result.slug, id: result.id };
}
