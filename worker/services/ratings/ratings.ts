import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ratings } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { ratingSummary } from '../catalogue/detail';
import { findFilmIdBySlug } from '../comments/comments';
import { enforceRateLimits, RATE_LIMITS } from '../rate-limit';

export interface RatingSummary {
  totalRatings: number;
  /** Mean of all stars to one decimal; null when nobody has rated (the web shows 'N/A'). */
  averageRating: number | null;
}

export interface RateFilmResult {
  /** The viewer's own stars. */
  rating: number;
  general_assessment: RatingSummary;
}

/** One rating per user per film: rating again replaces the stars. */
export async function rateFilm(db: Db, input: { filmSlug: string; userId: number; stars: number; now: number }): Promise<RateFilmResult> {
  const filmId = await findFilmIdBySlug(db, input.filmSlug);
  if (filmId === null) throw notFound('titlefilm: không tìm thấy phim');
  await enforceRateLimits(db, [{ key: `rating:user:${input.userId}`, ...RATE_LIMITS.ratingPerUser }], input.now);
  await db
    .insert(ratings)
    .values({ filmId, userId: input.userId, stars: input.stars, createdAt: input.now, updatedAt: input.now })
    .onConflictDoUpdate({ target: [ratings.filmId, ratings.userId], set: { stars: sql`excluded.stars`, updatedAt: sql`excluded.updated_at` } });
  return { rating: input.stars, general_assessment: await ratingSummary(db, filmId) };
}
