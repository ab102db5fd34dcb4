import { and, avg, count, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ratings } from '../../db/schema';
import type { RateFilmResult, RatingSummary } from '../../schemas/ratings';
import { filmIdBySlug } from '../catalogue/film-lookup';
import { enforceRateLimits, RATE_LIMITS } from '../rate-limit';

/** One rating per user per film: rating again replaces the stars. */
export async function rateFilm(db: Db, input: { filmSlug: string; userId: number; stars: number; now: number }): Promise<RateFilmResult> {
  const filmId = await filmIdBySlug(db, input.filmSlug, 'titlefilm');
  await enforceRateLimits(db, [{ key: `rating:user:${input.userId}`, ...RATE_LIMITS.ratingPerUser }], input.now);
  await db
    .insert(ratings)
    .values({ filmId, userId: input.userId, stars: input.stars, createdAt: input.now, updatedAt: input.now })
    .onConflictDoUpdate({
      target: [ratings.filmId, ratings.userId],
      set: { stars: sql`excluded.stars`, updatedAt: sql`excluded.updated_at` },
    });
  return { rating: input.stars, general_assessment: await ratingSummary(db, filmId) };
}

/** The statements of a film's rating summary and a viewer's own stars, unexecuted so the film detail can batch them. */
export const ratingSummaryQuery = (db: Db, filmId: number | SQL) =>
  db
    .select({ total: count(), average: avg(ratings.stars) })
    .from(ratings)
    .where(eq(ratings.filmId, filmId));

export function toRatingSummary([row]: Awaited<ReturnType<typeof ratingSummaryQuery>>): RatingSummary {
  const total = row?.total ?? 0;
  return { totalRatings: total, averageRating: total > 0 && row?.average != null ? Math.round(Number(row.average) * 10) / 10 : null };
}

export async function ratingSummary(db: Db, filmId: number): Promise<RatingSummary> {
  return toRatingSummary(await ratingSummaryQuery(db, filmId));
}

export const ownRatingQuery = (db: Db, filmId: number | SQL, userId: number) =>
  db
    .select({ stars: ratings.stars })
    .from(ratings)
    .where(and(eq(ratings.filmId, filmId), eq(ratings.userId, userId)))
    .limit(1);

/** The viewer's own stars for the film, or null before they rate it. */
export async function ownRating(db: Db, filmId: number, userId: number): Promise<number | null> {
  return (await ownRatingQuery(db, filmId, userId))[0]?.stars ?? null;
}
