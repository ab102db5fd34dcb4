// Admin film and episode writes. Films are written only through the one film writer
// (services/films/film-writer.ts), so slugs, folded search text and taxonomy links stay derived in one
// place; every write is audited in the same transaction.
import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { fold } from '../../db/fold';
import type { Db } from '../../db/client';
import {
  commentReports,
  comments,
  episodes,
  errorReports,
  filmAliases,
  filmCountries,
  filmGenres,
  films,
  filmSources,
  mergeSuggestions,
  ratings,
  users,
  viewEvents,
} from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import {
  ADDFILM_OK,
  type AddFilmInput,
  ADMIN_TEXTS,
  type AdminEpisode,
  type AdminFilm,
  type FilmAuthor,
  type UploaderFilm,
  type CreateEpisodeInput,
  DEFAULT_SERVER_NAME,
  type EditEpisodeInput,
  type EditFilmInput,
} from '../../schemas/admin';
import { COUNTRIES, GENRES, type CategoryId } from '../../schemas/taxonomy';
import { type FilmInput, type FilmStatus, FilmWriteError, parseLocks, removedEpisodeKey, upsertFilm } from '../films/film-writer';
import { FilmDeletedError } from '../films/deleted-films';
import { episodeNumbers, recordEpisodeReleases } from '../library/episode-releases';
import { type Actor, auditInsert } from './audit';
import type { UndoHandler } from '../../lib/duties';
import { filmRestoreSnapshots, tombstoneInserts } from './deleted-films';

/** Who writes a film or an episode: an admin may change any; a VIP2 uploader only the films they added. */
export type Uploader = Actor & Pick<Viewer, 'roles'>;
const isAdmin = (who: Uploader) => who.roles.includes('admin');

function assertMayChange(who: Uploader, film: { createdBy: number | null }) {
  if (!isAdmin(who) && film.createdBy !== who.id) throw forbidden(ADMIN_TEXTS.notYourFilm);
}

const genreSlug = (key: string) => GENRES.find((g) => g.slug === key || g.name === key)?.slug;
const countrySlug = (key: string) => COUNTRIES.find((c) => c.slug === key || c.name === key)?.slug;

/** 'Hoàn Tất (16/16)' → completed, 'Trailer' → trailer; anything else is still airing. */
function statusFromText(text: string, categoryId: number): FilmStatus {
  if (categoryId === 27 || /trailer/i.test(text)) return 'trailer';
  if (/ho[aà]n t[aấ]t|full|completed/i.test(text)) return 'completed';
  return 'ongoing';
}

type FilmFields = Partial<Omit<AddFilmInput, 'category_id'>> & { category_id?: number };

/** Spec field names → the film writer's input (only the fields present). */
function toFilmInput(data: FilmFields): Partial<FilmInput> {
  const input: Partial<FilmInput> = {};
  if (data.title !== undefined) input.title = data.title;
  if (data.hinhanh !== undefined) {
    input.posterUrl = data.hinhanh;
    input.thumbUrl = data.hinhanh;
  }
  if (data.nameenglish !== undefined) input.nameEnglish = data.nameenglish;
  if (data.trangthai !== undefined) input.statusText = data.trangthai;
  if (data.sotap !== undefined) input.episodeCountText = data.sotap;
  if (data.thoiluong !== undefined) input.duration = data.thoiluong;
  if (data.namphathanh !== undefined) input.year = data.namphathanh;
  if (data.chatluong !== undefined) input.quality = data.chatluong;
  if (data.ngonngu !== undefined) input.language = data.ngonngu;
  if (data.daodien !== undefined) input.director = data.daodien;
  if (data.dienvien !== undefined) input.actors = data.dienvien;
  if (data.descripts !== undefined) input.description = data.descripts;
  if (data.category_id !== undefined) input.categoryId = data.category_id as CategoryId;
  if (data.VIP1 !== undefined) input.vipOnly = data.VIP1 === 1;
  if (data.theloai !== undefined) input.genreSlugs = data.theloai.map((g) => genreSlug(g)).filter((s): s is string => !!s);
  if (data.quocgia !== undefined) input.countrySlugs = data.quocgia.map((c) => countrySlug(c)).filter((s): s is string => !!s);
  return input;
}

