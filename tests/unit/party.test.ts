import type * as Party from 'partykit/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import CommentsRoom, { SEND_WINDOW_MS } from '../../party/comments';
import { parseRoomEvent, roomEventSchema } from '../../party/messages';

const SECRET = 'room-secret-0123456789';
const comment = { id: 7, parent_id: null, comment: '<b>Phim hay</b>', createdAt: 1_760_000_000_000, users: { username: 'An' } };

interface FakeConnection {
  id: string;
  state: unknown;
  sent: string[];
  closed: { code?: number; reason?: string } | null;
  setState(state: unknown): unknown;
  send(message: string): void;
  close(code?: number, reason?: string): void;
}

function fakeConnection(id: string): FakeConnection {
  return {
    id,
    state: null,
    sent: [],
    closed: null,
    setState(state) {
      this.state = state;
      return state;
    },
    send(message) {
      this.sent.push(message);
    },
    close(code, reason) {
      this.closed = { code, reason };
    },
  };
}

function fakeRoom(env: Record<string, unknown> = { PARTY_SECRET: SECRET }) {
  const connections = [fakeConnection('a'), fakeConnection('b'), fakeConnection('c')];
  const broadcasts: string[] = [];
  const stored = new Map<string, unknown>();
  const room = {
    id: 'mat-biec',
    name: 'comments',
    env,
    broadcast: (message: string) => {
      broadcasts.push(message);
    },
    getConnections: () => connections,
    storage: {
      get: async (key: string) => stored.get(key),
      put: async (key: string, value: unknown) => void stored.set(key, value),
      delete: async (key: string) => stored.delete(key),
    },
  };
  return { server: new CommentsRoom(room as unknown as Party.Room), broadcasts, connections };
}

