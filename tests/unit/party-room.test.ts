// The comment room under a crowd (issue 38 §3): batches, the per-socket cap, presence, slow mode, spread reconnects.
import type * as Party from 'partykit/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { signCommentToken } from '../../party/comment-token';
import CommentsRoom, {
  CAP_PER_SECOND,
  COMMENT_ROOM_RESTART,
  PRESENCE_EVERY_MS,
  RECONNECT_MIN_MS,
  RECONNECT_MS_PER_SOCKET,
  SEND_WINDOW_MS,
} from '../../party/comments';
import { COMMENT_ROOM_REFUSED, parseRoomEvent, type RoomEvent, type RoomPush } from '../../party/messages';

const SECRET = 'room-secret-0123456789';
const SLUG = 'mat-biec';
const T0 = 1_760_000_000_000;

class FakeConn {
  state: unknown = null;
  sent: string[] = [];
  closed: { code?: number; reason?: string } | null = null;
  constructor(
    readonly id: string,
    private readonly room: FakeRoom,
  ) {}
  setState(state: unknown) {
    this.state = state;
    return state;
  }
  send(message: string) {
    if (this.closed) throw new Error('closed');
    this.sent.push(message);
  }
  close(code?: number, reason?: string) {
    this.closed ??= { code, reason };
    this.room.conns.delete(this.id);
  }
  events(): RoomEvent[] {
    return this.sent.map((m) => parseRoomEvent(m)!);
  }
  batches() {
    return this.events().filter((e): e is Extract<RoomEvent, { type: 'batch' }> => e.type === 'batch');
  }
  /** Ids of the comments this socket was sent, in order. */
  commentIds(): number[] {
    return this.batches().flatMap((b) => b.events.flatMap((e) => (e.type === 'comment' ? [e.comment.id] : [])));
  }
  skipped(): number {
    return this.batches().reduce((n, b) => n + b.skipped, 0);
  }
}

class FakeRoom {
  conns = new Map<string, FakeConn>();
  stored = new Map<string, unknown>();
  id = SLUG;
  env = { PARTY_SECRET: SECRET };
  storage = {
    get: async (key: string) => this.stored.get(key),
    put: async (key: string, value: unknown) => void this.stored.set(key, value),
    delete: async (key: string) => this.stored.delete(key),
  };
  getConnections() {
    return this.conns.values();
  }
}

let counter = 0;
async function setup() {
  const fake = new FakeRoom();
  const server = new CommentsRoom(fake as unknown as Party.Room);
  await server.onStart();
  return { fake, server };
}

async function connect(fake: FakeRoom, server: CommentsRoom, userId?: number): Promise<FakeConn> {
  const conn = new FakeConn(`s${++counter}`, fake);
  fake.conns.set(conn.id, conn);
  const token = userId ? (await signCommentToken(SECRET, { userId, room: SLUG }, Date.now())).token : null;
  const url = `http://127.0.0.1:1999/parties/comments/${SLUG}${token ? `?token=${token}` : ''}`;
  await server.onConnect(conn as unknown as Party.Connection, { request: new Request(url) } as unknown as Party.ConnectionContext);
  return conn;
}