/** A snapshot for the audit log: the spec's fields as stored. */
async function filmSnapshot(db: Db | Parameters<Parameters<Db['transaction']>[0]>[0], slug: string) {
  const [row] = await db
    .select({
      id: films.id,
      slug: films.slug,
      title: films.title,
      nameenglish: films.nameEnglish,
      hinhanh: films.posterUrl,
      trangthai: films.statusText,
      sotap: films.episodeCountText,
      thoiluong: films.duration,
      namphathanh: films.year,
      chatluong: films.quality,
      ngonngu: films.language,
      daodien: films.director,
      dienvien: films.actors,
      theloai: films.genreNames,
      quocgia: films.countryNames,
      category_id: films.categoryId,
      VIP1: films.vipOnly,
      descripts: films.description,
      createdBy: films.createdBy,
      updatedBy: films.updatedBy,
    })
    .from(films)
    .where(eq(films.slug, slug))
    .limit(1);
  return row;
}

async function requireFilm(db: Db, slug: string, field: string) {
  const film = await filmSnapshot(db, slug);
  if (!film) throw notFound(`${field}: ${ADMIN_TEXTS.filmNotFound}`);
  return film;
}

function writeError(err: unknown): never {
  if (err instanceof FilmDeletedError) throw new ApiError(409, 'film_deleted', err.message);
  if (err instanceof FilmWriteError) throw badRequest('data', err.message);
  throw err;
}

/**
 * POST /api/admin/addphim: a new film by hand; its slug comes from the title, made unique. The adder is
 * its author (created_by): a VIP2 uploader may then add and change its episodes.
 */
export async function addFilm(db: Db, actor: Actor, input: AddFilmInput, now: number) {
  const fields = toFilmInput(input);
  const result = await upsertFilm(
    db,
    {
      ...fields,
      title: input.title,
      categoryId: input.category_id as CategoryId,
      status: statusFromText(input.trangthai, input.category_id),
      genreSlugs: fields.genreSlugs ?? [],
      countrySlugs: fields.countrySlugs ?? [],
      sourceKey: null,
      actorId: actor.id,
    },
    {
      now: () => now,
      afterWrite: async (tx, written) => {
        await auditInsert(
          tx,
          actor,
          { action: 'film.create', target: written.slug, before: null, after: { ...input, slug: written.slug } },
          now,
        );
      },
    },
  ).catch(writeError);
  return { message: ADDFILM_OK, slug: result.slug, id: result.id };
}

/**
 * films.locked after an admin's change: the writer fields changed by hand (no source overwrites them again,
 * docs/decisions/0104) and the episodes deleted by hand (no source brings them back).
 */
function lockedWith(locked: string, change: { fields?: readonly string[]; removed?: readonly string[] }): string {
  const locks = parseLocks(locked);
  return JSON.stringify({
    fields: [...new Set([...locks.fields, ...(change.fields ?? [])])],
    removed: [...new Set([...locks.removed, ...(change.removed ?? [])])],
  });
}

/** The film's locks, for a change that adds to them. */
async function filmLocks(db: Db | Parameters<Parameters<Db['transaction']>[0]>[0], filmId: number): Promise<string> {
  const [row] = await db.select({ locked: films.locked }).from(films).where(eq(films.id, filmId));
  return row?.locked ?? '{}';
}

/**
 * POST /api/product/edit_productphim { data }: changes the given fields of the film at data.slug. What an admin
 * changes here stays: no source's later crawl overwrites those fields (films.locked).
 */
