// Wire contract of issue 40 §7: reports of how a device skipped an intro or left for the next episode, the episode's
// published segments, and the admin's view and fixes. Texts the player shows are in segment-texts.ts.
import { z } from 'zod';
import { SKIP_RULES } from './segment-texts';

export * from './segment-texts';

const seconds = (max: number) =>
  z
    .number({ error: 'must be a number of seconds' })
    .finite('must be a number of seconds')
    .min(0, 'must be 0 or more')
    .max(max, `must be at most ${max}`);

/** POST /api/segments/report: one device's skip run (intro) or leave (credits), once per device, episode and server. */
export const segmentReportSchema = z
  .object({
    slug: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200),
    episode: z.number({ error: 'must be an episode number' }).int('must be an episode number').min(0).max(99_999),
    server: z.string({ error: 'is required' }).min(1, 'is required').max(100),
    device: z.string({ error: 'is required' }).regex(/^[A-Za-z0-9_-]{16,64}$/, 'must be 16 to 64 letters, digits, - or _'),
    kind: z.enum(['intro', 'credits'], { error: "must be 'intro' or 'credits'" }),
    /** intro: where the run started; credits: where the viewer left (= end). */
    start: seconds(86_400),
    /** intro: where the run's last seek left from (double taps: the last moment seen before the last tap). */
    before: seconds(86_400).optional(),
    /** intro: the run was equal steps (double taps, L presses). */
    stepped: z.boolean({ error: 'must be true or false' }).default(false),
    /** intro: where the run landed; credits: where the viewer left. */
    end: seconds(86_400),
    /** The episode's duration on the ad-filtered timeline. */
    duration: seconds(86_400).min(60, 'must be at least 60'),
    via: z.enum(['seek', 'button', 'auto'], { error: "must be 'seek', 'button' or 'auto'" }).default('seek'),
    back: z.boolean({ error: 'must be true or false' }).default(false),
  })
  .superRefine((r, ctx) => {
    if (r.end > r.duration + 1) ctx.addIssue({ code: 'custom', path: ['end'], message: 'must be within the episode' });
    if (r.kind === 'intro') {
      const run = r.end - r.start;
      if (r.before !== undefined && (r.before < r.start || r.before >= r.end))
        ctx.addIssue({ code: 'custom', path: ['before'], message: 'must be from start to before end' });
      else if (r.start > Math.min(r.duration * SKIP_RULES.introShare, SKIP_RULES.introMaxStart))
        ctx.addIssue({ code: 'custom', path: ['start'], message: "must be in the episode's first part" });
      else if (r.via !== 'seek' ? run <= 0 : run < SKIP_RULES.minRun || run > SKIP_RULES.maxRun)
        ctx.addIssue({ code: 'custom', path: ['end'], message: `must be ${SKIP_RULES.minRun} to ${SKIP_RULES.maxRun} s after start` });
    } else if (r.end < r.duration - Math.min(r.duration * SKIP_RULES.creditsShare, SKIP_RULES.creditsMaxSpan) || r.start !== r.end)
      ctx.addIssue({ code: 'custom', path: ['end'], message: "must be in the episode's last part, and equal to start" });
  });
export type SegmentReportInput = z.infer<typeof segmentReportSchema>;

export const segmentParamSchema = z.object({
  slug: z.string().min(1).max(200),
  episode: z
    .string()
    .regex(/^(tap-)?\d{1,5}$/, "must be a number or 'tap-{n}'")
    .transform((s) => Number(s.replace('tap-', ''))),
});
export const segmentQuerySchema = z.object({ server: z.string().min(1, 'is required').max(100) });

/** A segment as the admin sees it. */
export interface AdminSegment {
  episode: number;
  server: string;
  kind: 'intro' | 'credits';
  start: number;
  end: number;
  devices: number;
  hidden: boolean;
  locked: boolean;
  /** Reports received for it, and how many of them sought back right after the skip. */
  reports: number;
  against: number;
}

/** GET /api/admin/segments?slug=: every segment of the film, by episode. */
export interface AdminSegmentsResponse {
  data: AdminSegment[];
}

export const adminSegmentsQuerySchema = z.object({ slug: z.string({ error: 'is required' }).min(1, 'is required').max(200) });

/** PUT /api/admin/segments: an admin sets (fixes), hides or locks one segment. */
export const adminSegmentSchema = z
  .object({
    slug: z.string({ error: 'is required' }).min(1, 'is required').max(200),
    episode: z.number({ error: 'must be an episode number' }).int('must be an episode number').min(0).max(99_999),
    server: z.string({ error: 'is required' }).min(1, 'is required').max(100),
    kind: z.enum(['intro', 'credits'], { error: "must be 'intro' or 'credits'" }),
    start: seconds(86_400),
    end: seconds(86_400),
    hidden: z.boolean({ error: 'must be true or false' }),
    locked: z.boolean({ error: 'must be true or false' }),
  })
  .refine((s) => s.kind === 'credits' || s.end > s.start, { path: ['end'], message: 'must be after start' });
export type AdminSegmentInput = z.infer<typeof adminSegmentSchema>;
