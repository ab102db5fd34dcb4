// Messages of the live comment rooms, shared by the API (push), the room (party/comments.ts) and the
// web client. Inbound = what the API pushes to a room; outbound = what a room sends to browsers;
// client = the only thing a browser may send (a keep-alive ping). Validate with safeParse.
// zod/mini: the same validation at a quarter of the size the film and watch pages download.
import * as z from 'zod/mini';
import type { CommentDto } from '../worker/schemas/comments';

export const commentSchema = z.object({
  id: z.number().check(z.int(), z.positive()),
  parent_id: z.nullable(z.number().check(z.int(), z.positive())),
  comment: z.string().check(z.minLength(1), z.maxLength(10_000)),
  createdAt: z.number(),
  users: z.object({ username: z.string() }),
  /** Optional on the wire so a push of the spec's shape (before issue 33) is still taken. */
  user_id: z.optional(z.number().check(z.int(), z.gte(0))),
  spoiler: z.optional(z.literal(true)),
  episode: z.optional(z.number().check(z.int(), z.gte(0))),
}) satisfies z.ZodMiniType<Omit<CommentDto, 'state' | 'removal_reason' | 'user_id'> & { user_id?: number }>;

const withdrawnState = z.enum(['removed', 'hidden']);
const reason = z.string().check(z.minLength(1), z.maxLength(1000));

/** Close code of a socket the room refuses: its member is muted or banned (the reason came in a 'refused' event first). */
export const COMMENT_ROOM_REFUSED = 4403;
/** Close code of a socket whose member token is not valid (the page asks for a fresh one and reconnects). */
export const COMMENT_ROOM_BAD_TOKEN = 4401;

/** Member tokens of the comment rooms (party/comment-token.ts): short-lived, asked for on every (re)connect. */
export const COMMENT_TOKEN_AUDIENCE = 'phimviet-comments';
export const COMMENT_TOKEN_TTL_SECONDS = 600;

/**
 * API → room (HTTP POST with the shared secret). comment: a comment readers may see (new, approved or restored:
 * pages add it or put it back); withdraw: a comment removed or hidden (pages drop it, or keep a placeholder for its
 * replies; its author's pages hear the reason); refuse: a member was muted or banned (their sockets get the reason
 * and are closed).
 */
export const roomPushSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('comment'),
    comment: commentSchema,
    /** The author of the comment this one replies to: that member's sockets always get it (never capped). */
    parentAuthorId: z.optional(z.number().check(z.int(), z.positive())),
    /** Written by staff (admin or moderator): always delivered, never capped. */
    fromStaff: z.optional(z.literal(true)),
  }),
  z.object({
    type: z.literal('withdraw'),
    id: z.number().check(z.int(), z.positive()),
    state: withdrawnState,
    authorId: z.number().check(z.int(), z.positive()),
    reason: z.optional(reason),
  }),
  z.object({ type: z.literal('refuse'), userId: z.number().check(z.int(), z.positive()), message: reason }),
  /** The film's slow mode changed: each member may post once per `seconds` in this film (0 = off). */
  z.object({ type: z.literal('slow-mode'), seconds: z.number().check(z.int(), z.gte(0), z.lte(3600)) }),
  /** The room is about to restart (a deploy, a move): every socket is told when to come back, spread, then closed. */
  z.object({ type: z.literal('reconnect') }),
]);
export type RoomPush = z.infer<typeof roomPushSchema>;

/** Room → browser (WebSocket). A withdraw's reason goes to its author's sockets only. */
const commentEvent = z.object({ type: z.literal('comment'), comment: commentSchema });
const withdrawEvent = z.object({
  type: z.literal('withdraw'),
  id: z.number().check(z.int(), z.positive()),
  state: withdrawnState,
  reason: z.optional(reason),
});

export const roomEventSchema = z.discriminatedUnion('type', [
  commentEvent,
  withdrawEvent,
  /**
   * Everything of one send window (100–250 ms) in one frame, oldest first. `skipped`: comments of the window this
   * socket did not get because it was over its per-second cap ("+N bình luận mới"); the page loads them on demand.
   */
  z.object({
    type: z.literal('batch'),
    events: z.array(z.discriminatedUnion('type', [commentEvent, withdrawEvent])),
    skipped: z.number().check(z.int(), z.gte(0)),
  }),
  /** How many sockets the room holds ("N người đang xem"); sent on connect and at most every few seconds. */
  z.object({ type: z.literal('presence'), count: z.number().check(z.int(), z.gte(0)) }),
  /** The film's slow mode: one post per `seconds` per member (0 = off); sent on connect while on, and on change. */
  z.object({ type: z.literal('slow-mode'), seconds: z.number().check(z.int(), z.gte(0), z.lte(3600)) }),
  /** The room is going away: reconnect after `afterMs` (spread by the room so sockets do not return at once). */
  z.object({ type: z.literal('reconnect'), afterMs: z.number().check(z.int(), z.gte(0), z.lte(60_000)) }),
  z.object({ type: z.literal('refused'), message: reason }),
  z.object({ type: z.literal('pong') }),
]);
export type RoomEvent = z.infer<typeof roomEventSchema>;

/** Browser → room (WebSocket). Anything else is ignored; nothing a browser sends is relayed. */
export const clientMessageSchema = z.discriminatedUnion('type', [z.object({ type: z.literal('ping') })]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

/** Parses a WebSocket frame from a room; null for anything that is not a known event. */
export function parseRoomEvent(data: unknown): RoomEvent | null {
  if (typeof data !== 'string') return null;
  try {
    const parsed = roomEventSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
