// Wire contract of comment moderation (issue 33, docs/decisions/0230-comment-moderation.md): reports, hidden
// authors, the moderation queue and its actions, mutes and bans, the filter's word list. Texts and limits live in
// values.ts (the web imports those without zod).
import { z } from 'zod';
import {
  COMMENT_REPORT_NOTE_MAX,
  COMMENT_REPORT_REASON_TEXT,
  COMMENT_REPORT_REASONS,
  type CommentReportReason,
  MODERATION_REASON_MAX,
  MODERATION_TEXTS,
  MUTE_DURATIONS,
} from './values';

export {
  COMMENT_HOLD_TEXT,
  COMMENT_REPORT_REASON_TEXT,
  COMMENT_REPORT_REASONS,
  MODERATION_TEXTS,
  MUTE_DURATION_TEXT,
  MUTE_DURATIONS,
  UPLOADER_MUTE_DURATIONS,
} from './values';
export type { CommentReportReason, MuteDuration } from './values';

const id = (what: string) =>
  z.coerce
    .number({ error: `must be a ${what} id` })
    .int(`must be a ${what} id`)
    .positive(`must be a ${what} id`)
    .max(Number.MAX_SAFE_INTEGER, `must be a ${what} id`);
const reasonText = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(MODERATION_REASON_MAX, `must be at most ${MODERATION_REASON_MAX} characters`);

export const commentIdParamSchema = z.object({ id: id('comment') });
export const userIdParamSchema = z.object({ id: id('user') });
export const wordIdParamSchema = z.object({ id: id('word') });

/** The reason as the form shows it ("Spam / quảng cáo") is taken for its key ('spam'). */
const reasonKey = (v: unknown) => {
  if (typeof v !== 'string') return v;
  const key = (Object.entries(COMMENT_REPORT_REASON_TEXT) as [CommentReportReason, string][]).find(
    ([, text]) => text.toLowerCase() === v.trim().toLowerCase(),
  )?.[0];
  return key ?? v.trim().toLowerCase();
};

/** POST /api/comments/{id}/report */
export const reportBodySchema = z
  .object({
    reason: z.preprocess(reasonKey, z.enum(COMMENT_REPORT_REASONS, { error: `must be one of ${COMMENT_REPORT_REASONS.join(', ')}` })),
    note: z
      .string({ error: 'must be text' })
      .trim()
      .max(COMMENT_REPORT_NOTE_MAX, `must be at most ${COMMENT_REPORT_NOTE_MAX} characters`)
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (v.reason === 'other' && !v.note) ctx.addIssue({ code: 'custom', path: ['note'], message: MODERATION_TEXTS.noteRequired });
  });
export type ReportBody = z.infer<typeof reportBodySchema>;
export interface ReportResponse {
  message: string;
  /** The report made the comment reach the threshold: it is hidden until a moderator decides. */
  hidden: boolean;
}

/** A member someone hid ("Ẩn bình luận của người này"). */
export interface HiddenAuthor {
  id: number;
  username: string;
  hiddenAt: number;
}
export interface HiddenAuthorsResponse {
  data: HiddenAuthor[];
}

/** GET /api/product/{slug}/comments/token: the live room's identity for a signed-in member, and their mute. */
export interface CommentRoomAccess {
  token: string;
  /** Unix ms. */
  expiresAt: number;
  /** Set while the member is muted: the page shows it instead of the form, and the room refuses the socket. */
  mute: { until: number | null; reason: string; message: string } | null;
  /** Members whose comments this member hid. */
  hiddenAuthors: number[];
}

// ---- the queue -------------------------------------------------------------------------------------------------

export const MODERATION_PAGE_SIZE = 20;
export const moderationQueueQuerySchema = z.object({
  /** all: held and reported; held: kept back by the filter; reported: with open reports (hidden or not). */
  filter: z.enum(['all', 'held', 'reported'], { error: 'must be all, held or reported' }).default('all'),
  sort: z.enum(['newest', 'reports'], { error: 'must be newest or reports' }).default('newest'),
  page: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be 1 or more')
    .max(10_000)
    .default(1),
});
export type ModerationQueueQuery = z.infer<typeof moderationQueueQuerySchema>;

