// Wire contract of comments: the REST endpoints and the live room (party/messages.ts) share it.
import { z } from 'zod';
import { COMMENT_MAX_LENGTH } from './values';

export { COMMENT_MAX_LENGTH, COMMENT_MESSAGES, COMMENTS_PARTY, PARTY_SECRET_HEADER } from './values';

export interface CommentDto {
  id: number;
  parent_id: number | null;
  comment: string;
  createdAt: number;
  users: { username: string };
  /** The author's account id: "Ẩn bình luận của người này", and one's own comments. 0 on a placeholder. */
  user_id: number;
  /** Marked "Có tiết lộ nội dung": the text shows blurred until the reader taps "Hiện". */
  spoiler?: true;
  /** The episode it was written under (watch page). */
  episode?: number;
  /**
   * Absent on a comment everyone sees. 'pending': held by the filter or hidden by reports, shown to its author
   * alone ("Đang chờ duyệt"); 'removed': taken down (to its author, with removal_reason; to others, a placeholder
   * "Bình luận đã bị gỡ" kept because it has replies); 'hidden': hidden by reports, a placeholder kept for its replies.
   */
  state?: 'pending' | 'removed' | 'hidden';
  /** To the author of a removed comment only: the moderator's reason. */
  removal_reason?: string;
}

/** GET /api/product/{slug}/comments?since=: newer comments, and those the page may hold that were taken down since. */
export interface CommentsSinceResponse {
  data: CommentDto[];
  /** Ids up to `since` now removed or hidden: a page drops them (or keeps a placeholder over their replies). */
  withdrawn: { id: number; state: 'removed' | 'hidden' }[];
  /** With ?before=: where the next older page starts, null after the oldest thread. */
  next_before?: number | null;
  /** With ?before=: the film's visible comment count (the heading's). */
  total?: number;
}

const emptyToNull = (v: unknown) => (v === '' || v === undefined || v === null || v === 0 || v === '0' ? null : v);
const idLike = z
  .union([z.number(), z.string().trim().regex(/^\d+$/, 'must be a comment id').transform(Number)], { error: 'must be a comment id' })
  .pipe(z.number().int('must be a comment id').positive('must be a comment id').max(Number.MAX_SAFE_INTEGER));

export const createCommentBodySchema = z.object({
  /** Film slug (the legacy payload calls it titlefilm). */
  titlefilm: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200, 'is too long'),
  /** Stored as written (trimmed); the web renders it as text, never as HTML. */
  contentcomment: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .refine((s) => [...s].length <= COMMENT_MAX_LENGTH, `must be at most ${COMMENT_MAX_LENGTH} characters`),
  /** Empty for a top-level comment (the legacy client sends '' or null). */
  parent_id: z.preprocess(emptyToNull, idLike.nullable()).optional(),
  /** "Có tiết lộ nội dung". */
  spoiler: z.boolean({ error: 'must be true or false' }).optional(),
  /** The episode being watched (watch page). */
  episode: z.number({ error: 'must be an episode number' }).int('must be an episode number').min(0).max(100_000).optional(),
  /**
   * Chosen by the page when the member starts the comment (a UUID) and sent again on a retry: the retry answers the
   * first comment instead of storing a second (issue 39).
   */
  client_id: z
    .string({ error: 'must be a client id' })
    .regex(/^[A-Za-z0-9-]{8,64}$/, 'must be a client id')
    .optional(),
});
export type CreateCommentBody = z.infer<typeof createCommentBodySchema>;

export const commentsQuerySchema = z.object({
  /** Only comments with a larger id: what a reconnecting client missed. */
  since: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number({ error: 'must be a comment id' }).int('must be a comment id').min(0, 'must be a comment id').optional(),
  ),
  /** "Xem thêm bình luận": the threads older than this top-level comment id (the detail's comments_cursor). */
  before: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce
      .number({ error: 'must be a comment id' })
      .int('must be a comment id')
      .positive('must be a comment id')
      .max(Number.MAX_SAFE_INTEGER, 'must be a comment id')
      .optional(),
  ),
});
