// Merging two films that are one ("Gộp phim", issue 32; docs/decisions/0104-one-film-every-source.md): everything the
// merged-away film had moves to the kept one — its sources and their servers, episodes, comments with their threads,
// ratings (one per member: the latest kept), list entries, progress and history, views, error reports — and its slug
// answers 301 to the kept film from then on (film_aliases), so links, bookmarks, search engines, downloaded episodes
// and watch parties follow. One transaction, audited as 'film.merge' with everything the undo needs to put both
// films back (docs/decisions/0503-undo-from-the-audit-log.md).
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  comments,
  countries,
  episodeReleases,
  episodes,
  errorReports,
  filmAliases,
  filmCountries,
  filmGenres,
  films,
  filmSources,
  filmViewsHourly,
  genres,
  mergeSuggestions,
  ratings,
  trendingViews,
  viewEvents,
  watchlist,
  watchProgress,
} from '../../db/schema';
import { ApiError, conflict, notFound } from '../../lib/errors';
import { MERGE_TEXTS } from '../../schemas/sources';
import type { Actor } from '../admin/audit';
import { auditInsert } from '../admin/audit';
import type { UndoHandler } from '../../lib/duties';
import { forgetCatalogueVersion } from '../catalogue/version';
import type { FilmTx } from './film-writer';
import { labelledServer } from './film-writer';

type FilmRow = typeof films.$inferSelect;
type RatingRow = typeof ratings.$inferSelect;
type WatchRow = typeof watchlist.$inferSelect;
type ProgressRow = typeof watchProgress.$inferSelect;
type ReleaseRow = typeof episodeReleases.$inferSelect;
type HourlyRow = typeof filmViewsHourly.$inferSelect;
type TrendingRow = typeof trendingViews.$inferSelect;
type SuggestionRow = typeof mergeSuggestions.$inferSelect;

/** What a 'film.merge' entry keeps (its `after`): enough to put both films back as they were. */
export interface MergeRecord {
  keep: { id: number; slug: string; title: string; views: number; likes: number; identity: Identity };
  drop: { row: FilmRow; genres: string[]; countries: string[] };
  /** The dropped film's source items, with the label each had (renamed when the kept film had it). */
  items: { id: number; label: string; newLabel: string }[];
  /** Episodes added by hand on the dropped film (no source item), with the server name each had. */
  manualEpisodes: { id: number; server: string }[];
  /** Episodes whose server was renamed because the kept film had the same server and episode: their name before. */
  renamedEpisodes: { id: number; server: string }[];
  comments: number[];
  /** Ratings moved as they were, and the rows dropped because the member had rated both (the latest kept). */
  ratingsMoved: number[];
  ratingsDropped: RatingRow[];
  /** List entries: members whose entry moved; the dropped film's rows of members who had both; the kept rows as they were. */
  watchlistMoved: number[];
  watchlistDropped: WatchRow[];
  watchlistKeptBefore: WatchRow[];
  /** Progress and history: (member, episode) moved; rows dropped for the older of two. */
  progressMoved: [number, number][];
  progressDropped: ProgressRow[];
  errorReports: number[];
  releases: ReleaseRow[];
  /** View events moved, as id ranges [from, to]. */
  viewEvents: [number, number][];
  hourly: HourlyRow[];
  trending: TrendingRow[];
  /** Slugs merged into the dropped film before: they now name the kept one. */
  aliases: string[];
  suggestions: SuggestionRow[];
}

type Identity = Pick<FilmRow, 'tmdbType' | 'tmdbId' | 'tmdbSeason' | 'imdbId' | 'originKey' | 'kind'>;
const identityOf = (f: FilmRow): Identity => ({
  tmdbType: f.tmdbType,
  tmdbId: f.tmdbId,
  tmdbSeason: f.tmdbSeason,
  imdbId: f.imdbId,
  originKey: f.originKey,
  kind: f.kind,
});

