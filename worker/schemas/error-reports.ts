// Wire contract of POST /product/report_error (the watch page's 'Báo lỗi' button).
import { z } from 'zod';
import { AUTO_REPORT_REASON, REPORT_MESSAGE_MAX_LENGTH, REPORT_REASONS } from './values';

export { AUTO_REPORT_REASON, REPORT_MESSAGE_MAX_LENGTH, REPORT_MESSAGES, REPORT_REASONS } from './values';

const REASONS = [...REPORT_REASONS, AUTO_REPORT_REASON] as const;

export const reportErrorSchema = z.object({
  slug: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200),
  episode: z.number({ error: 'must be an episode number' }).int().min(1).max(100_000),
  server_name: z.string().max(100).optional(),
  reason: z.enum(REASONS, { error: `must be one of ${REASONS.join(', ')}` }),
  message: z.string().max(REPORT_MESSAGE_MAX_LENGTH, `must be at most ${REPORT_MESSAGE_MAX_LENGTH} characters`).optional(),
});
export type ReportErrorInput = z.infer<typeof reportErrorSchema>;
/** What a viewer may choose in the 'Báo lỗi' dialog (the player files AUTO_REPORT_REASON itself). */
export type ViewerReportReason = (typeof REPORT_REASONS)[number];
