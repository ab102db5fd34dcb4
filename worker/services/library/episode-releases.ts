// New episodes, as the one film writer sees them: an episode number a film did not have before a write.
// Recorded in the write's transaction (so a rolled-back write announces nothing), at most once per
// (film, episode) ever, and later sent to the film's followers by services/push/notifier.ts.
import { eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { episodeReleases, episodes } from '../../db/schema';
import type { FilmTx } from '../films/film-writer';

/** The film's episode numbers (any server) before a write changes them. */
export async function episodeNumbers(tx: FilmTx, filmId: number): Promise<Set<number>> {
  const rows = await tx.selectDistinct({ episode: episodes.episode }).from(episodes).where(eq(episodes.filmId, filmId));
  return new Set(rows.map((r) => r.episode));
}

/** The numbers in `after` missing from `before`, ascending: the episodes a write adds. */
export function newEpisodeNumbers(before: ReadonlySet<number>, after: Iterable<number>): number[] {
  return [...new Set(after)].filter((n) => !before.has(n)).sort((a, b) => a - b);
}

/** The statement recording `added` as released now; a number already released stays as it was. */
export function releaseInserts(db: Pick<Db, 'insert'>, filmId: number | SQL, added: readonly number[], now: number) {
  return db
    .insert(episodeReleases)
    .values(added.map((episode) => ({ filmId, episode, createdAt: now })))
    .onConflictDoNothing({ target: [episodeReleases.filmId, episodeReleases.episode] });
}

/** Records the numbers in `after` missing from `before` as released now; returns them, ascending. */
export async function recordEpisodeReleases(
  tx: FilmTx,
  filmId: number,
  before: ReadonlySet<number>,
  after: Iterable<number>,
  now: number,
): Promise<number[]> {
  const added = newEpisodeNumbers(before, after);
  if (added.length) await releaseInserts(tx, filmId, added, now);
  return added;
}