const request = (body: RoomPush) =>
  new Request(`http://127.0.0.1:1999/parties/comments/${SLUG}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-party-secret': SECRET },
    body: JSON.stringify(body),
  }) as unknown as Party.Request;

const comment = (id: number, userId = 100, extra: Partial<Extract<RoomPush, { type: 'comment' }>> = {}): RoomPush => ({
  type: 'comment',
  comment: { id, parent_id: null, comment: `Bình luận ${id}`, createdAt: T0, users: { username: `u${userId}` }, user_id: userId },
  ...extra,
});

/** Pushes without waiting for the window (the room answers once the window's frame is sent). */
const push = (server: CommentsRoom, body: RoomPush) =>
  server.onRequest(request(body)).then((r) => r.json() as Promise<{ delivered: number }>);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('comment room: batches', () => {
  it('sends one frame per window with every comment and removal of that window, in order', async () => {
    const { fake, server } = await setup();
    const a = await connect(fake, server);
    const b = await connect(fake, server);
    // A quiet room sends the first comment at once (its window starts with it).
    const first = push(server, comment(1));
    await vi.advanceTimersByTimeAsync(0);
    expect(a.commentIds()).toEqual([1]);
    // The next ones within the window wait for its end and go together, in one frame.
    await vi.advanceTimersByTimeAsync(50);
    const rest = [push(server, comment(2)), push(server, comment(3))];
    await vi.advanceTimersByTimeAsync(50);
    rest.push(push(server, { type: 'withdraw', id: 2, state: 'removed', authorId: 100 }));
    expect(a.batches()).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(SEND_WINDOW_MS);
    for (const c of [a, b]) {
      expect(c.batches()).toHaveLength(2);
      expect(c.batches()[1]).toEqual({
        type: 'batch',
        events: [
          { type: 'comment', comment: expect.objectContaining({ id: 2 }) },
          { type: 'comment', comment: expect.objectContaining({ id: 3 }) },
          { type: 'withdraw', id: 2, state: 'removed' },
        ],
        skipped: 0,
      });
    }
    // Each push is answered with the number of sockets its frame reached, counted while sending.
    expect(await first).toEqual({ ok: true, delivered: 2 });
    expect(await Promise.all(rest)).toEqual([
      { ok: true, delivered: 2 },
      { ok: true, delivered: 2 },
      { ok: true, delivered: 2 },
    ]);
  });

  it('never sends two batch frames to a socket within one window, however fast comments come', async () => {
    const { fake, server } = await setup();
    const a = await connect(fake, server);
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < 40; i++) {
      pending.push(push(server, comment(i + 1)));
      await vi.advanceTimersByTimeAsync(25); // 40 comments a second for one second
    }
    await vi.advanceTimersByTimeAsync(SEND_WINDOW_MS);
    await Promise.all(pending);
    // 1 s of comments plus the last window: at most 1000 / 250 + 1 frames, and every comment either sent or counted.
    expect(a.batches().length).toBeLessThanOrEqual(1000 / SEND_WINDOW_MS + 1);
    expect(a.commentIds().length + a.skipped()).toBe(40);
  });

  it('tells only the author why their comment was removed; everyone else gets the removal without the reason', async () => {
    const { fake, server } = await setup();
    const author = await connect(fake, server, 5);
    const reader = await connect(fake, server);
    const other = await connect(fake, server, 6);
    const answer = push(server, { type: 'withdraw', id: 9, state: 'removed', authorId: 5, reason: 'Ngôn từ không phù hợp' });
    await vi.advanceTimersByTimeAsync(SEND_WINDOW_MS);
    expect((await answer).delivered).toBe(3);
    expect(author.batches().at(-1)!.events).toEqual([{ type: 'withdraw', id: 9, state: 'removed', reason: 'Ngôn từ không phù hợp' }]);
    for (const c of [reader, other]) expect(c.batches().at(-1)!.events).toEqual([{ type: 'withdraw', id: 9, state: 'removed' }]);
  });

  it("closes a refused member's sockets at once, with the reason, and only theirs", async () => {
    const { fake, server } = await setup();
    const muted = await connect(fake, server, 5);
    const reader = await connect(fake, server);
    const res = await push(server, { type: 'refuse', userId: 5, message: 'Bạn bị tạm khóa bình luận: Spam' });
    expect(res.delivered).toBe(1);
    expect(muted.events().at(-1)).toEqual({ type: 'refused', message: 'Bạn bị tạm khóa bình luận: Spam' });
    expect(muted.closed?.code).toBe(COMMENT_ROOM_REFUSED);
    expect(reader.closed).toBeNull();
  });
});

describe('comment room: the per-socket cap', () => {
  /** 20 comments a second for 3 s from other members (ids 1..60), 250 ms windows. */
  async function crowd(server: CommentsRoom, extra: (i: number) => RoomPush | null = () => null) {
    const pending: Promise<unknown>[] = [];
    for (let i = 1; i <= 60; i++) {
      pending.push(push(server, comment(i, 1000 + i)));
      const more = extra(i);
      if (more) pending.push(push(server, more));
      await vi.advanceTimersByTimeAsync(50);
    }
    await vi.advanceTimersByTimeAsync(SEND_WINDOW_MS);
    await Promise.all(pending);
  }

  it('gives a socket over its cap the newest comments of each window and the count of the others', async () => {
    const { fake, server } = await setup();
    const reader = await connect(fake, server);
    await crowd(server);
    const got = reader.commentIds();
    // At most the cap over the 3 s (plus its one-second bucket), and nothing lost: what was not sent is counted.
    expect(got.length).toBeLessThanOrEqual(CAP_PER_SECOND * 3 + CAP_PER_SECOND);
    expect(got.length).toBeGreaterThan(0);
    expect(got.length + reader.skipped()).toBe(60);
    // Within a window the newest are kept: each frame's comments are the last ones of that frame's window.
    const ids = new Set(got);
    for (const batch of reader.batches().slice(2)) {
      const inFrame = batch.events.map((e) => (e.type === 'comment' ? e.comment.id : 0));
      if (inFrame.length === 0) continue;
      const newest = Math.max(...inFrame);
      expect(inFrame).toEqual(Array.from({ length: inFrame.length }, (_, k) => newest - inFrame.length + 1 + k));
    }
    expect(reader.skipped()).toBeGreaterThan(0);
    expect(ids.has(60)).toBe(true);
  });

  it("always delivers the viewer's own comments, replies to them and staff comments, and every removal", async () => {
    const { fake, server } = await setup();
    const me = await connect(fake, server, 7);
    const reader = await connect(fake, server);
    const mine = [101, 102, 103];
    const replies = [201, 202];
    const staff = [301, 302];
    const withdrawn = [401, 402, 403];
    await crowd(server, (i) => {
      if (i === 10) return comment(101, 7);
      if (i === 11) return comment(102, 7);
      if (i === 40) return comment(103, 7);
      if (i === 20) return comment(201, 1020, { parentAuthorId: 7 });
      if (i === 41) return comment(202, 1041, { parentAuthorId: 7 });
      if (i === 30) return comment(301, 1, { fromStaff: true });
      if (i === 50) return comment(302, 1, { fromStaff: true });
      if (i >= 51 && i <= 53) return { type: 'withdraw', id: 400 + i - 50, state: 'hidden', authorId: 1000 + i };
      return null;
    });
    const got = new Set(me.commentIds());
    for (const id of [...mine, ...replies, ...staff]) expect(got.has(id)).toBe(true);
    const removals = (c: typeof me) => c.batches().flatMap((b) => b.events.flatMap((e) => (e.type === 'withdraw' ? [e.id] : [])));
    expect(removals(me)).toEqual(withdrawn);
    expect(removals(reader)).toEqual(withdrawn);
    // The reader is capped on everything but staff comments and removals; the others' comments still count.
    const readerGot = new Set(reader.commentIds());
    for (const id of staff) expect(readerGot.has(id)).toBe(true);
    expect(reader.commentIds().length + reader.skipped()).toBe(60 + mine.length + replies.length + staff.length);
    expect(me.commentIds().length + me.skipped()).toBe(60 + mine.length + replies.length + staff.length);
    expect(me.skipped()).toBeGreaterThan(0);
  });

  it('delivers everything to a socket under its cap (a quiet room)', async () => {
    const { fake, server } = await setup();
    const reader = await connect(fake, server);
    const pending: Promise<unknown>[] = [];
    for (let i = 1; i <= 12; i++) {
      pending.push(push(server, comment(i)));
      await vi.advanceTimersByTimeAsync(500); // 2 a second
    }
    await vi.advanceTimersByTimeAsync(SEND_WINDOW_MS);
    await Promise.all(pending);
    expect(reader.commentIds()).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(reader.skipped()).toBe(0);
  });

  it('counts only the sockets a comment went to in its answer', async () => {
    const { fake, server } = await setup();
    await connect(fake, server);
    await connect(fake, server);
    // Three more comments in one window than a full bucket holds: the three oldest reach nobody, the others both.
    const burst = Array.from({ length: CAP_PER_SECOND + 3 }, (_, i) => push(server, comment(i + 1)));
    await vi.advanceTimersByTimeAsync(SEND_WINDOW_MS);
    expect((await Promise.all(burst)).map((r) => r.delivered)).toEqual([0, 0, 0, ...Array(CAP_PER_SECOND).fill(2)]);
  });
});

describe('comment room: presence, slow mode and restarts', () => {
  it('tells a socket the count when it connects, and everyone at most every few seconds when it changed', async () => {
    const { fake, server } = await setup();
    const a = await connect(fake, server);
    const presence = (c: FakeConn) => c.events().flatMap((e) => (e.type === 'presence' ? [e.count] : []));
    expect(presence(a)).toEqual([1]);
    await vi.advanceTimersByTimeAsync(0);
    const crowd: FakeConn[] = [];
    for (let i = 0; i < 30; i++) crowd.push(await connect(fake, server));
    expect(presence(crowd.at(-1)!)).toEqual([31]);
    await vi.advanceTimersByTimeAsync(PRESENCE_EVERY_MS - 1);
    const seen = presence(a).length;
    await vi.advanceTimersByTimeAsync(1);
    // Thirty arrivals: one more presence frame for everyone, with the count after all of them.
    expect(presence(a).slice(seen)).toEqual([31]);
    crowd[0]!.close();
    server.onClose(crowd[0] as unknown as Party.Connection);
    await vi.advanceTimersByTimeAsync(PRESENCE_EVERY_MS);
    expect(presence(a).at(-1)).toBe(30);
    // Nothing changed: nothing sent.
    const before = a.sent.length;
    await vi.advanceTimersByTimeAsync(4 * PRESENCE_EVERY_MS);
    expect(a.sent.length).toBe(before);
  });

  it('announces slow mode to every socket and to each new one while it is on, even after a restart', async () => {
    const { fake, server } = await setup();
    const a = await connect(fake, server);
    expect(a.events().some((e) => e.type === 'slow-mode')).toBe(false);
    expect(await push(server, { type: 'slow-mode', seconds: 30 })).toEqual({ ok: true, delivered: 1 });
    expect(a.events().at(-1)).toEqual({ type: 'slow-mode', seconds: 30 });
    const late = await connect(fake, server);
    expect(late.events()).toContainEqual({ type: 'slow-mode', seconds: 30 });
    // A room that restarts (or wakes from hibernation) still knows it.
    const again = new CommentsRoom(fake as unknown as Party.Room);
    await again.onStart();
    const afterRestart = await connect(fake, again);
    expect(afterRestart.events()).toContainEqual({ type: 'slow-mode', seconds: 30 });
    await push(again, { type: 'slow-mode', seconds: 0 });
    expect(late.events().at(-1)).toEqual({ type: 'slow-mode', seconds: 0 });
    const afterOff = await connect(fake, again);
    expect(afterOff.events().some((e) => e.type === 'slow-mode')).toBe(false);
  });

  it('a room told to restart sends what is queued, then tells each socket when to come back, spread, and closes it', async () => {
    const { fake, server } = await setup();
    const sockets: FakeConn[] = [];
    for (let i = 0; i < 2000; i++) sockets.push(await connect(fake, server));
    await vi.advanceTimersByTimeAsync(0);
    const queued = push(server, comment(1));
    const told = await push(server, { type: 'reconnect' });
    expect(told.delivered).toBe(2000);
    expect((await queued).delivered).toBe(2000);
    const after = sockets.map((c) => {
      const events = c.events();
      expect(events.at(-2)).toEqual({ type: 'batch', events: [expect.objectContaining({ type: 'comment' })], skipped: 0 });
      const last = events.at(-1)!;
      expect(last.type).toBe('reconnect');
      expect(c.closed?.code).toBe(COMMENT_ROOM_RESTART);
      return (last as Extract<RoomEvent, { type: 'reconnect' }>).afterMs;
    });
    const spread = 2000 * RECONNECT_MS_PER_SOCKET;
    expect(Math.min(...after)).toBeGreaterThanOrEqual(RECONNECT_MIN_MS);
    expect(Math.max(...after)).toBeLessThan(RECONNECT_MIN_MS + spread);
    // Spread over the whole span: no second holds more than a fifth of the returns (uniform: one eighth).
    const perSecond = new Map<number, number>();
    for (const ms of after) perSecond.set(Math.floor(ms / 1000), (perSecond.get(Math.floor(ms / 1000)) ?? 0) + 1);
    expect(perSecond.size).toBeGreaterThanOrEqual(8);
    expect(Math.max(...perSecond.values())).toBeLessThan(2000 / 5);
  });

  it('keeps a browser to pings, read from memory: a flooding socket is closed', async () => {
    const { fake, server } = await setup();
    const a = await connect(fake, server);
    for (let i = 0; i < 31; i++) server.onMessage(JSON.stringify({ type: 'ping' }), a as unknown as Party.Connection);
    expect(a.events().filter((e) => e.type === 'pong')).toHaveLength(30);
    expect(a.closed).toEqual({ code: 1008, reason: 'Too many messages' });
    // A reader's socket carries no attachment at all; a member's carries its id, written once at connect.
    expect(a.state).toBeNull();
    const m = await connect(fake, server, 3);
    for (let i = 0; i < 5; i++) server.onMessage(JSON.stringify({ type: 'ping' }), m as unknown as Party.Connection);
    expect(m.state).toEqual({ userId: 3 });
  });
});
