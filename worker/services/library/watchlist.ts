// A member's list ("Tủ phim"): add, remove, read with what is new since the list was last opened.
import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Session } from '../../lib/context';
import { episodeReleases, films, libraryState, watchlist } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { LIBRARY_TEXTS, WATCHLIST_MAX, type WatchlistItem, type WatchlistResponse } from '../../schemas/library';
import { cardColumns, toFilmCard } from '../catalogue/film-card';
import { batchAsMember } from '../auth/viewer';
import { filmIdBySlug } from '../catalogue/film-lookup';

/**
 * PUT /api/me/watchlist/{slug}: adds the film (or sets `notify` on the entry already there). Idempotent:
 * a repeated PUT keeps the first `addedAt`. The limit is checked in the same statement as the insert, so
 * two devices adding at once cannot pass it together.
 */
export async function putWatchlist(db: Db, input: { userId: number; slug: string; notify?: boolean; now: number }) {
  const filmId = await filmIdBySlug(db, input.slug, 'slug');
  const notify = input.notify ?? true;
  const rows = await db.run(sql`
    insert into ${watchlist} (user_id, film_id, notify, added_at)
    select ${input.userId}, ${filmId}, ${notify ? 1 : 0}, ${input.now}
    where (select count(*) from ${watchlist} where user_id = ${input.userId}) < ${WATCHLIST_MAX}
       or exists (select 1 from ${watchlist} where user_id = ${input.userId} and film_id = ${filmId})
    on conflict (user_id, film_id) do update set notify = ${input.notify === undefined ? sql`notify` : notify ? 1 : 0}
  `);
  if (rows.rowsAffected === 0) throw new ApiError(409, 'watchlist_full', `slug: ${LIBRARY_TEXTS.watchlistFull}`);
  const [entry] = await db
    .select({ addedAt: watchlist.addedAt, notify: watchlist.notify })
    .from(watchlist)
    .where(and(eq(watchlist.userId, input.userId), eq(watchlist.filmId, filmId)));
  return { slug: input.slug, addedAt: entry?.addedAt ?? input.now, notify: entry?.notify ?? notify };
}

/** DELETE /api/me/watchlist/{slug}: idempotent; an unknown film is a 404. */
export async function deleteWatchlist(db: Db, input: { userId: number; slug: string }) {
  const filmId = await filmIdBySlug(db, input.slug, 'slug');
  await db.delete(watchlist).where(and(eq(watchlist.userId, input.userId), eq(watchlist.filmId, filmId)));
  return { slug: input.slug, removed: true };
}

/**
 * GET /api/me/watchlist: newest first, each with the episodes released since the list was last opened.
 * The member is read in the list's batch (services/auth/viewer.ts): one round trip until something is new.
 */
export async function listWatchlist(db: Db, session: Session, now: number): Promise<WatchlistResponse> {
  const { userId } = session;
  const {
    results: [rows, [state]],
  } = await batchAsMember(
    db,
    session,
    now,
    [
      db
        .select({ ...cardColumns, addedAt: watchlist.addedAt, notify: watchlist.notify })
        .from(watchlist)
        .innerJoin(films, eq(films.id, watchlist.filmId))
        .where(eq(watchlist.userId, userId))
        .orderBy(desc(watchlist.addedAt), desc(watchlist.filmId))
        .limit(WATCHLIST_MAX)
        .prepare(),
      db.select({ listSeenAt: libraryState.listSeenAt }).from(libraryState).where(eq(libraryState.userId, userId)).prepare(),
    ] as const,
    {},
  );
  const seenAt = state?.listSeenAt ?? null;
  const fresh = new Map<number, number[]>();
  if (seenAt !== null && rows.length > 0) {
    const released = await db
      .select({ filmId: episodeReleases.filmId, episode: episodeReleases.episode })
      .from(episodeReleases)
      .where(
        and(
          inArray(episodeReleases.filmId, db.select({ id: watchlist.filmId }).from(watchlist).where(eq(watchlist.userId, userId))),
          gt(episodeReleases.createdAt, seenAt),
        ),
      )
      .orderBy(episodeReleases.episode);
    for (const r of released) fresh.set(r.filmId, [...(fresh.get(r.filmId) ?? []), r.episode]);
  }
  const data: WatchlistItem[] = rows.map(({ addedAt, notify, ...card }) => ({
    slug: card.slug,
    addedAt,
    notify,
    film: toFilmCard(card),
    newEpisodes: fresh.get(card.id) ?? [],
  }));
  return { data, seenAt };
}

/** POST /api/me/watchlist/seen: the list page was opened now (what is "mới" is measured from here next time). */
export async function markWatchlistSeen(db: Db, userId: number, now: number) {
  await db
    .insert(libraryState)
    .values({ userId, listSeenAt: now })
    .onConflictDoUpdate({ target: libraryState.userId, set: { listSeenAt: now } });
  return { seenAt: now };
}
