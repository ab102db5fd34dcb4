// Request body of POST /product/rating_star (SPEC.md §7.2). Pure zod.
import { z } from 'zod';

/**
 * The spec's payload also carries id and email; they are ignored (identity comes from the token)
 * and stripped by the object schema.
 */
export const rateFilmBodySchema = z.object({
  titlefilm: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200, 'is too long'),
  starselect: z.preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: 'must be a whole number from 1 to 10' })
      .int('must be a whole number from 1 to 10')
      .min(1, 'must be a whole number from 1 to 10')
      .max(10, 'must be a whole number from 1 to 10'),
  ),
});
