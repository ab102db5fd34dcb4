import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ratings } from '../../db/schema';
import type { RateFilmResult } from '../../schemas/ratings';
import { ratingSummary } from '../catalogue/detail';
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