/** [1,2,3,7,8] → [[1,3],[7,8]]. */
export function toRanges(ids: readonly number[]): [number, number][] {
  const sorted = [...ids].sort((a, b) => a - b);
  const ranges: [number, number][] = [];
  for (const id of sorted) {
    const last = ranges.at(-1);
    if (last && id === last[1] + 1) last[1] = id;
    else ranges.push([id, id]);
  }
  return ranges;
}

const inRanges = (column: typeof viewEvents.id, ranges: readonly [number, number][]) =>
  sql`(${sql.join(
    ranges.map(([a, b]) => sql`${column} between ${a} and ${b}`),
    sql` or `,
  )})`;

/** 'Vietsub #1' → 'Vietsub #1 (2)', the first not in `used`. */
function freeServer(name: string, used: ReadonlySet<string>): string {
  for (let n = 2; ; n++) if (!used.has(`${name} (${n})`)) return `${name} (${n})`;
}

function freeLabel(label: string, used: ReadonlySet<string>): string {
  if (!used.has(label)) return label;
  for (let n = 2; ; n++) if (!used.has(`${label} (${n})`)) return `${label} (${n})`;
}

const chunks = <T>(list: readonly T[], size = 400): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
};

/**
 * POST /api/admin/merges: `dropSlug` joins `keepSlug`. One transaction; answers the kept film's slug and the audit
 * entry's id (its "Hoàn tác" puts both back).
 */
export async function mergeFilms(
  db: Db,
  actor: Actor,
  input: { keep: string; drop: string },
  now: number,
): Promise<{ message: string; slug: string; auditId: number }> {
  if (input.keep === input.drop) throw new ApiError(400, 'invalid_input', `drop: ${MERGE_TEXTS.sameFilm}`);
  const result = await db.transaction(async (tx) => {
    const [keep] = await tx.select().from(films).where(eq(films.slug, input.keep));
    if (!keep) throw notFound(`keep: ${MERGE_TEXTS.filmNotFound}`);
    const [drop] = await tx.select().from(films).where(eq(films.slug, input.drop));
    if (!drop) throw notFound(`drop: ${MERGE_TEXTS.filmNotFound}`);
    const record = await mergeInto(tx, keep, drop, now);
    const [entry] = await auditInsert(
      tx,
      actor,
      {
        action: 'film.merge',
        target: keep.slug,
        before: { keep: { slug: keep.slug, title: keep.title }, drop: { slug: drop.slug, title: drop.title } },
        after: record,
      },
      now,
    ).returning({ id: sql<number>`id` });
    return { slug: keep.slug, auditId: entry!.id };
  });
  forgetCatalogueVersion(db);
  return { message: MERGE_TEXTS.merged, ...result };
}

