import type * as Party from 'partykit/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import WatchRoom, { HOST_GRACE_MS } from '../../party/watch';
import {
  parseWatchEvent,
  timelinePosition,
  WATCH_CHAT_KEEP,
  WATCH_CLOSE,
  WATCH_AWAY_MS,
  WATCH_EMPTY_TTL_MS,
  WATCH_HOST_RETURN_MS,
  WATCH_STALL_WAIT_MS,
  WATCH_TEXTS,
  type WatchEvent,
  type WatchSnapshot,
} from '../../party/watch-messages';
import { signWatchToken } from '../../party/watch-token';

const SECRET = 'watch-secret-0123456789abcdef';
const PARTY = 'AbCdEfGhIjKlMnOpQrStUv';
const T0 = 1_760_000_000_000;

class FakeStorage {
  data = new Map<string, unknown>();
  alarm: number | null = null;
  async get<T>(key: string) {
    return structuredClone(this.data.get(key)) as T | undefined;
  }
  async put(key: string, value: unknown) {
    this.data.set(key, structuredClone(value));
  }
  async delete(key: string) {
    return this.data.delete(key);
  }
  async deleteAll() {
    this.data.clear();
  }
  async list<T>({ prefix }: { prefix: string }) {
    const keys = [...this.data.keys()].filter((k) => k.startsWith(prefix)).sort();
    return new Map(keys.map((k) => [k, structuredClone(this.data.get(k)) as T]));
  }
  async setAlarm(at: number) {
    this.alarm = at;
  }
}

class FakeConn {
  sent: string[] = [];
  closed: { code?: number; reason?: string } | null = null;
  constructor(
    readonly id: string,
    readonly room: FakeRoom,
  ) {}
  send(m: string) {
    if (!this.closed) this.sent.push(m);
  }
  close(code?: number, reason?: string) {
    this.closed ??= { code, reason };
    this.room.conns.delete(this.id);
  }
  events(): WatchEvent[] {
    return this.sent.map((m) => parseWatchEvent(m)!).filter(Boolean);
  }
  last<T extends WatchEvent['type']>(type: T): Extract<WatchEvent, { type: T }> | undefined {
    return this.events()
      .filter((e): e is Extract<WatchEvent, { type: T }> => e.type === type)
      .at(-1);
  }
  snapshot(): WatchSnapshot {
    const events = this.events();
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i]!;
      if (e.type === 'snapshot' || e.type === 'welcome') return e.snapshot;
    }
    throw new Error('no snapshot');
  }
}

class FakeRoom {
  conns = new Map<string, FakeConn>();
  storage = new FakeStorage();
  id = PARTY;
  env: Record<string, unknown> = { PARTY_SECRET: SECRET };
  broadcast(m: string, exclude: string[] = []) {
    for (const c of this.conns.values()) if (!exclude.includes(c.id)) c.send(m);
  }
  getConnections() {
    return this.conns.values();
  }
}

const create = {
  type: 'create',
  film: { slug: 'mat-biec', title: 'Mắt Biếc' },
  episode: 1,
  server: 'Vietsub #1',
  servers: [
    { name: 'Vietsub #1', episodes: [1, 2, 3] },
    { name: 'Thuyết minh', episodes: [1, 2] },
  ],
  host: { sub: 'u:1', name: 'Lan' },
};

const api = (method: string, body?: unknown, secret = SECRET) =>
  new Request(`http://127.0.0.1:1999/parties/watch/${PARTY}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-party-secret': secret },
    body: body === undefined ? undefined : JSON.stringify(body),
  }) as unknown as Party.Request;

let counter = 0;
async function setup() {
  const fake = new FakeRoom();
  const server = new WatchRoom(fake as unknown as Party.Room);
  await server.onStart();
  expect((await server.onRequest(api('POST', create))).status).toBe(201);
  return { fake, server };
}

async function join(fake: FakeRoom, server: WatchRoom, sub: string, name: string, signedIn = true, party = PARTY) {
  const { token } = await signWatchToken(SECRET, { sub, name, party, signedIn }, Date.now());
  const conn = new FakeConn(`c${++counter}`, fake);
  fake.conns.set(conn.id, conn);
  await server.onConnect(
    conn as unknown as Party.Connection,
    {
      request: new Request(`http://127.0.0.1:1999/parties/watch/${PARTY}?token=${token}`) as unknown as Party.Request,
    } as Party.ConnectionContext,
  );
  return conn;
}

