// The demo's release history (`npm start`, never production): the demo source is crawled once, so every episode
// is first seen at the same moment and "Lịch chiếu" would stay empty. A few ongoing demo series get the weekly
// arrivals a real crawl would have recorded over the past weeks, already notified (no push goes out for them).
import { and, count, eq, max } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { episodeReleases, episodes, films } from '../../db/schema';

const DAY_MS = 86_400_000;
const VN_OFFSET_MS = 7 * 3600_000;
const SERIES = 10;
const RELEASES = 6;

/** Records past weekly arrivals for up to SERIES ongoing series; nothing when any release is already recorded. */
export async function seedDemoReleaseHistory(db: Db, now: number): Promise<number> {
  const [recorded] = await db.select({ n: count() }).from(episodeReleases);
  if ((recorded?.n ?? 0) > 0) return 0;
  const series = await db
    .select({ id: films.id, last: max(episodes.episode) })
    .from(films)
    .innerJoin(episodes, eq(episodes.filmId, films.id))
    .where(and(eq(films.status, 'ongoing'), eq(films.categoryId, 24)))
    .groupBy(films.id)
    .orderBy(films.id)
    .limit(SERIES);
  const today = Math.floor((now + VN_OFFSET_MS) / DAY_MS);
  const rows: (typeof episodeReleases.$inferInsert)[] = [];
  for (const [i, film] of series.entries()) {
    const last = film.last ?? 0;
    if (last < 4) continue;
    // Spread over the week (some twice a week) and the evening, each arrival a few minutes off its slot.
    const weekdays = i % 3 === 0 ? [(i * 2) % 7, (i * 2 + 1) % 7] : [(i * 2) % 7];
    const minute = (19 + (i % 4)) * 60 + (i % 2) * 30;
    const slots: number[] = [];
    for (let day = today - 1; slots.length < Math.min(RELEASES, last - 1); day--) {
      // 1970-01-01 was a Thursday: ISO weekday − 1 of a local day number.
      if (weekdays.includes((day + 3) % 7)) slots.push(day * DAY_MS - VN_OFFSET_MS + minute * 60_000 + ((slots.length * 7) % 13) * 60_000);
    }
    for (const [k, at] of slots.entries()) rows.push({ filmId: film.id, episode: last - k, createdAt: at, doneAt: at });
  }
  if (rows.length > 0) await db.insert(episodeReleases).values(rows).onConflictDoNothing();
  return rows.length;
}