/** The merge itself, inside the caller's transaction: every statement, and the record of what moved. */
async function mergeInto(tx: FilmTx, keep: FilmRow, drop: FilmRow, now: number): Promise<MergeRecord> {
  const [
    keepItems,
    dropItems,
    keepServers,
    dropEpisodes,
    dropGenres,
    dropCountries,
    commentRows,
    ratingRows,
    watchRows,
    progressRows,
    reportRows,
    releaseRows,
    viewRows,
    hourlyRows,
    trendingRows,
    aliasRows,
    suggestionRows,
  ] = await Promise.all([
    tx.select({ id: filmSources.id, label: filmSources.label }).from(filmSources).where(eq(filmSources.filmId, keep.id)),
    tx.select({ id: filmSources.id, label: filmSources.label }).from(filmSources).where(eq(filmSources.filmId, drop.id)),
    tx.selectDistinct({ server: episodes.serverName }).from(episodes).where(eq(episodes.filmId, keep.id)),
    tx
      .select({ id: episodes.id, server: episodes.serverName, itemId: episodes.filmSourceId })
      .from(episodes)
      .where(eq(episodes.filmId, drop.id)),
    tx
      .select({ slug: genres.slug })
      .from(filmGenres)
      .innerJoin(genres, eq(genres.id, filmGenres.genreId))
      .where(eq(filmGenres.filmId, drop.id)),
    tx
      .select({ slug: countries.slug })
      .from(filmCountries)
      .innerJoin(countries, eq(countries.id, filmCountries.countryId))
      .where(eq(filmCountries.filmId, drop.id)),
    tx.select({ id: comments.id }).from(comments).where(eq(comments.filmId, drop.id)),
    tx
      .select()
      .from(ratings)
      .where(inArray(ratings.filmId, [keep.id, drop.id])),
    tx
      .select()
      .from(watchlist)
      .where(inArray(watchlist.filmId, [keep.id, drop.id])),
    tx
      .select()
      .from(watchProgress)
      .where(inArray(watchProgress.filmId, [keep.id, drop.id])),
    tx.select({ id: errorReports.id }).from(errorReports).where(eq(errorReports.filmId, drop.id)),
    tx.select().from(episodeReleases).where(eq(episodeReleases.filmId, drop.id)),
    tx.select({ id: viewEvents.id }).from(viewEvents).where(eq(viewEvents.filmId, drop.id)),
    tx.select().from(filmViewsHourly).where(eq(filmViewsHourly.filmId, drop.id)),
    tx.select().from(trendingViews).where(eq(trendingViews.filmId, drop.id)),
    tx.select({ slug: filmAliases.slug }).from(filmAliases).where(eq(filmAliases.filmId, drop.id)),
    tx.select().from(mergeSuggestions).where(sql`${mergeSuggestions.filmA} = ${drop.id} or ${mergeSuggestions.filmB} = ${drop.id}`),
  ]);

  // Servers: the dropped film's source items keep their label unless the kept film has it ('KKPhim (2)'); a server
  // added by hand under a name the kept film uses gets 'name (2)'. Renamed on the dropped film first, then moved.
  const labels = new Set(keepItems.map((i) => i.label));
  const items = dropItems.map((i) => {
    const newLabel = i.label ? freeLabel(i.label, labels) : i.label;
    labels.add(newLabel);
    return { id: i.id, label: i.label, newLabel };
  });
  const usedServers = new Set(keepServers.map((s) => s.server));
  const manualEpisodes: { id: number; server: string }[] = [];
  const renamedManual = new Map<string, string>();
  for (const e of dropEpisodes) {
    if (e.itemId !== null) continue;
    manualEpisodes.push({ id: e.id, server: e.server });
    if (usedServers.has(e.server) && !renamedManual.has(e.server)) renamedManual.set(e.server, freeServer(e.server, usedServers));
  }
  for (const name of renamedManual.values()) usedServers.add(name);
  for (const item of items) {
    if (item.newLabel === item.label) continue;
    await tx.update(filmSources).set({ label: item.newLabel }).where(eq(filmSources.id, item.id));
    await tx
      .update(episodes)
      .set({ serverName: renameLabel(item.label, item.newLabel) })
      .where(eq(episodes.filmSourceId, item.id));
  }
  for (const [from, to] of renamedManual)
    await tx
      .update(episodes)
      .set({ serverName: to })
      .where(and(eq(episodes.filmId, drop.id), eq(episodes.serverName, from), isNull(episodes.filmSourceId)));
  // A source item's server that still clashes (a server by hand on the kept film named like it): its own name + (2).
  const clashing = await tx
    .select({ id: episodes.id, server: episodes.serverName })
    .from(episodes)
    .where(
      and(
        eq(episodes.filmId, drop.id),
        sql`exists (select 1 from ${episodes} k where k.film_id = ${keep.id} and k.server_name = ${episodes.serverName} and k.episode = ${episodes.episode})`,
      ),
    );
  const renamedEpisodes: { id: number; server: string }[] = [];
  for (const server of new Set(clashing.map((c) => c.server))) {
    const to = freeServer(server, usedServers);
    usedServers.add(to);
    const ids = (
      await tx
        .select({ id: episodes.id })
        .from(episodes)
        .where(and(eq(episodes.filmId, drop.id), eq(episodes.serverName, server)))
    ).map((r) => r.id);
    for (const id of ids) renamedEpisodes.push({ id, server });
    await tx
      .update(episodes)
      .set({ serverName: to })
      .where(and(eq(episodes.filmId, drop.id), eq(episodes.serverName, server)));
  }
  await tx.update(episodes).set({ filmId: keep.id }).where(eq(episodes.filmId, drop.id));
  if (items.length) await tx.update(filmSources).set({ filmId: keep.id }).where(eq(filmSources.filmId, drop.id));

  // Comments, threads and all (replies point at comment ids, which do not change).
  await tx.update(comments).set({ filmId: keep.id }).where(eq(comments.filmId, drop.id));

  // Ratings: one per member, the latest kept.
  const keptRatings = new Map(ratingRows.filter((r) => r.filmId === keep.id).map((r) => [r.userId, r]));
  const ratingsDropped: RatingRow[] = [];
  const ratingsMoved: number[] = [];
  for (const r of ratingRows.filter((r) => r.filmId === drop.id)) {
    const other = keptRatings.get(r.userId);
    if (!other) {
      ratingsMoved.push(r.id);
      continue;
    }
    const latest = r.updatedAt > other.updatedAt ? r : other;
    const older = latest === r ? other : r;
    ratingsDropped.push(older);
    if (latest === r) ratingsMoved.push(r.id);
  }
  for (const part of chunks(ratingsDropped.map((r) => r.id))) await tx.delete(ratings).where(inArray(ratings.id, part));
  await tx.update(ratings).set({ filmId: keep.id }).where(eq(ratings.filmId, drop.id));

  // The list: one entry per member (the earliest, notified if either asked).
  const keptWatch = new Map(watchRows.filter((w) => w.filmId === keep.id).map((w) => [w.userId, w]));
  const watchlistDropped: WatchRow[] = [];
  const watchlistKeptBefore: WatchRow[] = [];
  const watchlistMoved: number[] = [];
  for (const w of watchRows.filter((w) => w.filmId === drop.id)) {
    const other = keptWatch.get(w.userId);
    if (!other) {
      watchlistMoved.push(w.userId);
      continue;
    }
    watchlistDropped.push(w);
    watchlistKeptBefore.push(other);
    await tx
      .update(watchlist)
      .set({ notify: other.notify || w.notify, addedAt: Math.min(other.addedAt, w.addedAt) })
      .where(and(eq(watchlist.userId, w.userId), eq(watchlist.filmId, keep.id)));
  }
  for (const part of chunks(watchlistDropped.map((w) => w.userId)))
    await tx.delete(watchlist).where(and(eq(watchlist.filmId, drop.id), inArray(watchlist.userId, part)));
  await tx.update(watchlist).set({ filmId: keep.id }).where(eq(watchlist.filmId, drop.id));

  // Progress and history: per member and episode, the newest kept.
  const progressKey = (p: ProgressRow) => `${p.userId}:${p.episode}`;
  const keptProgress = new Map(progressRows.filter((p) => p.filmId === keep.id).map((p) => [progressKey(p), p]));
  const progressDropped: ProgressRow[] = [];
  const progressMoved: [number, number][] = [];
  for (const p of progressRows.filter((p) => p.filmId === drop.id)) {
    const other = keptProgress.get(progressKey(p));
    if (!other) {
      progressMoved.push([p.userId, p.episode]);
      continue;
    }
    const newer = p.updatedAt > other.updatedAt ? p : other;
    progressDropped.push(newer === p ? other : p);
    if (newer === p) progressMoved.push([p.userId, p.episode]);
  }
  for (const d of progressDropped)
    await tx
      .delete(watchProgress)
      .where(and(eq(watchProgress.userId, d.userId), eq(watchProgress.filmId, d.filmId), eq(watchProgress.episode, d.episode)));
  await tx.update(watchProgress).set({ filmId: keep.id }).where(eq(watchProgress.filmId, drop.id));

  await tx.update(errorReports).set({ filmId: keep.id }).where(eq(errorReports.filmId, drop.id));
  await tx.delete(episodeReleases).where(eq(episodeReleases.filmId, drop.id));

  // Views: the events (trending reads them), the hourly and window counts summed into the kept film's, the totals.
  await tx.update(viewEvents).set({ filmId: keep.id }).where(eq(viewEvents.filmId, drop.id));
  for (const h of hourlyRows)
    await tx
      .insert(filmViewsHourly)
      .values({ hour: h.hour, filmId: keep.id, views: h.views })
      .onConflictDoUpdate({
        target: [filmViewsHourly.hour, filmViewsHourly.filmId],
        set: { views: sql`${filmViewsHourly.views} + ${h.views}` },
      });
  for (const t of trendingRows)
    await tx
      .insert(trendingViews)
      .values({ span: t.span, filmId: keep.id, views: t.views, filmViews: keep.views + drop.views })
      .onConflictDoUpdate({ target: [trendingViews.span, trendingViews.filmId], set: { views: sql`${trendingViews.views} + ${t.views}` } });
  await tx.delete(filmViewsHourly).where(eq(filmViewsHourly.filmId, drop.id));
  await tx.delete(trendingViews).where(eq(trendingViews.filmId, drop.id));

  // The kept film: the views and likes of both, the ids it lacked.
  const identity = identityOf(keep);
  await tx
    .update(films)
    .set({
      views: keep.views + drop.views,
      likes: keep.likes + drop.likes,
      tmdbType: keep.tmdbId ? keep.tmdbType : drop.tmdbType,
      tmdbId: keep.tmdbId ?? drop.tmdbId,
      tmdbSeason: keep.tmdbId ? (keep.tmdbSeason ?? (keep.tmdbId === drop.tmdbId ? drop.tmdbSeason : null)) : drop.tmdbSeason,
      imdbId: keep.imdbId ?? drop.imdbId,
      originKey: keep.originKey ?? drop.originKey,
      kind: keep.kind ?? drop.kind,
      updatedAt: Math.max(keep.updatedAt, drop.updatedAt),
    })
    .where(eq(films.id, keep.id));

  // The dropped film's slug (and those merged into it before) now names the kept film: 301 there.
  await tx.update(filmAliases).set({ filmId: keep.id }).where(eq(filmAliases.filmId, drop.id));
  await tx.delete(filmGenres).where(eq(filmGenres.filmId, drop.id));
  await tx.delete(filmCountries).where(eq(filmCountries.filmId, drop.id));
  await tx.delete(mergeSuggestions).where(sql`${mergeSuggestions.filmA} = ${drop.id} or ${mergeSuggestions.filmB} = ${drop.id}`);
  await tx.delete(films).where(eq(films.id, drop.id));
  await tx.insert(filmAliases).values({ slug: drop.slug, filmId: keep.id, createdAt: now });

  return {
    keep: { id: keep.id, slug: keep.slug, title: keep.title, views: keep.views, likes: keep.likes, identity },
    drop: { row: drop, genres: dropGenres.map((g) => g.slug), countries: dropCountries.map((c) => c.slug) },
    items,
    manualEpisodes,
    renamedEpisodes,
    comments: commentRows.map((c) => c.id),
    ratingsMoved,
    ratingsDropped,
    watchlistMoved,
    watchlistDropped,
    watchlistKeptBefore,
    progressMoved,
    progressDropped,
    errorReports: reportRows.map((r) => r.id),
    releases: releaseRows,
    viewEvents: toRanges(viewRows.map((v) => v.id)),
    hourly: hourlyRows,
    trending: trendingRows,
    aliases: aliasRows.map((a) => a.slug),
    suggestions: suggestionRows,
  };
}