export async function editFilm(db: Db, actor: Actor, input: EditFilmInput, now: number) {
  const { slug, ...data } = input.data;
  const before = await requireFilm(db, slug, 'data.slug');
  const fields = toFilmInput(data);
  const categoryId = (data.category_id ?? before.category_id) as CategoryId;
  const changed = Object.keys(fields).concat(data.trangthai !== undefined || data.category_id !== undefined ? ['status'] : []);
  await upsertFilm(
    db,
    {
      ...fields,
      id: before.id,
      actorId: actor.id,
      title: data.title ?? before.title,
      categoryId,
      ...(data.trangthai !== undefined || data.category_id !== undefined
        ? { status: statusFromText(data.trangthai ?? before.trangthai, categoryId) }
        : {}),
    },
    {
      now: () => now,
      afterWrite: async (tx) => {
        await tx
          .update(films)
          .set({ locked: lockedWith(await filmLocks(tx, before.id), { fields: changed }) })
          .where(eq(films.id, before.id));
        const after = await filmSnapshot(tx, slug);
        await auditInsert(tx, actor, { action: 'film.update', target: slug, before, after }, now);
      },
    },
  ).catch(writeError);
  return { message: 'Cập nhật phim thành công', slug };
}

/** POST /api/product/edit_packageVIP1 { title, VIP1 }. */
export async function setVip1(db: Db, actor: Actor, input: { title: string; VIP1: 0 | 1 }, now: number) {
  const before = await requireFilm(db, input.title, 'title');
  const vipOnly = input.VIP1 === 1;
  if (before.VIP1 !== vipOnly) {
    const locked = lockedWith(await filmLocks(db, before.id), { fields: ['vipOnly'] });
    await db.batch([
      // The flag stays as the admin set it, whatever a source says later (films.locked).
      db.update(films).set({ vipOnly, locked, updatedBy: actor.id, updatedAt: now }).where(eq(films.id, before.id)),
      auditInsert(
        db,
        actor,
        { action: 'film.vip1', target: before.slug, before: { VIP1: before.VIP1 ? 1 : 0 }, after: { VIP1: input.VIP1 } },
        now,
      ),
    ]);
  }
  return { message: 'Cập nhật VIP1 thành công', slug: before.slug };
}

/**
 * Undo of 'film.vip1' (audit-undo.ts): the film's VIP1 flag back to what the entry says it was before. A
 * film deleted since cannot take it back (409); a flag already back where it was is recorded as such.
 */
export const undoFilmVip1: UndoHandler = async (tx, entry, { actor, now }) => {
  const was = (entry.before as { VIP1?: unknown } | null)?.VIP1 === 1 ? 1 : 0;
  const [film] = await tx.select({ id: films.id, vipOnly: films.vipOnly }).from(films).where(eq(films.slug, entry.target));
  if (!film) throw conflict(ADMIN_TEXTS.filmNotFound);
  await tx
    .update(films)
    .set({ vipOnly: was === 1, updatedBy: actor.id, updatedAt: now })
    .where(eq(films.id, film.id));
  return { action: 'film.vip1', target: entry.target, before: { VIP1: film.vipOnly ? 1 : 0 }, after: { VIP1: was } };
};

/**
 * DELETE /api/product/delete_product(s): one batch (one transaction) removes the films and everything
 * keyed by them. The dependants are deleted explicitly rather than left to ON DELETE CASCADE, which
 * SQLite applies only with PRAGMA foreign_keys on; the films_fts rows go with the films' delete trigger
 * (drizzle/0001_search_fts.sql).
 */
