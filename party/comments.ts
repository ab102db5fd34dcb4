import type * as Party from 'partykit/server';
import { verifyCommentToken } from './comment-token';
import {
  clientMessageSchema,
  COMMENT_ROOM_BAD_TOKEN,
  COMMENT_ROOM_REFUSED,
  type RoomEvent,
  type RoomPush,
  roomPushSchema,
} from './messages';
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

/**
 * One frame per socket per send window, with every comment and removal of that window
 * (docs/decisions/1010-comment-room-batches.md). 250 ms: at most 4 batch frames a second per socket, so with the
 * presence frame (≤ one per 5 s) a socket stays under 5 frames a second, and a comment waits at most a quarter of a
 * second in the room, half the 500 ms budget from post to screen.
 */
export const SEND_WINDOW_MS = 250;
/**
 * What one socket is sent at most, in comments a second (a token bucket of one second's worth): more than a person
 * reads in a busy room. Past it the socket gets the newest comments of each window and the count of the others
 * ("+N bình luận mới"). Its own comments, replies to them, staff comments and every removal never count and always go.
 */
export const CAP_PER_SECOND = 8;
const CAP_BURST = CAP_PER_SECOND;
/** "N người đang xem": sent to a socket when it connects, and to everyone at most this often when the count changed. */
export const PRESENCE_EVERY_MS = 5000;
/**
 * A room told to restart spreads its sockets' return: each comes back after a random 1 s plus up to
 * RECONNECT_MS_PER_SOCKET × sockets (at least 1 s, at most 59 s): about 250 returns a second, so 2,000 sockets
 * come back over 1–9 s, each with its catch-up read and token read spread the same way.
 */
export const RECONNECT_MIN_MS = 1000;
export const RECONNECT_MS_PER_SOCKET = 4;
const RECONNECT_MAX_SPREAD_MS = 59_000;
/** WebSocket close code "service restart": the room closes its sockets right after the reconnect notice. */
export const COMMENT_ROOM_RESTART = 1012;
const SLOW_MODE_KEY = 'slow-mode';

/** What a socket's attachment holds (written once, when the member's socket connects; nothing for a reader). */
interface ConnectionState {
  /** The member behind the socket (from the API's member token); absent for a reader without one. */
  userId?: number;
}

/** A socket as the room keeps it in memory (rebuilt from the attachments after the room wakes). */
interface Live {
  conn: Party.Connection;
  userId: number | undefined;
  /** The per-socket cap's bucket (comments that may still be sent now) and when it was last refilled. */
  tokens: number;
  at: number;
  /** Frames this browser sent in the current flood window. */
  frames: number;
  windowStart: number;
}

/** An event waiting for the end of its window; `delivered` is counted in the send loop. */
interface Pending {
  /** The event serialised once: every frame is built from these strings. */
  json: string;
  /** A withdraw's copy with the reason, for its author's sockets. */
  ownJson?: string;
  /** Capped: an ordinary comment (not staff, not a removal). */
  capped: boolean;
  /** Members for whom this item is personal: the author (and for a reply, the parent's author). */
  authorId?: number;
  parentAuthorId?: number;
  delivered: number;
  done: (delivered: number) => void;
}

/** Tells a socket why it is refused (a close reason holds 123 bytes, too few for it), then closes it. */
function refuse(connection: Party.Connection, message: string): void {
  sendQuietly(connection, { type: 'refused', message } satisfies RoomEvent);
  closeQuietly(connection, COMMENT_ROOM_REFUSED, 'refused');
}

const batchFrame = (parts: string[], skipped: number) => `{"type":"batch","events":[${parts.join(',')}],"skipped":${skipped}}`;

/**
 * One room per film slug. The API pushes stored comments, removals and refusals over HTTP with the shared secret
 * and the room passes them on; browsers only listen. Nothing a browser sends is ever relayed, so a socket cannot
 * inject a fake comment; a browser may only ping. A signed-in member's page connects with a member token
 * (party/comment-token.ts): the room then knows whose socket it is, to tell an author why their comment was removed,
 * to never cap what concerns them, and to refuse a muted or banned member's socket with the reason
 * (docs/decisions/0230-comment-moderation.md).
 *
 * Comments and removals are sent in batches, one frame per socket per window (SEND_WINDOW_MS), each socket capped
 * (CAP_PER_SECOND); the room counts its sockets ("N người đang xem"), remembers the film's slow mode for sockets
 * that arrive while it is on, and spreads its sockets' return when told it restarts
 * (docs/decisions/1010-comment-room-batches.md).
 */
