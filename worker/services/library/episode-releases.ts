// New episodes, as the one film writer sees them: an episode number a film did not have before a write.
// Recorded in the write's transaction (so a rolled-back write announces nothing), at most once per
// (film, episode) ever, and later sent to the film's followers by services/push/notifier.ts.
import { eq } from 'drizzle-orm';
import { episodeReleases, episodes } from '../../db/schema';
import type { FilmTx } from '../films/film-writer';

/** The film's episode numbers (any server) before a write changes them. */
export async function episodeNumbers(tx: FilmTx, filmId: number): Promise<Set<number>> {
  const rows = await tx.selectDistinct({ episode: episodes.episode }).from(episodes).where(eq(episodes.filmId, filmId));
  return new Set(rows.map((r) => r.episode));
}

/** Records the numbers in `after` missing from `before` as released now; returns them, ascending. */
export async function recordEpisodeReleases(
  tx: FilmTx,
  filmId: number,
  before: ReadonlySet<number>,
  after: Iterable<number>,
  now: number,
): Promise<number[]> {
  const added = [...new Set(after)].filter((n) => !before.has(n)).sort((a, b) => a - b);
  if (added.length === 0) return added;
  await tx
    .insert(episodeReleases)
    .values(added.map((episode) => ({ filmId, episode, createdAt: now })))
    .onConflictDoNothing({ target: [episodeReleases.filmId, episodeReleases.episode] });
  return added;
}
