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
}) satisfies z.ZodMiniType<CommentDto>;

/** API → room (HTTP POST with the shared secret). */
export const roomPushSchema = z.discriminatedUnion('type', [z.object({ type: z.literal('comment'), comment: commentSchema })]);
export type RoomPush = z.infer<typeof roomPushSchema>;

/** Room → browser (WebSocket). */
export const roomEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('comment'), comment: commentSchema }),
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