export default class CommentsRoom implements Party.Server {
  readonly options: Party.ServerOptions = { hibernate: true };

  /** The room's sockets, read from their attachments once after the room (re)starts, then kept here. */
  private live: Map<string, Live> | null = null;
  private pending: Pending[] = [];
  private sendTimer: ReturnType<typeof setTimeout> | null = null;
  private lastFlushAt = Number.NEGATIVE_INFINITY;
  private presenceTimer: ReturnType<typeof setTimeout> | null = null;
  private lastPresenceAt = Number.NEGATIVE_INFINITY;
  private lastPresenceCount = -1;
  /** The film's slow mode in seconds (0: off), kept in storage so a woken or restarted room still knows it. */
  slowMode = 0;
  /** Random in [0, 1): the reconnect spread (replaceable in tests). */
  random: () => number = Math.random;

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

  async onStart(): Promise<void> {
    this.slowMode = (await this.room.storage.get<number>(SLOW_MODE_KEY)) ?? 0;
  }

  /** The sockets, rebuilt lazily from the attachments (one read per socket) the first time after the room starts. */
  private sockets(): Map<string, Live> {
    if (this.live) return this.live;
    const now = Date.now();
    this.live = new Map();
    for (const conn of this.room.getConnections()) {
      this.live.set(conn.id, this.entry(conn, (conn.state as ConnectionState | null)?.userId, now));
    }
    return this.live;
  }

  private entry(conn: Party.Connection, userId: number | undefined, now: number): Live {
    return { conn, userId, tokens: CAP_BURST, at: now, frames: 0, windowStart: now };
  }

  private forget(conn: Party.Connection): void {
    if (this.live?.delete(conn.id)) this.presenceChanged();
  }

  /** A member's socket: its token says who it is, or that the member may not be here (muted, banned). */
  async onConnect(connection: Party.Connection, ctx: Party.ConnectionContext): Promise<void> {
    const token = tokenOf(ctx.request.url);
    let userId: number | undefined;
    if (token) {
      const claims = await verifyCommentToken(this.room.env.PARTY_SECRET, token, this.room.id, Date.now());
      if (!claims) {
        this.live?.delete(connection.id);
        return closeQuietly(connection, COMMENT_ROOM_BAD_TOKEN, 'bad token');
      }
      if (claims.refused) {
        this.live?.delete(connection.id);
        return refuse(connection, claims.refused);
      }
      userId = claims.userId;
      connection.setState({ userId } satisfies ConnectionState);
    }
    const sockets = this.sockets();
    sockets.set(connection.id, this.entry(connection, userId, Date.now()));
    sendQuietly(connection, { type: 'presence', count: sockets.size } satisfies RoomEvent);
    if (this.slowMode > 0) sendQuietly(connection, { type: 'slow-mode', seconds: this.slowMode } satisfies RoomEvent);
    this.presenceChanged();
  }

  async onRequest(req: Party.Request): Promise<Response> {
    const refusal = pushRefusal(req, this.room.env);
    if (refusal) return refusal;

    const body = await readJsonBody(req, MAX_PUSH_BYTES, roomPushSchema);
    if ('refusal' in body) return body.refusal;
    const push = body.data;

    let delivered = 0;
    if (push.type === 'comment' || push.type === 'withdraw') {
      delivered = await this.enqueue(push);
    } else if (push.type === 'slow-mode') {
      this.slowMode = push.seconds;
      if (push.seconds > 0) await this.room.storage.put(SLOW_MODE_KEY, push.seconds);
      else await this.room.storage.delete(SLOW_MODE_KEY);
      delivered = this.sendToAll(JSON.stringify({ type: 'slow-mode', seconds: push.seconds } satisfies RoomEvent));
    } else if (push.type === 'reconnect') {
      delivered = this.restart();
    } else {
      for (const s of [...this.sockets().values()]) {
        if (s.userId !== push.userId) continue;
        refuse(s.conn, push.message);
        this.forget(s.conn);
        delivered++;
      }
    }
    return json({ ok: true, delivered }, 200);
  }