const send = (server: WatchRoom, conn: FakeConn, message: unknown) =>
  server.onMessage(typeof message === 'string' ? message : JSON.stringify(message), conn as unknown as Party.Connection);

/** Host Lan, members Minh and Hoa, all loaded at seq 1. */
async function party() {
  const { fake, server } = await setup();
  const lan = await join(fake, server, 'u:1', 'Lan');
  const minh = await join(fake, server, 'u:2', 'Minh');
  const hoa = await join(fake, server, 'g:visitor-hoa', 'Hoa', false);
  for (const c of [lan, minh, hoa]) await send(server, c, { type: 'ready', seq: server.state!.timeline.seq, rtt: 20 });
  return { fake, server, lan, minh, hoa };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('watch room: creation and joining', () => {
  it('is created by the API with the secret, once; answers GET with whether it can be joined', async () => {
    const fake = new FakeRoom();
    const server = new WatchRoom(fake as unknown as Party.Room);
    await server.onStart();
    expect(await (await server.onRequest(api('GET'))).json()).toMatchObject({ status: 'missing' });
    expect((await server.onRequest(api('POST', create, 'wrong-secret'))).status).toBe(401);
    expect((await server.onRequest(api('POST', { ...create, episode: 9 }))).status).toBe(400);
    expect((await server.onRequest(api('POST', { ...create, host: 'x' }))).status).toBe(400);
    expect((await server.onRequest(api('POST', create))).status).toBe(201);
    expect((await server.onRequest(api('POST', create))).status).toBe(409);
    await join(fake, server, 'u:1', 'Lan');
    expect(await (await server.onRequest(api('GET'))).json()).toMatchObject({ status: 'open', members: 1, present: ['u:1'], episode: 1 });
  });

  it('welcomes a member with the snapshot, marks the creator host and tells the others', async () => {
    const { fake, server } = await setup();
    const lan = await join(fake, server, 'u:1', 'Lan');
    const welcome = lan.last('welcome')!;
    expect(welcome.snapshot.members).toEqual([expect.objectContaining({ name: 'Lan', host: true, control: true, status: 'loading' })]);
    expect(welcome.snapshot.timeline).toMatchObject({ episode: 1, server: 'Vietsub #1', playing: false, position: 0, rate: 1 });
    const minh = await join(fake, server, 'u:2', 'Minh');
    expect(minh.last('welcome')!.you).not.toBe(welcome.you);
    expect(lan.last('snapshot')!.notice?.text).toBe('Minh đã vào phòng');
    expect(lan.snapshot().members.map((m) => [m.name, m.host, m.control])).toEqual([
      ['Lan', true, true],
      ['Minh', false, false],
    ]);
  });

  it('refuses a forged, expired or other party token (edge and room)', async () => {
    const { fake, server } = await setup();
    const forged = await signWatchToken('another-secret-0123456789', { sub: 'u:9', name: 'X', party: PARTY, signedIn: true }, Date.now());
    const lobby = { id: PARTY, env: { PARTY_SECRET: SECRET } } as unknown as Party.Lobby;
    const req = (token: string) => new Request(`http://h/parties/watch/${PARTY}?token=${token}`) as unknown as Party.Request;
    expect(((await WatchRoom.onBeforeConnect(req(forged.token), lobby)) as Response).status).toBe(401);
    expect(((await WatchRoom.onBeforeConnect(req('garbage'), lobby)) as Response).status).toBe(401);
    const good = await signWatchToken(SECRET, { sub: 'u:9', name: 'X', party: PARTY, signedIn: true }, Date.now());
    const passed = await WatchRoom.onBeforeConnect(req(good.token), lobby);
    expect(passed).not.toBeInstanceOf(Response);
    const otherParty = await signWatchToken(SECRET, { sub: 'u:9', name: 'X', party: 'ZZZZZZZZZZZZZZZZZZZZZZ', signedIn: true }, Date.now());
    expect(((await WatchRoom.onBeforeConnect(req(otherParty.token), lobby)) as Response).status).toBe(401);
    const badId = { id: 'short', env: { PARTY_SECRET: SECRET } } as unknown as Party.Lobby;
    expect(((await WatchRoom.onBeforeConnect(req(good.token), badId)) as Response).status).toBe(404);
    // Expired: 2 minutes and the clock tolerance later.
    vi.setSystemTime(T0 + 130_000);
    expect(((await WatchRoom.onBeforeConnect(req(good.token), lobby)) as Response).status).toBe(401);
    vi.setSystemTime(T0);
    const conn = await join(fake, server, 'u:9', 'X', true, 'ZZZZZZZZZZZZZZZZZZZZZZ');
    expect(conn.closed?.code).toBe(WATCH_CLOSE.badToken);
  });

  it('admits at most 20 people; a reconnect of someone present replaces the old socket', async () => {
    const { fake, server } = await setup();
    const conns: FakeConn[] = [];
    for (let i = 1; i <= 20; i++) conns.push(await join(fake, server, `u:${i}`, `N${i}`));
    const late = await join(fake, server, 'u:21', 'Late');
    expect(late.closed).toEqual({ code: WATCH_CLOSE.full, reason: WATCH_TEXTS.full });
    const again = await join(fake, server, 'u:5', 'N5');
    expect(again.closed).toBeNull();
    expect(conns[4]!.closed?.code).toBe(WATCH_CLOSE.replaced);
    expect(server.memberCount()).toBe(20);
  });

  it('escapes nothing itself but keeps names plain: control characters dropped, trimmed', async () => {
    const { fake, server } = await setup();
    const c = await join(fake, server, 'g:abc', '  <b>Hoa</b>\u0000\u202e  ', false);
    expect(c.snapshot().members[0]!.name).toBe('<b>Hoa</b>');
  });
});

describe('watch room: the timeline', () => {
  it('plays at a room time slightly ahead, pauses at the timeline position, and notices show who did it', async () => {
    const { server, lan, minh, hoa } = await party();
    const seq = server.state!.timeline.seq;
    await send(server, lan, { type: 'play', seq });
    const t = minh.snapshot().timeline;
    expect(t.playing).toBe(true);
    expect(t.at).toBeGreaterThanOrEqual(T0 + 300);
    expect(t.at).toBeLessThanOrEqual(T0 + 1500);
    expect(hoa.last('snapshot')!.notice).toMatchObject({ action: 'play', text: 'Lan đã phát' });
    vi.setSystemTime(t.at + 12_500);
    await send(server, lan, { type: 'pause', seq: t.seq });
    const paused = hoa.snapshot().timeline;
    expect(paused.playing).toBe(false);
    expect(paused.position).toBeCloseTo(12.5, 3);
    expect(hoa.last('snapshot')!.notice!.text).toBe('Lan đã tạm dừng ở 0:12');
  });

  it('a seek while playing waits for everyone to load the new position, then starts together', async () => {
    const { server, lan, minh, hoa } = await party();
    await send(server, lan, { type: 'play', seq: server.state!.timeline.seq });
    vi.advanceTimersByTime(5000);
    await send(server, lan, { type: 'seek', seq: server.state!.timeline.seq, position: 750 });
    expect(minh.last('snapshot')!.notice!.text).toBe('Lan đã tua đến 12:30');
    let s = minh.snapshot();
    expect(s.timeline).toMatchObject({ playing: false, position: 750 });
    expect(s.waiting?.for).toHaveLength(3);
    expect(s.members.every((m) => m.status === 'loading')).toBe(true);
    for (const c of [lan, minh]) await send(server, c, { type: 'ready', seq: s.timeline.seq });
    expect(server.state!.timeline.playing).toBe(false);
    await send(server, hoa, { type: 'ready', seq: s.timeline.seq });
    s = hoa.snapshot();
    expect(s.waiting).toBeNull();
    expect(s.timeline.playing).toBe(true);
    expect(s.timeline.position).toBe(750);
    expect(s.timeline.at).toBeGreaterThan(Date.now());
  });

  it("refuses a viewer's seek: nothing changes for others, the viewer gets the refusal and the snapshot back", async () => {
    const { server, minh, hoa } = await party();
    const before = JSON.stringify(server.state!.timeline);
    const hoaSeen = hoa.sent.length;
    await send(server, minh, { type: 'seek', seq: server.state!.timeline.seq, position: 100 });
    expect(JSON.stringify(server.state!.timeline)).toBe(before);
    expect(minh.events().at(-2)).toEqual({ type: 'refused', code: 'not_allowed', message: WATCH_TEXTS.notAllowed });
    expect(minh.last('snapshot')!.snapshot.timeline.position).toBe(0);
    expect(hoa.sent.length).toBe(hoaSeen);
  });

  it('ignores stale commands (based on an older seq)', async () => {
    const { server, lan } = await party();
    const seq = server.state!.timeline.seq;
    await send(server, lan, { type: 'play', seq });
    const after = server.state!.timeline;
    await send(server, lan, { type: 'seek', seq, position: 30 });
    expect(server.state!.timeline).toEqual(after);
    expect(lan.events().at(-2)).toMatchObject({ type: 'refused', code: 'stale' });
  });

  it('changes the rate on the timeline (position re-based) and the episode only to one the film has', async () => {
    const { server, lan, minh } = await party();
    await send(server, lan, { type: 'play', seq: server.state!.timeline.seq });
    vi.setSystemTime(server.state!.timeline.at + 10_000);
    await send(server, lan, { type: 'rate', seq: server.state!.timeline.seq, rate: 1.5 });
    const t = server.state!.timeline;
    expect(t.rate).toBe(1.5);
    expect(t.position).toBeCloseTo(10, 3);
    expect(timelinePosition(t, Date.now() + 2000)).toBeCloseTo(13, 3);
    expect(minh.last('snapshot')!.notice!.text).toBe('Lan đã đổi tốc độ thành 1,5x');
    await send(server, lan, { type: 'episode', seq: t.seq, episode: 3, server: 'Thuyết minh' });
    expect(server.state!.timeline.episode).toBe(1);
    expect(lan.events().at(-2)).toMatchObject({ type: 'refused', code: 'invalid_message' });
    vi.advanceTimersByTime(300);
    await send(server, lan, { type: 'episode', seq: t.seq, episode: 2, server: 'Vietsub #1' });
    const s = minh.snapshot();
    expect(s.timeline).toMatchObject({ episode: 2, position: 0, playing: false });
    expect(s.waiting?.for).toHaveLength(3);
    expect(minh.last('snapshot')!.notice!.text).toBe('Lan đã chuyển sang Tập 2');
  });

  it('answers pings with the room clock to the sender alone', async () => {
    const { server, lan, minh } = await party();
    const before = minh.sent.length;
    await send(server, lan, { type: 'ping', id: 4, t: 123.5 });
    expect(lan.last('pong')).toEqual({ type: 'pong', id: 4, t: 123.5, s: Date.now() });
    expect(minh.sent.length).toBe(before);
  });
});

describe('watch room: a member who stalls', () => {
  it('pauses everyone at the same position for at most 10 s, then goes on without them', async () => {
    const { server, lan, minh, hoa } = await party();
    await send(server, lan, { type: 'play', seq: server.state!.timeline.seq });
    vi.setSystemTime(server.state!.timeline.at + 20_000);
    await send(server, hoa, { type: 'stalled', seq: server.state!.timeline.seq });
    let s = lan.snapshot();
    expect(s.timeline.playing).toBe(false);
    expect(s.timeline.position).toBeCloseTo(20, 3);
    expect(s.waiting?.for).toEqual([hoa.last('welcome')!.you]);
    expect(lan.last('snapshot')!.notice!.text).toBe('Đang chờ Hoa…');
    expect(s.members.find((m) => m.name === 'Hoa')!.status).toBe('stalled');
    await vi.advanceTimersByTimeAsync(WATCH_STALL_WAIT_MS);
    s = minh.snapshot();
    expect(s.waiting).toBeNull();
    expect(s.timeline.playing).toBe(true);
    // Hoa catches up alone: her next stall does not stop the party.
    await send(server, hoa, { type: 'stalled', seq: s.timeline.seq });
    expect(server.state!.timeline.playing).toBe(true);
  });

  it('resumes as soon as the stalled member has loaded', async () => {
    const { server, lan, hoa } = await party();
    await send(server, lan, { type: 'play', seq: server.state!.timeline.seq });
    vi.setSystemTime(server.state!.timeline.at + 5000);
    await send(server, hoa, { type: 'stalled', seq: server.state!.timeline.seq });
    vi.advanceTimersByTime(1200);
    await send(server, hoa, { type: 'ready', seq: server.state!.timeline.seq });
    const s = lan.snapshot();
    expect(s.waiting).toBeNull();
    expect(s.timeline.playing).toBe(true);
    expect(s.timeline.position).toBeCloseTo(5, 3);
  });

  it('never waits for a late joiner', async () => {
    const { fake, server, lan, minh } = await party();
    await send(server, lan, { type: 'play', seq: server.state!.timeline.seq });
    vi.setSystemTime(server.state!.timeline.at + 60_000);
    const late = await join(fake, server, 'u:7', 'Tú');
    expect(late.last('welcome')!.snapshot.timeline.playing).toBe(true);
    await send(server, late, { type: 'stalled', seq: server.state!.timeline.seq });
    expect(minh.snapshot().timeline.playing).toBe(true);
    expect(minh.snapshot().members.find((m) => m.name === 'Tú')!.status).toBe('stalled');
  });
});

describe('watch room: who controls', () => {
  it('the host hands control to a member, allows everyone, and takes it back; others are refused', async () => {
    const { server, lan, minh, hoa } = await party();
    const minhId = minh.last('welcome')!.you;
    await send(server, minh, { type: 'grant', to: minhId });
    expect(minh.events().at(-2)).toMatchObject({ type: 'refused', code: 'host_only' });
    await send(server, lan, { type: 'grant', to: minhId });
    expect(hoa.last('snapshot')!.notice!.text).toBe('Lan đã giao quyền điều khiển cho Minh');
    expect(hoa.snapshot().members.find((m) => m.name === 'Minh')!.control).toBe(true);
    await send(server, minh, { type: 'seek', seq: server.state!.timeline.seq, position: 90 });
    expect(server.state!.timeline.position).toBe(90);
    await send(server, hoa, { type: 'pause', seq: server.state!.timeline.seq });
    expect(hoa.events().at(-2)).toMatchObject({ type: 'refused', code: 'not_allowed' });
    await send(server, lan, { type: 'mode', mode: 'everyone' });
    expect(hoa.last('snapshot')!.notice!.text).toBe(WATCH_TEXTS.everyone);
    expect(hoa.snapshot().members.every((m) => m.control)).toBe(true);
    await send(server, hoa, { type: 'seek', seq: server.state!.timeline.seq, position: 91 });
    expect(server.state!.timeline.position).toBe(91);
  });

  it('when the host leaves, the member present longest becomes host after a short grace', async () => {
    const { fake, server, lan, minh } = await party();
    fake.conns.delete(lan.id);
    await server.onClose(lan as unknown as Party.Connection);
    expect(minh.snapshot().members.some((m) => m.host)).toBe(false);
    await vi.advanceTimersByTimeAsync(HOST_GRACE_MS);
    expect(minh.snapshot().members.find((m) => m.name === 'Minh')!.host).toBe(true);
    expect(minh.last('snapshot')!.notice!.text).toBe('Minh giờ là chủ phòng');
    // A host back within the grace keeps the role.
    const { fake: f2, server: s2, lan: l2, minh: m2 } = await party();
    f2.conns.delete(l2.id);
    await s2.onClose(l2 as unknown as Party.Connection);
    await join(f2, s2, 'u:1', 'Lan');
    await vi.advanceTimersByTimeAsync(HOST_GRACE_MS);
    expect(m2.snapshot().members.find((m) => m.name === 'Lan')!.host).toBe(true);
  });

  it('the host removes a member, who cannot come back', async () => {
    const { fake, server, lan, hoa, minh } = await party();
    await send(server, lan, { type: 'remove', member: hoa.last('welcome')!.you });
    expect(hoa.closed).toEqual({ code: WATCH_CLOSE.removed, reason: WATCH_TEXTS.removed });
    expect(minh.snapshot().members.map((m) => m.name)).toEqual(['Lan', 'Minh']);
    expect(minh.last('snapshot')!.notice!.text).toBe('Lan đã mời Hoa ra khỏi phòng');
    const back = await join(fake, server, 'g:visitor-hoa', 'Hoa', false);
    expect(back.closed?.code).toBe(WATCH_CLOSE.removed);
  });
});

describe('watch room: chat and bad input', () => {
  it('relays chat as plain text to everyone and keeps the last 100 for late joiners', async () => {
    const { fake, server, lan, minh } = await party();
    await send(server, minh, { type: 'chat', text: '  <img src=x onerror=alert(1)> hay quá  ' });
    expect(lan.last('chat')!.message).toMatchObject({ name: 'Minh', text: '<img src=x onerror=alert(1)> hay quá' });
    for (let i = 0; i < 110; i++) {
      vi.advanceTimersByTime(1000);
      await send(server, lan, { type: 'chat', text: `tin ${i}` });
    }
    const late = await join(fake, server, 'u:8', 'Tú');
    const chat = late.last('welcome')!.chat;
    expect(chat).toHaveLength(WATCH_CHAT_KEEP);
    expect(chat.at(-1)!.text).toBe('tin 109');
    expect([...fake.storage.data.keys()].filter((k) => k.startsWith('chat:'))).toHaveLength(WATCH_CHAT_KEEP);
  });

  it('refuses empty, over-long and too-fast chat', async () => {
    const { server, lan } = await party();
    await send(server, lan, { type: 'chat', text: '   ' });
    expect(lan.last('refused')!.code).toBe('invalid_message');
    await send(server, lan, { type: 'chat', text: 'x'.repeat(501) });
    expect(lan.last('refused')!.code).toBe('invalid_message');
    for (let i = 0; i < 4; i++) await send(server, lan, { type: 'chat', text: `a${i}` });
    expect(lan.last('refused')).toEqual({ type: 'refused', code: 'rate_limited', message: WATCH_TEXTS.chatTooFast });
  });

  it('drops and counts malformed, oversized and unknown frames, and the room goes on', async () => {
    const { server, lan, minh } = await party();
    const bad = [
      'not json',
      '{"type":"seek"}',
      JSON.stringify({ type: 'seek', seq: 1, position: -5 }),
      JSON.stringify({ type: 'seek', seq: 1, position: 'NaN' }),
      JSON.stringify({ type: 'nuke' }),
      'x'.repeat(5000),
    ];
    for (const m of bad) await send(server, lan, m);
    await server.onMessage(new Uint8Array([1, 2]), lan as unknown as Party.Connection);
    expect(server.state!.dropped).toBe(bad.length + 1);
    expect(lan.last('refused')!.code).toBe('invalid_message');
    await send(server, lan, { type: 'play', seq: server.state!.timeline.seq });
    expect(minh.snapshot().timeline.playing).toBe(true);
  });

  it('rate-limits commands and closes a flooding connection', async () => {
    const { server, lan } = await party();
    for (let i = 0; i < 8; i++) await send(server, lan, { type: 'seek', seq: server.state!.timeline.seq, position: i });
    expect(lan.events().some((e) => e.type === 'refused' && e.code === 'rate_limited')).toBe(true);
    for (let i = 0; i < 130; i++) await send(server, lan, { type: 'ping', id: i, t: i });
    expect(lan.closed?.code).toBe(WATCH_CLOSE.flood);
    expect(server.memberCount()).toBe(2);
  });
});

describe('watch room: survives a restart, and ends when empty', () => {
  it('reloads the timeline, people and chat from storage after a restart', async () => {
    const { fake, server, lan } = await party();
    await send(server, lan, { type: 'seek', seq: server.state!.timeline.seq, position: 42 });
    await send(server, lan, { type: 'chat', text: 'xin chào' });
    const restarted = new WatchRoom(fake as unknown as Party.Room);
    fake.conns.clear();
    await restarted.onStart();
    expect(restarted.state!.timeline.position).toBe(42);
    const again = await join(fake, restarted, 'u:2', 'Minh');
    expect(again.last('welcome')!.chat.map((m) => m.text)).toEqual(['xin chào']);
    expect(again.last('welcome')!.snapshot.members[0]!.host).toBe(false);
  });

  it('is gone 10 minutes after the last person left; its link then says so', async () => {
    const { fake, server, lan, minh, hoa } = await party();
    for (const c of [lan, minh, hoa]) {
      fake.conns.delete(c.id);
      await server.onClose(c as unknown as Party.Connection);
    }
    expect(fake.storage.alarm).toBe(Date.now() + WATCH_EMPTY_TTL_MS);
    vi.setSystemTime(fake.storage.alarm!);
    await server.onAlarm();
    expect(server.state).toBeNull();
    expect(await (await server.onRequest(api('GET'))).json()).toMatchObject({ status: 'ended', episode: 1, film: { slug: 'mat-biec' } });
    const late = await join(fake, server, 'u:2', 'Minh');
    expect(late.closed).toEqual({ code: WATCH_CLOSE.ended, reason: WATCH_TEXTS.ended });
    // Someone who came back in time keeps the party alive.
    const p = await party();
    p.fake.conns.delete(p.lan.id);
    await p.server.onClose(p.lan as unknown as Party.Connection);
    for (const c of [p.minh, p.hoa]) {
      p.fake.conns.delete(c.id);
      await p.server.onClose(c as unknown as Party.Connection);
    }
    await join(p.fake, p.server, 'u:2', 'Minh');
    vi.setSystemTime(Date.now() + WATCH_EMPTY_TTL_MS);
    await p.server.onAlarm();
    expect(p.server.state).not.toBeNull();
  });
});

describe('watch room: a member whose phone sleeps (issue 38 §6)', () => {
  /** Everyone but `silent` pings every 3 s (as clients do) for `ms`. */
  async function time(server: WatchRoom, talking: FakeConn[], ms: number) {
    for (let t = 0; t < ms; t += 3000) {
      await vi.advanceTimersByTimeAsync(Math.min(3000, ms - t));
      for (const c of talking) if (!c.closed) await send(server, c, { type: 'ping', id: t, t });
    }
  }
  const member = (c: FakeConn, name: string) => c.snapshot().members.find((m) => m.name === name)!;

  it('shows a silent member as away within 15 s, and back with their next frame', async () => {
    const { server, lan, minh, hoa } = await party();
    await time(server, [lan, minh], 12_000);
    expect(member(lan, 'Hoa').away).toBe(false);
    await time(server, [lan, minh], WATCH_AWAY_MS - 12_000 + 1000);
    expect(member(lan, 'Hoa').away).toBe(true);
    expect(member(lan, 'Minh').away).toBe(false);
    expect(lan.last('snapshot')!.notice?.text).toBe('Hoa đang vắng mặt');
    await send(server, hoa, { type: 'ping', id: 1, t: 1 });
    expect(member(lan, 'Hoa').away).toBe(false);
    expect(lan.last('snapshot')!.notice?.text).toBe('Hoa đã quay lại');
  });

  it('no seek or episode change waits for an away member, and a wait already running ends when its member goes away', async () => {
    const { server, lan, minh, hoa } = await party();
    await send(server, lan, { type: 'play', seq: server.state!.timeline.seq });
    await time(server, [lan, minh], WATCH_AWAY_MS + 1000);
    expect(member(lan, 'Hoa').away).toBe(true);
    await send(server, lan, { type: 'seek', seq: server.state!.timeline.seq, position: 300 });
    expect(lan.snapshot().waiting?.for).toHaveLength(2);
    expect(lan.snapshot().waiting?.for).not.toContain(hoa.last('welcome')!.you);
    for (const c of [lan, minh]) await send(server, c, { type: 'ready', seq: server.state!.timeline.seq });
    expect(lan.snapshot().timeline).toMatchObject({ playing: true, position: 300 });
    await send(server, lan, { type: 'episode', seq: server.state!.timeline.seq, episode: 2, server: 'Vietsub #1' });
    expect(lan.snapshot().waiting?.for).toHaveLength(2);
    // Minh's phone sleeps in the middle of this wait: the party goes on with Lan alone, before the 10 s wait is out.
    await send(server, lan, { type: 'ready', seq: server.state!.timeline.seq });
    await time(server, [lan], WATCH_AWAY_MS + 1000);
    expect(member(lan, 'Minh').away).toBe(true);
    expect(lan.snapshot().waiting).toBeNull();
    expect(lan.snapshot().timeline).toMatchObject({ episode: 2, playing: true });
  });

  it('an away host: the member present longest controls until the host is back, and the host keeps the role', async () => {
    const { server, lan, minh, hoa } = await party();
    await time(server, [minh, hoa], WATCH_AWAY_MS + 1000);
    const s = minh.snapshot();
    expect(s.members.find((m) => m.name === 'Lan')).toMatchObject({ host: true, away: true });
    expect(s.members.find((m) => m.name === 'Minh')!.control).toBe(true);
    expect(s.members.find((m) => m.name === 'Hoa')!.control).toBe(false);
    expect(minh.last('snapshot')!.notice?.text).toBe('Lan đang vắng mặt, Minh tạm điều khiển');
    await send(server, minh, { type: 'play', seq: server.state!.timeline.seq });
    expect(server.state!.timeline.playing).toBe(true);
    await send(server, hoa, { type: 'pause', seq: server.state!.timeline.seq });
    expect(hoa.events().at(-2)).toMatchObject({ type: 'refused', code: 'not_allowed' });
    // The host's phone wakes: Lan controls again, Minh no longer.
    await send(server, lan, { type: 'ping', id: 1, t: 1 });
    const back = minh.snapshot();
    expect(back.members.find((m) => m.name === 'Lan')).toMatchObject({ host: true, away: false, control: true });
    expect(back.members.find((m) => m.name === 'Minh')!.control).toBe(false);
    await send(server, minh, { type: 'pause', seq: server.state!.timeline.seq });
    expect(minh.events().at(-2)).toMatchObject({ type: 'refused', code: 'not_allowed' });
  });

  it('the creator who left gets the host role back on return within 5 minutes; later, it stays passed', async () => {
    const { fake, server, lan, minh, hoa } = await party();
    fake.conns.delete(lan.id);
    await server.onClose(lan as unknown as Party.Connection);
    await time(server, [minh, hoa], HOST_GRACE_MS);
    expect(member(minh, 'Minh').host).toBe(true);
    await time(server, [minh, hoa], 4 * 60_000);
    const again = await join(fake, server, 'u:1', 'Lan');
    expect(member(minh, 'Lan').host).toBe(true);
    expect(member(minh, 'Minh').host).toBe(false);
    expect(minh.last('snapshot')!.notice?.text).toBe('Lan đã quay lại và là chủ phòng');
    // Gone longer than 5 minutes: the role stays with the member it passed to.
    fake.conns.delete(again.id);
    await server.onClose(again as unknown as Party.Connection);
    await time(server, [minh, hoa], WATCH_HOST_RETURN_MS + 1000);
    await join(fake, server, 'u:1', 'Lan');
    expect(member(minh, 'Lan').host).toBe(false);
    expect(member(minh, 'Minh').host).toBe(true);
  });

  it('a host away longer than 5 minutes loses the role to the member present longest, as one who left does', async () => {
    const { server, lan, minh, hoa } = await party();
    await time(server, [minh, hoa], WATCH_AWAY_MS + WATCH_HOST_RETURN_MS + 2000);
    expect(member(minh, 'Minh').host).toBe(true);
    expect(member(minh, 'Lan').host).toBe(false);
    await send(server, lan, { type: 'ping', id: 1, t: 1 });
    expect(member(minh, 'Lan')).toMatchObject({ host: false, away: false, control: false });
  });
});