export async function deleteFilms(db: Db, actor: Actor, slugs: readonly string[], now: number) {
  const wanted = [...new Set(slugs)];
  const rows = await db.select({ id: films.id, slug: films.slug, title: films.title }).from(films).where(inArray(films.slug, wanted));
  const missing = wanted.filter((s) => !rows.some((r) => r.slug === s));
  if (missing.length) throw notFound(`titles: ${ADMIN_TEXTS.filmNotFound} (${missing.slice(0, 5).join(', ')})`);
  const ids = rows.map((r) => r.id);
  const snapshots = await filmRestoreSnapshots(db, ids);
  await db.batch([
    db.delete(episodes).where(inArray(episodes.filmId, ids)),
    // With the deletes, in one transaction: the film stays deleted for every later crawl until an admin
    // restores it (docs/decisions/0700-deleted-films-stay-deleted.md).
    ...tombstoneInserts(db, actor, snapshots, now),
    db
      .delete(commentReports)
      .where(inArray(commentReports.commentId, db.select({ id: comments.id }).from(comments).where(inArray(comments.filmId, ids)))),
    db.delete(comments).where(inArray(comments.filmId, ids)),
    db.delete(ratings).where(inArray(ratings.filmId, ids)),
    db.delete(viewEvents).where(inArray(viewEvents.filmId, ids)),
    db.delete(errorReports).where(inArray(errorReports.filmId, ids)),
    db.delete(filmGenres).where(inArray(filmGenres.filmId, ids)),
    db.delete(filmCountries).where(inArray(filmCountries.filmId, ids)),
    // Its sources' items (their keys are in the tombstone), the slugs merged into it, the pairs it was in.
    db.delete(filmSources).where(inArray(filmSources.filmId, ids)),
    db.delete(filmAliases).where(inArray(filmAliases.filmId, ids)),
    db.delete(mergeSuggestions).where(or(inArray(mergeSuggestions.filmA, ids), inArray(mergeSuggestions.filmB, ids))),
    db.delete(films).where(inArray(films.id, ids)),
    ...rows.map((r) =>
      auditInsert(db, actor, { action: 'film.delete', target: r.slug, before: { id: r.id, title: r.title }, after: null }, now),
    ),
  ]);
  return { message: 'Xóa phim thành công', deleted: rows.length };
}

// ---------------------------------------------------------------------------------------------
// Episodes

const isM3u8 = (link: string) => /\.m3u8(\?|#|$)/i.test(new URL(link).pathname + new URL(link).search);

type EpisodeRow = { id: number; episode: number; serverName: string; m3u8Url: string; embedUrl: string };

function toAdminEpisode(row: EpisodeRow): AdminEpisode {
  return { id: row.id, episode: row.episode, server: row.serverName, linkfilm: row.m3u8Url || row.embedUrl };
}

const episodeColumns = {
  id: episodes.id,
  createdBy: episodes.createdBy,
  updatedBy: episodes.updatedBy,
  filmId: episodes.filmId,
  episode: episodes.episode,
  serverName: episodes.serverName,
  m3u8Url: episodes.m3u8Url,
  embedUrl: episodes.embedUrl,
};

/** An m3u8 link plays in the page's player; anything else is an embeddable page. */
const linkColumns = (link: string) => (isM3u8(link) ? { m3u8Url: link, embedUrl: '' } : { m3u8Url: '', embedUrl: link });

/**
 * POST /api/product/create_xemphim: adds the episode, or updates the link of the same episode on the same
 * server. A VIP2 uploader only on films they added (403 otherwise); admins on any.
 */
export async function createEpisode(db: Db, actor: Uploader, input: CreateEpisodeInput, now: number) {
  const film = await requireFilm(db, input.selectedTitle, 'selectedTitle');
  assertMayChange(actor, film);
  const server = input.server ?? DEFAULT_SERVER_NAME;
  const links = linkColumns(input.linkfilm);
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select(episodeColumns)
      .from(episodes)
      .where(and(eq(episodes.filmId, film.id), eq(episodes.serverName, server), eq(episodes.episode, input.episode)));
    let row: typeof existing;
    if (existing) {
      [row] = await tx
        .update(episodes)
        .set({ ...links, updatedBy: actor.id })
        .where(eq(episodes.id, existing.id))
        .returning(episodeColumns);
    } else {
      // A number the film had on no server is a new episode: its followers are notified after the write.
      await recordEpisodeReleases(tx, film.id, await episodeNumbers(tx, film.id), [input.episode], now);
      [row] = await tx
        .insert(episodes)
        .values({
          filmId: film.id,
          serverName: server,
          episode: input.episode,
          name: `Tập ${input.episode}`,
          ...links,
          createdBy: actor.id,
          updatedBy: actor.id,
          createdAt: now,
        })
        .returning(episodeColumns);
    }
    if (!row) throw new Error('episode write returned no row');
    // The film moves up the 'Mới cập nhật' lists like a crawled update would.
    await tx.update(films).set({ updatedAt: now, updatedBy: actor.id }).where(eq(films.id, film.id));
    const after = toAdminEpisode(row);
    await auditInsert(
      tx,
      actor,
      {
        action: existing ? 'episode.update' : 'episode.create',
        target: `${film.slug}#${server}#${input.episode}`,
        before: existing ? toAdminEpisode(existing) : null,
        after,
      },
      now,
    );
    return { message: existing ? ADMIN_TEXTS.episodeLinkUpdated : ADMIN_TEXTS.addEpisodeSuccess, updated: !!existing, episode: after };
  });
}

