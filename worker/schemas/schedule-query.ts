// GET /api/series's query (worker/routes/schedule.ts): apart from schedule.ts, which the web imports for its texts.
import { z } from 'zod';
import { SERIES_STATUS_MAX } from './schedule';

/** GET /api/series?slugs=a,b: slugs separated by commas, at most SERIES_STATUS_MAX. */
export const seriesStatusQuerySchema = z.object({
  slugs: z
    .string({ error: 'is required' })
    .transform((s) => [
      ...new Set(
        s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(
      z
        .array(z.string().max(200, 'has a slug longer than 200 characters'))
        .min(1, 'is required')
        .max(SERIES_STATUS_MAX, `has more than ${SERIES_STATUS_MAX} slugs`),
    ),
});