export interface ModerationAuthor {
  id: number;
  username: string;
  email: string;
  createdAt: number;
  /** Their comments, those removed, and open or past reports against them. */
  history: { comments: number; removed: number; reportsAgainst: number };
  mute: { until: number | null; reason: string } | null;
  banned: { at: number; reason: string } | null;
}
export interface ModerationItem {
  id: number;
  text: string;
  /** The text as written, when the filter masked words. */
  rawText: string | null;
  status: 'visible' | 'held' | 'hidden';
  holdReason: 'word' | 'link' | 'phone' | 'duplicate' | null;
  spoiler: boolean;
  film: { slug: string; title: string };
  episode: number | null;
  parentId: number | null;
  createdAt: number;
  /** When it entered the queue. */
  queuedAt: number;
  author: ModerationAuthor;
  /** Open reports, by reason, with the reporters' own words. */
  reports: { count: number; byReason: Partial<Record<CommentReportReason, number>>; notes: string[] };
}
export interface ModerationQueueResponse {
  data: ModerationItem[];
  pagination: { page: number; pageSize: number; totalItems: number; totalPages: number };
  /** The whole queue the viewer moderates: its size and when its oldest item entered it (the 24-hour clock). */
  summary: { open: number; oldestAt: number | null };
}

export const approveBodySchema = z
  .object({
    reason: reasonText.optional(),
    /** Keep it, marked as a spoiler (a spoiler report upheld without removing the comment). */
    spoiler: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .default({});
export const removeBodySchema = z.object({ reason: reasonText });
/** A duration as days (1, 7, 30) or words ("permanent") is taken for its key. */
const durationKey = (v: unknown) => {
  if (v === 1 || v === '1') return '1d';
  if (v === 7 || v === '7') return '7d';
  if (v === 30 || v === '30') return '30d';
  if (v === 'permanent' || v === 'permanently' || v === 'for good' || v === 'vinh-vien') return 'forever';
  return v;
};
export const muteBodySchema = z.object({
  duration: z.preprocess(durationKey, z.enum(MUTE_DURATIONS, { error: `must be one of ${MUTE_DURATIONS.join(', ')}` })),
  reason: reasonText,
  /** The comment that led to it: a VIP2 uploader mutes only authors in their own threads. */
  commentId: id('comment').optional(),
});
export const banBodySchema = z.object({ reason: reasonText, commentId: id('comment').optional() });
export type MuteBody = z.infer<typeof muteBodySchema>;

export interface ModerationActionResponse {
  message: string;
  /** The audit entry recording it ("Hoàn tác" undoes it from there). */
  auditId: number;
}

// ---- the word list ---------------------------------------------------------------------------------------------

export const WORD_PHRASE_MAX = 80;
/** `word` is taken for `phrase`. */
const wordAlias = (v: unknown) =>
  v && typeof v === 'object' && !('phrase' in v) && 'word' in v
    ? { ...(v as Record<string, unknown>), phrase: (v as { word: unknown }).word }
    : v;
export const wordBodySchema = z.preprocess(
  wordAlias,
  z.object({
    phrase: z
      .string({ error: 'is required' })
      .trim()
      .min(1, 'is required')
      .max(WORD_PHRASE_MAX, `must be at most ${WORD_PHRASE_MAX} characters`),
    action: z.enum(['hold', 'mask'], { error: 'must be hold or mask' }),
  }),
);
export type WordBody = z.infer<typeof wordBodySchema>;
export interface CommentWord {
  id: number;
  phrase: string;
  action: 'hold' | 'mask';
  createdAt: number;
}
export interface CommentWordsResponse {
  data: CommentWord[];
}
export const wordCheckSchema = z.object({
  text: z
    .string({ error: 'is required' })
    .min(1, 'is required')
    .refine((s) => [...s].length <= 2000, 'must be at most 2000 characters'),
});
export interface WordCheckResponse {
  /** What readers would see. */
  text: string;
  hold: 'word' | 'link' | 'phone' | null;
  matched: { id: number; phrase: string; action: 'hold' | 'mask' }[];
}

// ---- slow mode ("Chế độ chậm", issue 38, docs/decisions/1002-comment-slow-mode.md) ----
export const SLOW_MODE_SETTINGS = ['auto', 'on', 'off'] as const;
export type SlowModeSetting = (typeof SLOW_MODE_SETTINGS)[number];
export const SLOW_MODE_SETTING_TEXT: Record<SlowModeSetting, string> = {
  auto: 'Tự động (khi bình luận dồn dập)',
  on: 'Bật',
  off: 'Tắt',
};
export const slowModeParamSchema = z.object({ slug: z.string().trim().min(1, 'is required').max(200, 'is too long') });
export const slowModeBodySchema = z.object({
  mode: z.enum(SLOW_MODE_SETTINGS, { error: `must be one of ${SLOW_MODE_SETTINGS.join(', ')}` }),
});
/** GET/PUT /api/admin/comments/slow-mode/{slug}: the film's setting, whether it is on now, and its wait. */
export interface SlowModeResponse {
  slug: string;
  mode: SlowModeSetting;
  on: boolean;
  seconds: number;
  message?: string;
  auditId?: number;
}
