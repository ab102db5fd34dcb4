import type * as Party from 'partykit/server';
import { verifyCommentToken } from './comment-token';
import { clientMessageSchema, COMMENT_ROOM_BAD_TOKEN, COMMENT_ROOM_REFUSED, roomPushSchema, type RoomEvent } from './messages';
import { closeQuietly, json, readJsonBody, secretRefusal, sendQuietly } from './room-http';
import { tokenOf } from './room-token';

/** The API pushes comments: a POST with the shared secret. */
const pushRefusal = (req: Party.Request, env: Record<string, unknown>) => secretRefusal(req, env, ['POST']);

/** Film slugs are ASCII; anything else is not a room we serve (and would split one film's audience). */
const ROOM_ID = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,199}$/;
const MAX_PUSH_BYTES = 64 * 1024;
/** Browsers only ever need to ping; more frames than this in a window is abuse and closes the socket. */
const CLIENT_FRAMES_PER_WINDOW = 30;
const CLIENT_WINDOW_MS = 10_000;

interface ConnectionState {
  windowStart: number;
  frames: number;
  /** The member behind the socket (from the API's member token); absent for a reader without one. */
  userId?: number;
}

/** Tells a socket why it is refused (a close reason holds 123 bytes, too few for it), then closes it. */
function refuse(connection: Party.Connection, message: string): void {
  sendQuietly(connection, { type: 'refused', message } satisfies RoomEvent);
  closeQuietly(connection, COMMENT_ROOM_REFUSED, 'refused');
}

/**
 * One room per film slug. The API pushes stored comments, removals and refusals over HTTP with the shared secret
 * and the room passes them on; browsers only listen. Nothing a browser sends is ever relayed, so a socket cannot
 * inject a fake comment; a browser may only ping. A signed-in member's page connects with a member token
 * (party/comment-token.ts): the room then knows whose socket it is, to tell an author why their comment was removed
 * and to refuse a muted or banned member's socket with the reason (docs/decisions/0230-comment-moderation.md).
 */
export default class CommentsRoom implements Party.Server {
  readonly options: Party.ServerOptions = { hibernate: true };

  constructor(readonly room: Party.Room) {}

  static onBeforeConnect(req: Party.Request, lobby: Party.Lobby) {
    if (!ROOM_ID.test(lobby.id)) return new Response('Unknown room', { status: 404 });
    return req;
  }

  /**
   * Runs at the edge before the room is woken: a push that is not a POST with the secret is refused there,
   * its body never read nor streamed into the room (which would log "Can't read from request stream after
   * response has been sent" for every refused push).
   */
  static onBeforeRequest(req: Party.Request, lobby: Party.Lobby): Party.Request | Response {
    return pushRefusal(req, lobby.env) ?? req;
  }

  /** A member's socket: its token says who it is, or that the member may not be here (muted, banned). */
  async onConnect(connection: Party.Connection, ctx: Party.ConnectionContext): Promise<void> {
    const token = tokenOf(ctx.request.url);
    const state: ConnectionState = { windowStart: Date.now(), frames: 0 };
    if (token) {
      const claims = await verifyCommentToken(this.room.env.PARTY_SECRET, token, this.room.id, Date.now());
      if (!claims) return closeQuietly(connection, COMMENT_ROOM_BAD_TOKEN, 'bad token');
      if (claims.refused) return refuse(connection, claims.refused);
      state.userId = claims.userId;
    }
    connection.setState(state);
  }

  async onRequest(req: Party.Request): Promise<Response> {
    const refusal = pushRefusal(req, this.room.env);
    if (refusal) return refusal;

    const body = await readJsonBody(req, MAX_PUSH_BYTES, roomPushSchema);
    if ('refusal' in body) return body.refusal;
    const push = body.data;

    let delivered = 0;
    if (push.type === 'comment') {
      this.room.broadcast(JSON.stringify({ type: 'comment', comment: push.comment } satisfies RoomEvent));
      for (const _ of this.room.getConnections()) delivered++;
    } else if (push.type === 'withdraw') {
      const everyone = JSON.stringify({ type: 'withdraw', id: push.id, state: push.state } satisfies RoomEvent);
      for (const connection of this.room.getConnections()) {
        const own = (connection.state as ConnectionState | null)?.userId === push.authorId;
        const sent =
          own && push.reason
            ? sendQuietly(connection, { type: 'withdraw', id: push.id, state: push.state, reason: push.reason } satisfies RoomEvent)
            : sendQuietly(connection, everyone);
        if (sent) delivered++;
      }
    } else if (push.type === 'slow-mode') {
      this.room.broadcast(JSON.stringify({ type: 'slow-mode', seconds: push.seconds } satisfies RoomEvent));
      for (const _ of this.room.getConnections()) delivered++;
    } else {
      for (const connection of this.room.getConnections()) {
        if ((connection.state as ConnectionState | null)?.userId !== push.userId) continue;
        refuse(connection, push.message);
        delivered++;
      }
    }
    return json({ ok: true, delivered }, 200);
  }

  /**
   * The browser closed its socket (tab closed, page left, network gone): answer the close so the runtime
   * does not wait for it and report the half-closed socket as an uncaught "disconnected" exception.
   */
  onClose(connection: Party.Connection): void {
    closeQuietly(connection);
  }

  /** A socket that failed (peer vanished without a close frame) is closed; nothing is thrown. */
  onError(connection: Party.Connection): void {
    closeQuietly(connection, 1011, 'Socket error');
  }

  onMessage(message: string | ArrayBuffer | ArrayBufferView, sender: Party.Connection): void {
    const now = Date.now();
    const state = sender.state as ConnectionState | null;
    const fresh = !state || now - state.windowStart >= CLIENT_WINDOW_MS;
    const frames = fresh ? 1 : state.frames + 1;
    sender.setState({ ...state, windowStart: fresh ? now : state.windowStart, frames } satisfies ConnectionState);
    if (frames > CLIENT_FRAMES_PER_WINDOW) {
      sender.close(1008, 'Too many messages');
      return;
    }
    if (typeof message !== 'string' || message.length > 256) return;
    let data: unknown;
    try {
      data = JSON.parse(message);
    } catch {
      return;
    }
    if (clientMessageSchema.safeParse(data).success) {
      const pong: RoomEvent = { type: 'pong' };
      sender.send(JSON.stringify(pong));
    }
  }
}

CommentsRoom satisfies Party.Worker;
