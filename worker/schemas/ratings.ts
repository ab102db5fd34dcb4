// Wire contract of film ratings (POST /product/rating_star and the film detail's summary).
import { z } from 'zod';
import { RATING_MAX, RATING_MIN } from './values';

export { RATING_MAX, RATING_MIN } from './values';

const STARS_ERROR = `must be a whole number from ${RATING_MIN} to ${RATING_MAX}`;

/**
 * The legacy payload also carries id and email; they are ignored (identity comes from the token)
 * and stripped by the object schema.
 */
export const rateFilmBodySchema = z.object({
  titlefilm: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200, 'is too long'),
  starselect: z.preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.number({ error: STARS_ERROR }).int(STARS_ERROR).min(RATING_MIN, STARS_ERROR).max(RATING_MAX, STARS_ERROR),
  ),
});

/** Count and mean stars (one decimal, null with no rating): the film detail's general_assessment. */
export interface RatingSummary {
  totalRatings: number;
  averageRating: number | null;
}

export interface RateFilmResult {
  /** The viewer's own stars. */
  rating: number;
  general_assessment: RatingSummary;
}