async function requireEpisode(db: Db, id: number) {
  const [row] = await db.select(episodeColumns).from(episodes).where(eq(episodes.id, id));
  if (!row) throw notFound(`id: ${ADMIN_TEXTS.episodeNotFound}`);
  return row;
}

/** The film an episode belongs to, for the uploader check. */
async function episodeFilm(db: Db, filmId: number) {
  const [film] = await db.select({ slug: films.slug, createdBy: films.createdBy }).from(films).where(eq(films.id, filmId));
  if (!film) throw notFound(`id: ${ADMIN_TEXTS.episodeNotFound}`);
  return film;
}

/** POST /api/product/edit_xemphim { id, episode?, linkfilm?, server? }: admins, or VIP2 on their own films. */
export async function editEpisode(db: Db, actor: Uploader, input: EditEpisodeInput, now: number) {
  const before = await requireEpisode(db, input.id);
  const film = await episodeFilm(db, before.filmId);
  assertMayChange(actor, film);
  const server = input.server ?? before.serverName;
  const episode = input.episode ?? before.episode;
  if (server !== before.serverName || episode !== before.episode) {
    const [clash] = await db
      .select({ id: episodes.id })
      .from(episodes)
      .where(and(eq(episodes.filmId, before.filmId), eq(episodes.serverName, server), eq(episodes.episode, episode)));
    if (clash) throw conflict(`episode: tập ${episode} trên máy chủ '${server}' đã có`);
  }
  const [row] = await db.transaction(async (tx) => {
    const updated = await tx
      .update(episodes)
      .set({ serverName: server, episode, updatedBy: actor.id, ...(input.linkfilm ? linkColumns(input.linkfilm) : {}) })
      .where(eq(episodes.id, before.id))
      .returning(episodeColumns);
    await auditInsert(
      tx,
      actor,
      {
        action: 'episode.update',
        target: `${film.slug}#${before.id}`,
        before: toAdminEpisode(before),
        after: updated[0] && toAdminEpisode(updated[0]),
      },
      now,
    );
    return updated;
  });
  if (!row) throw notFound(`id: ${ADMIN_TEXTS.episodeNotFound}`);
  return { message: 'Cập nhật tập phim thành công', updated: true, episode: toAdminEpisode(row) };
}

