// The library's part in erasure and export (docs/decisions/1041, docs/export-format.md): the list ("Tủ phim"),
// progress and history, and the list page's bookkeeping.
import { asc, eq } from 'drizzle-orm';
import { films, libraryState, watchlist, watchProgress } from '../../db/schema';
import type { EraseStep, ExportSection } from '../../lib/duties';

export const eraseLibrary: EraseStep = {
  name: 'library',
  async erase(tx, member) {
    await tx.delete(watchlist).where(eq(watchlist.userId, member.id));
    await tx.delete(watchProgress).where(eq(watchProgress.userId, member.id));
    await tx.delete(libraryState).where(eq(libraryState.userId, member.id));
  },
};

export const exportWatchlist: ExportSection = {
  key: 'watchlist',
  read: (db, userId) =>
    db
      .select({ film: films.slug, title: films.title, addedAt: watchlist.addedAt, newEpisodeNotices: watchlist.notify })
      .from(watchlist)
      .innerJoin(films, eq(films.id, watchlist.filmId))
      .where(eq(watchlist.userId, userId))
      .orderBy(asc(watchlist.addedAt), asc(films.slug)),
};

/** Progress in each episode watched: the account's history (kept one year). */
export const exportHistory: ExportSection = {
  key: 'history',
  read: (db, userId) =>
    db
      .select({
        film: films.slug,
        title: films.title,
        episode: watchProgress.episode,
        positionSeconds: watchProgress.position,
        durationSeconds: watchProgress.duration,
        watchedAt: watchProgress.updatedAt,
      })
      .from(watchProgress)
      .innerJoin(films, eq(films.id, watchProgress.filmId))
      .where(eq(watchProgress.userId, userId))
      .orderBy(asc(watchProgress.updatedAt), asc(films.slug), asc(watchProgress.episode)),
};
