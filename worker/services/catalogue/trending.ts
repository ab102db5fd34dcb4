import { and, eq, gte, inArray, lt, lte, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import { filmViewsHourly, films, trendingViews, trendingWindows } from '../../db/schema';

export const HOUR = 60 * 60 * 1000;
/** Hourly buckets are kept a day past the longest window, so a window moved back can be summed again. */
const ROLLUP_HOURS = 31 * 24;

/**
 * The scheduler's trending job (docs/decisions/0607): moves each window's start to the current hour minus
 * its length, subtracting from the kept counts the hours that left the window (only those hours' rows are
 * read, not the window), and prunes the hourly rollup. A window whose start would move back (a clock set
 * back) is summed again from the rollup. One batch: one transaction, so a view written meanwhile is
 * counted once.
 */
export async function refreshTrending(db: Db, now: number): Promise<void> {
  const hour = Math.floor(now / HOUR);
  const windows = await db.select().from(trendingWindows);
  const moves = windows
    .map((w) => ({ ...w, since: hour - w.hours }))
    .filter((w) => w.since !== w.sinceHour)
    .flatMap((w): BatchItem<'sqlite'>[] => {
      const span = eq(trendingViews.span, w.name);
      // Another run of this job (a second host on the same database) may have moved it meanwhile.
      const unmoved = sql`(select ${trendingWindows.sinceHour} from ${trendingWindows} where ${trendingWindows.name} = ${w.name}) = ${w.sinceHour}`;
      const setSince = db
        .update(trendingWindows)
        .set({ sinceHour: w.since })
        .where(and(eq(trendingWindows.name, w.name), eq(trendingWindows.sinceHour, w.sinceHour)));
      if (w.since > w.sinceHour) {
        const left = and(gte(filmViewsHourly.hour, w.sinceHour), lt(filmViewsHourly.hour, w.since));
        const leftViews = db
          .select({ n: sql<number>`sum(${filmViewsHourly.views})` })
          .from(filmViewsHourly)
          .where(and(eq(filmViewsHourly.filmId, trendingViews.filmId), left));
        return [
          db
            .update(trendingViews)
            .set({ views: sql`${trendingViews.views} - (${leftViews})` })
            .where(
              and(
                span,
                unmoved,
                inArray(trendingViews.filmId, db.select({ id: filmViewsHourly.filmId }).from(filmViewsHourly).where(left)),
              ),
            ),
          db.delete(trendingViews).where(and(span, lte(trendingViews.views, 0))),
          setSince,
        ];
      }
      return [
        db.delete(trendingViews).where(and(span, unmoved)),
        db.run(sql`
          insert into ${trendingViews} (span, film_id, views, film_views)
          select ${w.name}, ${filmViewsHourly.filmId}, sum(${filmViewsHourly.views}),
            (select ${films.views} from ${films} where ${films.id} = ${filmViewsHourly.filmId})
          from ${filmViewsHourly} where ${filmViewsHourly.hour} >= ${w.since} and ${unmoved}
          group by ${filmViewsHourly.filmId}`),
        setSince,
      ];
    });
  // Pruned after the moves, which may still read hours about to be pruned (a job that had not run for a day).
  const [first, ...rest] = [...moves, db.delete(filmViewsHourly).where(lt(filmViewsHourly.hour, hour - ROLLUP_HOURS))];
  await db.batch([first!, ...rest]);
}
