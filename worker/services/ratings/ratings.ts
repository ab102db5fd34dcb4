import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ratings } from '../../db/schema';
import type { FilmDetailResponse } from '../../schemas/catalogue';
import { ratingSummary } from '../catalogue/detail';
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
