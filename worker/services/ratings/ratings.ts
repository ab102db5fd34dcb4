import { and, avg, count, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ratings } from '../../db/schema';
import type { FilmDetailResponse } from '../../schemas/catalogue';
import { filmIdBySlug } from '../catalogue/film-lookup';
import { enforceRateLimits, RATE_LIMITS } from '../rate-limit';

/** Count and mean stars (one decimal, null with no rating): the film detail's general_assessment. */
export type RatingSummary = FilmDetailResponse['general_assessment'];

export interface RateFilmResult {
  /** The viewer's own stars. */
  rating: number;
  general_assessment: RatingSummary;
}

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

export async function ratingSummary(db: Db, filmId: number): Promise<RatingSummary> {
  const [row] = await db
    .select({ total: count(), average: avg(ratings.stars) })
    .from(ratings)
    .where(eq(ratings.filmId, filmId));
  const total = row?.total ?? 0;
  return { totalRatings: total, averageRating: total > 0 && row?.average != null ? Math.round(Number(row.average) * 10) / 10 : null };
}

/** The viewer's own stars for the film, or null before they rate it. */
export async function ownRating(db: Db, filmId: number, userId: number): Promise<number | null> {
  const [row] = await db
    .select({ stars: ratings.stars })
    .from(ratings)
    .where(and(eq(ratings.filmId, filmId), eq(ratings.userId, userId)))
    .limit(1);
  return row?.stars ?? null;
}