  /** Queues a comment or removal for the current window; resolves with how many sockets it went to. */
  private enqueue(push: Extract<RoomPush, { type: 'comment' | 'withdraw' }>): Promise<number> {
    return new Promise((done) => {
      if (push.type === 'comment') {
        this.pending.push({
          json: JSON.stringify({ type: 'comment', comment: push.comment } satisfies RoomEvent),
          capped: !push.fromStaff,
          authorId: push.comment.user_id || undefined,
          parentAuthorId: push.parentAuthorId,
          delivered: 0,
          done,
        });
      } else {
        const event = { type: 'withdraw', id: push.id, state: push.state } satisfies RoomEvent;
        this.pending.push({
          json: JSON.stringify(event),
          ownJson: push.reason ? JSON.stringify({ ...event, reason: push.reason } satisfies RoomEvent) : undefined,
          capped: false,
          authorId: push.authorId,
          delivered: 0,
          done,
        });
      }
      this.scheduleFlush();
    });
  }

  /** One frame per window: at once after a quiet window, else when the current window ends. */
  private scheduleFlush(): void {
    if (this.sendTimer) return;
    const wait = Math.max(0, this.lastFlushAt + SEND_WINDOW_MS - Date.now());
    this.sendTimer = setTimeout(() => this.flush(), wait);
  }

  /**
   * The send loop: one frame per socket with the window's events. Sockets that nothing in the window concerns
   * personally share one frame per number of comments their cap lets through (built once); a member whose own
   * comment, a reply to it or a removal with its reason is in the window gets a frame of its own. Deliveries are
   * counted here, per frame sent.
   */
  flush(): void {
    if (this.sendTimer) clearTimeout(this.sendTimer);
    this.sendTimer = null;
    const items = this.pending;
    if (items.length === 0) return;
    this.pending = [];
    const now = Date.now();
    this.lastFlushAt = now;

    const concerned = new Set<number>();
    for (const item of items) {
      if (!item.capped && !item.ownJson) continue;
      if (item.authorId !== undefined) concerned.add(item.authorId);
      if (item.parentAuthorId !== undefined) concerned.add(item.parentAuthorId);
    }
    const cappedCount = items.reduce((n, item) => n + (item.capped ? 1 : 0), 0);
    const shared = new Map<number, string>();
    const sentShared = new Map<number, number>();

    for (const s of this.sockets().values()) {
      if (s.userId !== undefined && concerned.has(s.userId)) {
        this.sendPersonal(s, items, now);
        continue;
      }
      const allowed = this.take(s, cappedCount, now);
      let frame = shared.get(allowed);
      if (frame === undefined) {
        frame = batchFrame(
          this.included(items, allowed).map((item) => item.json),
          cappedCount - allowed,
        );
        shared.set(allowed, frame);
      }
      if (sendQuietly(s.conn, frame)) sentShared.set(allowed, (sentShared.get(allowed) ?? 0) + 1);
      else this.forget(s.conn);
    }
    for (const [allowed, sockets] of sentShared) for (const item of this.included(items, allowed)) item.delivered += sockets;
    for (const item of items) item.done(item.delivered);
  }

  /** The window's items a socket without personal items gets: every uncapped one and the newest `allowed` capped. */
  private included(items: Pending[], allowed: number): Pending[] {
    const out: Pending[] = [];
    let cappedLeft = items.reduce((n, item) => n + (item.capped ? 1 : 0), 0);
    for (const item of items) {
      if (!item.capped) out.push(item);
      else if (cappedLeft-- <= allowed) out.push(item);
    }
    return out;
  }

  private sendPersonal(s: Live, items: Pending[], now: number): void {
    const userId = s.userId!;
    const personal = (item: Pending) => item.authorId === userId || item.parentAuthorId === userId;
    let cappedLeft = items.reduce((n, item) => n + (item.capped && !personal(item) ? 1 : 0), 0);
    const allowed = this.take(s, cappedLeft, now);
    const skipped = cappedLeft - allowed;
    const parts: string[] = [];
    const got: Pending[] = [];
    for (const item of items) {
      const own = personal(item);
      if (item.capped && !own && cappedLeft-- > allowed) continue;
      parts.push(own && item.ownJson ? item.ownJson : item.json);
      got.push(item);
    }
    if (!sendQuietly(s.conn, batchFrame(parts, skipped))) {
      this.forget(s.conn);
      return;
    }
    for (const item of got) item.delivered++;
  }