/** SQL renaming a server's label suffix: 'Vietsub #1 · KKPhim' → 'Vietsub #1 · KKPhim (2)'. */
function renameLabel(from: string, to: string) {
  const suffix = labelledServer('', from);
  return sql`case when substr(${episodes.serverName}, -length(${suffix})) = ${suffix}
    then substr(${episodes.serverName}, 1, length(${episodes.serverName}) - length(${suffix})) || ${labelledServer('', to)}
    else ${episodes.serverName} end`;
}

/**
 * Undo of 'film.merge' (services/admin/audit-undo.ts): the dropped film comes back under its own id and slug, with
 * what it had: its source items and their servers (with whatever they got since), its episodes, comments, ratings,
 * list entries, progress, reports, views and aliases; the kept film gets back its own. What happened since stays
 * where it is (a comment posted on the kept film after the merge stays there). Refused (409) when the kept film is
 * gone or the old slug has been taken since.
 */
export const undoFilmMerge: UndoHandler = async (tx, entry, { now }) => {
  const record = entry.after as MergeRecord | null;
  if (!record?.drop?.row || !record.keep) throw conflict(MERGE_TEXTS.cannotUndo);
  const { keep, drop } = record;
  const [kept] = await tx.select({ id: films.id, views: films.views, likes: films.likes }).from(films).where(eq(films.id, keep.id));
  if (!kept) throw conflict(MERGE_TEXTS.keptGone);
  const [taken] = await tx
    .select({ id: films.id })
    .from(films)
    .where(sql`${films.id} = ${drop.row.id} or ${films.slug} = ${drop.row.slug}`);
  if (taken) throw conflict(MERGE_TEXTS.slugTaken);

  // The film itself, as it was (its id and slug: its links, rooms and downloads' keys are the same again).
  await tx.delete(filmAliases).where(eq(filmAliases.slug, drop.row.slug));
  await tx.insert(films).values({ ...drop.row, locked: drop.row.locked ?? '{}' });
  const genreRows = drop.genres.length ? await tx.select({ id: genres.id }).from(genres).where(inArray(genres.slug, drop.genres)) : [];
  if (genreRows.length) await tx.insert(filmGenres).values(genreRows.map((g) => ({ filmId: drop.row.id, genreId: g.id })));
  const countryRows = drop.countries.length
    ? await tx.select({ id: countries.id }).from(countries).where(inArray(countries.slug, drop.countries))
    : [];
  if (countryRows.length) await tx.insert(filmCountries).values(countryRows.map((c) => ({ filmId: drop.row.id, countryId: c.id })));

  // Its source items go back with every server they have now; labels as they were.
  for (const item of record.items) {
    await tx
      .update(filmSources)
      .set({ filmId: drop.row.id, label: item.label })
      .where(and(eq(filmSources.id, item.id), eq(filmSources.filmId, keep.id)));
    await tx
      .update(episodes)
      .set({ filmId: drop.row.id, ...(item.newLabel !== item.label ? { serverName: renameLabel(item.newLabel, item.label) } : {}) })
      .where(and(eq(episodes.filmSourceId, item.id), eq(episodes.filmId, keep.id)));
  }
  for (const e of record.manualEpisodes)
    await tx
      .update(episodes)
      .set({ filmId: drop.row.id, serverName: e.server })
      .where(and(eq(episodes.id, e.id), eq(episodes.filmId, keep.id)));
  for (const e of record.renamedEpisodes ?? [])
    await tx
      .update(episodes)
      .set({ serverName: e.server })
      .where(and(eq(episodes.id, e.id), eq(episodes.filmId, drop.row.id)));

  const back = async <T extends typeof comments | typeof errorReports | typeof ratings>(table: T, ids: readonly number[]) => {
    for (const part of chunks(ids))
      await tx
        .update(table)
        .set({ filmId: drop.row.id } as never)
        .where(and(inArray(table.id, part), eq(table.filmId, keep.id)));
  };
  await back(comments, record.comments);
  await back(errorReports, record.errorReports);
  await back(ratings, record.ratingsMoved);
  for (const r of record.ratingsDropped) await tx.insert(ratings).values(r).onConflictDoNothing();

  for (const part of chunks(record.watchlistMoved))
    await tx
      .update(watchlist)
      .set({ filmId: drop.row.id })
      .where(and(eq(watchlist.filmId, keep.id), inArray(watchlist.userId, part)));
  for (const w of record.watchlistKeptBefore)
    await tx
      .update(watchlist)
      .set({ notify: w.notify, addedAt: w.addedAt })
      .where(and(eq(watchlist.filmId, keep.id), eq(watchlist.userId, w.userId)));
  for (const w of record.watchlistDropped) await tx.insert(watchlist).values(w).onConflictDoNothing();

  for (const [userId, episode] of record.progressMoved)
    await tx
      .update(watchProgress)
      .set({ filmId: drop.row.id })
      .where(and(eq(watchProgress.filmId, keep.id), eq(watchProgress.userId, userId), eq(watchProgress.episode, episode)));
  for (const p of record.progressDropped) await tx.insert(watchProgress).values(p).onConflictDoNothing();

  for (const r of record.releases) await tx.insert(episodeReleases).values(r).onConflictDoNothing();

  // Views back where they were counted.
  for (const part of chunks(record.viewEvents, 200))
    await tx
      .update(viewEvents)
      .set({ filmId: drop.row.id })
      .where(and(eq(viewEvents.filmId, keep.id), inRanges(viewEvents.id, part)));
  for (const h of record.hourly) {
    await tx
      .update(filmViewsHourly)
      .set({ views: sql`max(0, ${filmViewsHourly.views} - ${h.views})` })
      .where(and(eq(filmViewsHourly.hour, h.hour), eq(filmViewsHourly.filmId, keep.id)));
    await tx
      .insert(filmViewsHourly)
      .values({ ...h, filmId: drop.row.id })
      .onConflictDoNothing();
  }
  for (const t of record.trending) {
    await tx
      .update(trendingViews)
      .set({ views: sql`max(0, ${trendingViews.views} - ${t.views})` })
      .where(and(eq(trendingViews.span, t.span), eq(trendingViews.filmId, keep.id)));
    await tx
      .insert(trendingViews)
      .values({ ...t, filmId: drop.row.id })
      .onConflictDoNothing();
  }
  await tx.delete(filmViewsHourly).where(and(eq(filmViewsHourly.filmId, keep.id), sql`${filmViewsHourly.views} <= 0`));
  await tx.delete(trendingViews).where(and(eq(trendingViews.filmId, keep.id), sql`${trendingViews.views} <= 0`));

  await tx
    .update(films)
    .set({
      views: Math.max(0, kept.views - drop.row.views),
      likes: Math.max(0, kept.likes - drop.row.likes),
      ...keep.identity,
    })
    .where(eq(films.id, keep.id));
  if (record.aliases.length)
    await tx
      .update(filmAliases)
      .set({ filmId: drop.row.id })
      .where(and(inArray(filmAliases.slug, record.aliases), eq(filmAliases.filmId, keep.id)));
  for (const s of record.suggestions) await tx.insert(mergeSuggestions).values(s).onConflictDoNothing();
  // The catalogue's version rises with the film's return (triggers); the app forgets what it knew after this POST.
  return {
    action: 'film.merge',
    target: keep.slug,
    before: { merged: drop.row.slug, into: keep.slug },
    after: { restored: drop.row.slug, at: now },
  };
};