/** A push answered once its window has been sent (the room answers with how many sockets it went to). */
async function pushed(server: CommentsRoom, req: Party.Request): Promise<Response> {
  const answer = server.onRequest(req);
  await vi.advanceTimersByTimeAsync(SEND_WINDOW_MS);
  return answer;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const push = (body: unknown, headers: Record<string, string> = { 'x-party-secret': SECRET }, method = 'POST') =>
  new Request('http://127.0.0.1:1999/parties/comments/mat-biec', {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: method === 'GET' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  }) as unknown as Party.Request;

describe('comments room: pushes from the API', () => {
  it('sends a valid, signed push to every connection in a batch frame', async () => {
    const { server, connections } = fakeRoom();
    const res = await pushed(server, push({ type: 'comment', comment }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, delivered: 3 });
    for (const c of connections) {
      expect(c.sent).toHaveLength(1);
      expect(JSON.parse(c.sent[0]!)).toEqual({ type: 'batch', events: [{ type: 'comment', comment }], skipped: 0 });
      expect(roomEventSchema.safeParse(JSON.parse(c.sent[0]!)).success).toBe(true);
    }
  });

  it.each([
    ['no secret header', {}],
    ['a wrong secret', { 'x-party-secret': 'guess' }],
    ['a secret that is a prefix of the real one', { 'x-party-secret': SECRET.slice(0, -1) }],
    ['a secret with extra characters', { 'x-party-secret': `${SECRET}x` }],
  ])('rejects a push with %s (401) and broadcasts nothing', async (_name, headers) => {
    const { server, connections } = fakeRoom();
    expect((await pushed(server, push({ type: 'comment', comment }, headers))).status).toBe(401);
    for (const c of connections) expect(c.sent).toEqual([]);
  });

  it('accepts no push at all when the room has no PARTY_SECRET configured (fails closed)', async () => {
    const { server, connections } = fakeRoom({});
    expect((await pushed(server, push({ type: 'comment', comment }, { 'x-party-secret': '' }))).status).toBe(503);
    expect((await pushed(server, push({ type: 'comment', comment }, { 'x-party-secret': 'undefined' }))).status).toBe(503);
    for (const c of connections) expect(c.sent).toEqual([]);
  });

  it('rejects anything but POST, malformed JSON and messages that fail the schema', async () => {
    const { server, connections } = fakeRoom();
    expect((await server.onRequest(push(null, { 'x-party-secret': SECRET }, 'GET'))).status).toBe(405);
    expect((await server.onRequest(push('{"type":'))).status).toBe(400);
    expect((await server.onRequest(push({ type: 'comment', comment: { ...comment, id: 'x' } }))).status).toBe(400);
    expect((await server.onRequest(push({ type: 'comment' }))).status).toBe(400);
    expect((await server.onRequest(push({ type: 'system', text: 'fake announcement' }))).status).toBe(400);
    expect((await server.onRequest(push({ type: 'comment', comment: { ...comment, comment: 'x'.repeat(70_000) } }))).status).toBe(413);
    await vi.advanceTimersByTimeAsync(SEND_WINDOW_MS);
    for (const c of connections) expect(c.sent).toEqual([]);
  });

  it('drops unknown fields instead of relaying them', async () => {
    const { server, connections } = fakeRoom();
    await pushed(server, push({ type: 'comment', comment: { ...comment, email: 'secret@example.com' }, extra: 1 }));
    expect(connections[0]!.sent[0]).toContain('Phim hay');
    expect(connections[0]!.sent[0]).not.toContain('secret@example.com');
    expect(connections[0]!.sent[0]).not.toContain('extra');
  });
});

describe('comments room: browsers only listen', () => {
  it('never relays what a browser sends, even a well-formed comment event', () => {
    const { server, broadcasts, connections } = fakeRoom();
    const sender = connections[0]!;
    for (const message of [JSON.stringify({ type: 'comment', comment }), 'hello', '{"type":"pong"}', new Uint8Array([1, 2, 3])]) {
      server.onMessage(message, sender as unknown as Party.Connection);
    }
    expect(broadcasts).toEqual([]);
    for (const c of connections) expect(c.sent).toEqual([]);
  });

  it('answers a ping with a pong to that browser alone', () => {
    const { server, broadcasts, connections } = fakeRoom();
    server.onMessage(JSON.stringify({ type: 'ping' }), connections[1] as unknown as Party.Connection);
    expect(connections[1]!.sent.map((m) => JSON.parse(m))).toEqual([{ type: 'pong' }]);
    expect(connections[0]!.sent).toEqual([]);
    expect(broadcasts).toEqual([]);
  });

  it('closes a connection that floods the room', () => {
    const { server, connections } = fakeRoom();
    const flooder = connections[2]!;
    for (let i = 0; i < 31; i++) server.onMessage(JSON.stringify({ type: 'ping' }), flooder as unknown as Party.Connection);
    expect(flooder.sent).toHaveLength(30);
    expect(flooder.closed).toEqual({ code: 1008, reason: 'Too many messages' });
  });

  it('admits connections only to rooms named like a film slug', async () => {
    const req = new Request('http://127.0.0.1:1999/parties/comments/x') as unknown as Party.Request;
    const lobby = (id: string) => ({ id }) as unknown as Party.Lobby;
    expect(CommentsRoom.onBeforeConnect(req, lobby('dat-rung-phuong-nam'))).toBe(req);
    const refused = CommentsRoom.onBeforeConnect(req, lobby('Đất Rừng Phương Nam'));
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(404);
  });

  it('refuses an unsigned push at the edge, before the room is woken; a signed POST passes through', () => {
    const lobby = { id: 'mat-biec', env: { PARTY_SECRET: SECRET } } as unknown as Party.Lobby;
    const unsigned = push({ type: 'comment', comment }, {});
    expect((CommentsRoom.onBeforeRequest(unsigned, lobby) as Response).status).toBe(401);
    expect((CommentsRoom.onBeforeRequest(push(null, { 'x-party-secret': SECRET }, 'GET'), lobby) as Response).status).toBe(405);
    const signed = push({ type: 'comment', comment });
    expect(CommentsRoom.onBeforeRequest(signed, lobby)).toBe(signed);
  });
});

describe('parseRoomEvent (what the web client uses)', () => {
  it('accepts the room events and nothing else', () => {
    expect(parseRoomEvent(JSON.stringify({ type: 'comment', comment }))).toEqual({ type: 'comment', comment });
    expect(parseRoomEvent(JSON.stringify({ type: 'pong' }))).toEqual({ type: 'pong' });
    expect(parseRoomEvent('{"type":"comment"}')).toBeNull();
    expect(parseRoomEvent('not json')).toBeNull();
    expect(parseRoomEvent(new ArrayBuffer(2))).toBeNull();
  });
});