  /** The per-socket cap: how many of `wanted` capped comments this socket may get now (its bucket is spent). */
  private take(s: Live, wanted: number, now: number): number {
    s.tokens = Math.min(CAP_BURST, s.tokens + ((now - s.at) / 1000) * CAP_PER_SECOND);
    s.at = now;
    const allowed = Math.min(wanted, Math.floor(s.tokens));
    s.tokens -= allowed;
    return allowed;
  }

  /** One serialised event to every socket; answers how many it went to. */
  private sendToAll(frame: string): number {
    let sent = 0;
    for (const s of this.sockets().values()) {
      if (sendQuietly(s.conn, frame)) sent++;
      else this.forget(s.conn);
    }
    return sent;
  }

  /** The count changed: everyone hears it, at most once per PRESENCE_EVERY_MS (a crowd arriving is one frame). */
  private presenceChanged(): void {
    if (this.presenceTimer) return;
    const wait = Math.max(0, this.lastPresenceAt + PRESENCE_EVERY_MS - Date.now());
    this.presenceTimer = setTimeout(() => this.sendPresence(), wait);
  }

  private sendPresence(): void {
    this.presenceTimer = null;
    const count = this.sockets().size;
    if (count === this.lastPresenceCount) return;
    this.lastPresenceAt = Date.now();
    this.lastPresenceCount = count;
    this.sendToAll(JSON.stringify({ type: 'presence', count } satisfies RoomEvent));
  }

  /**
   * The room is going to restart: what is queued goes out first, then every socket is told when to come back
   * (spread over 1 s + RECONNECT_MS_PER_SOCKET per socket) and closed with "service restart".
   */
  private restart(): number {
    this.flush();
    const sockets = [...this.sockets().values()];
    const spread = Math.min(RECONNECT_MAX_SPREAD_MS, Math.max(1000, sockets.length * RECONNECT_MS_PER_SOCKET));
    let told = 0;
    for (const s of sockets) {
      const afterMs = RECONNECT_MIN_MS + Math.floor(this.random() * spread);
      if (sendQuietly(s.conn, { type: 'reconnect', afterMs } satisfies RoomEvent)) told++;
      closeQuietly(s.conn, COMMENT_ROOM_RESTART, 'restart');
    }
    this.live = new Map();
    if (this.presenceTimer) clearTimeout(this.presenceTimer);
    this.presenceTimer = null;
    this.lastPresenceCount = -1;
    return told;
  }

  /**
   * The browser closed its socket (tab closed, page left, network gone): answer the close so the runtime
   * does not wait for it and report the half-closed socket as an uncaught "disconnected" exception.
   */
  onClose(connection: Party.Connection): void {
    closeQuietly(connection);
    this.forget(connection);
  }

  /** A socket that failed (peer vanished without a close frame) is closed; nothing is thrown. */
  onError(connection: Party.Connection): void {
    closeQuietly(connection, 1011, 'Socket error');
    this.forget(connection);
  }

  onMessage(message: string | ArrayBuffer | ArrayBufferView, sender: Party.Connection): void {
    const now = Date.now();
    const s = this.sockets().get(sender.id);
    // A socket the room does not hold (refused, or still being admitted) gets nothing.
    if (!s) return;
    if (now - s.windowStart >= CLIENT_WINDOW_MS) {
      s.windowStart = now;
      s.frames = 0;
    }
    if (++s.frames > CLIENT_FRAMES_PER_WINDOW) {
      closeQuietly(sender, 1008, 'Too many messages');
      this.forget(sender);
      return;
    }
    if (typeof message !== 'string' || message.length > 256) return;
    let data: unknown;
    try {
      data = JSON.parse(message);
    } catch {
      return;
    }
    if (clientMessageSchema.safeParse(data).success) sendQuietly(sender, { type: 'pong' } satisfies RoomEvent);
  }
}

CommentsRoom satisfies Party.Worker;