/** DELETE /api/product/delete_xemphim?id=. A source's episode deleted by hand stays deleted (films.locked). */
export async function deleteEpisode(db: Db, actor: Actor, id: number, now: number) {
  const before = await requireEpisode(db, id);
  const film = await episodeFilm(db, before.filmId);
  const locked = lockedWith(await filmLocks(db, before.filmId), { removed: [removedEpisodeKey(before.serverName, before.episode)] });
  await db.batch([
    db.delete(episodes).where(eq(episodes.id, id)),
    db.update(films).set({ locked, updatedAt: now, updatedBy: actor.id }).where(eq(films.id, before.filmId)),
    auditInsert(db, actor, { action: 'episode.delete', target: `${film.slug}#${id}`, before: toAdminEpisode(before), after: null }, now),
  ]);
  return { message: 'Xóa tập phim thành công' };
}

/** GET /api/product/admin_episodes?title=: every episode of a film, every server, links included (VIP2: own films). */
export async function filmEpisodes(db: Db, viewer: Uploader, slug: string) {
  const film = await requireFilm(db, slug, 'title');
  assertMayChange(viewer, film);
  const rows = await db
    .select(episodeColumns)
    .from(episodes)
    .where(eq(episodes.filmId, film.id))
    .orderBy(episodes.serverName, episodes.episode);
  const emails = await authorEmails(
    db,
    rows.flatMap((r) => [r.createdBy, r.updatedBy]),
  );
  return {
    slug: film.slug,
    title: film.title,
    data: rows.map((r) => ({ ...toAdminEpisode(r), createdBy: authorOf(emails, r.createdBy), updatedBy: authorOf(emails, r.updatedBy) })),
  };
}

const splitNames = (csv: string) =>
  csv
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Emails of the given user ids (authors of films and episodes). */
export async function authorEmails(db: Db, ids: readonly (number | null)[]): Promise<Map<number, string>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (!wanted.length) return new Map();
  const rows = await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, wanted));
  return new Map(rows.map((r) => [r.id, r.email]));
}

/** An author as the wire shows it; null for the crawler. */
export const authorOf = (emails: Map<number, string>, id: number | null): FilmAuthor | null =>
  id === null ? null : { id, email: emails.get(id) ?? '' };

/** GET /api/admin/film?slug=: the whole film as the editor shows it (admin). */
export async function filmForEditor(db: Db, slug: string): Promise<AdminFilm> {
  const film = await requireFilm(db, slug, 'slug');
  const authors = await authorEmails(db, [film.createdBy, film.updatedBy]);
  return {
    slug: film.slug,
    title: film.title,
    nameenglish: film.nameenglish,
    hinhanh: film.hinhanh,
    trangthai: film.trangthai,
    sotap: film.sotap,
    thoiluong: film.thoiluong,
    namphathanh: film.namphathanh,
    chatluong: film.chatluong,
    ngonngu: film.ngonngu,
    daodien: film.daodien,
    dienvien: film.dienvien,
    theloai: splitNames(film.theloai),
    quocgia: splitNames(film.quocgia),
    descripts: film.descripts,
    category_id: film.category_id,
    VIP1: film.VIP1 ? 1 : 0,
    createdBy: authorOf(authors, film.createdBy),
    updatedBy: authorOf(authors, film.updatedBy),
  };
}

/** GET /api/admin/my-films?q=: the films the viewer added, matching q (folded title), for a VIP2 uploader's picker. */
export async function uploaderFilms(db: Db, uploaderId: number, q: string | undefined): Promise<{ data: UploaderFilm[] }> {
  const folded = q ? fold(q) : '';
  const pattern = folded ? `%${folded.replace(/[\\%_]/g, (m) => `\\${m}`)}%` : undefined;
  const rows = await db
    .select({ slug: films.slug, title: films.title, nameenglish: films.nameEnglish, namphathanh: films.year })
    .from(films)
    .where(and(eq(films.createdBy, uploaderId), pattern ? sql`${films.searchText} LIKE ${pattern} ESCAPE '\\'` : undefined))
    .orderBy(desc(films.updatedAt), desc(films.id))
    .limit(10);
  return { data: rows };
}
