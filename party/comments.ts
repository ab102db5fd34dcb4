import type * as Party from 'partykit/server';
import { clientMessageSchema, roomPushSchema, type RoomEvent } from './messages';
import { closeQuietly, json, readJsonBody, secretRefusal } from './room-http';

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
}

/**
 * One room per film slug. The API pushes stored comments over HTTP with the shared secret and the
 * room broadcasts them; browsers only listen. Nothing a browser sends is ever relayed, so a socket
 * cannot inject a fake comment; a browser may only ping.
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

  async onRequest(req: Party.Request): Promise<Response> {
    const refusal = pushRefusal(req, this.room.env);
    if (refusal) return refusal;

    const body = await readJsonBody(req, MAX_PUSH_BYTES, roomPushSchema);
    if ('refusal' in body) return body.refusal;

    const event: RoomEvent = { type: 'comment', comment: body.data.comment };
    this.room.broadcast(JSON.stringify(event));
    let delivered = 0;
    for (const _ of this.room.getConnections()) delivered++;
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
    sender.setState({ windowStart: fresh ? now : state.windowStart, frames } satisfies ConnectionState);
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
