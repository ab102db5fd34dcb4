import type * as Party from 'partykit/server';
import { beforeEach, describe, expect, it } from 'vitest';
import WatchRoom from '../../party/watch';
import { WATCH_TEXTS } from '../../party/watch-messages';
import { verifyWatchToken } from '../../party/watch-token';
import type { PartyTokenResponse } from '../../worker/schemas/watch-party';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, fakeClock, signedInUser } from '../helpers/auth';
import { seedCatalogue } from '../helpers/catalogue-fixture';

const PARTY_SECRET = 'test-party-secret-0123456789';

/** The rooms behind PARTYKIT_HOST, run in-process: the API talks to them over its fetch, as to partykit. */
class Rooms {
  rooms = new Map<string, { server: WatchRoom; sockets: Set<string> }>();
  down = false;
  async get(id: string) {
    let entry = this.rooms.get(id);
    if (!entry) {
      const sockets = new Set<string>();
      const storage = new Map<string, unknown>();
      const fakeRoom = {
        id,
        env: { PARTY_SECRET },
        storage: {
          get: async (k: string) => storage.get(k),
          put: async (k: string, v: unknown) => void storage.set(k, v),
          delete: async (k: string) => storage.delete(k),
          deleteAll: async () => storage.clear(),
          list: async () => new Map(),
          setAlarm: async () => undefined,
        },
        broadcast: () => undefined,
        getConnections: () => [],
      };
      const server = new WatchRoom(fakeRoom as unknown as Party.Room);
      await server.onStart();
      entry = { server, sockets };
      this.rooms.set(id, entry);
    }
    return entry;
  }
  fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    if (this.down) throw new TypeError('fetch failed');
    const url = new URL(String(input));
    const match = url.pathname.match(/^\/parties\/watch\/([^/]+)$/);
    if (!match) return new Response('not found', { status: 404 });
    const req = new Request(url, init) as unknown as Party.Request;
    const lobby = { id: match[1]!, env: { PARTY_SECRET } } as unknown as Party.Lobby;
    const edge = WatchRoom.onBeforeRequest(req, lobby);
    if (edge instanceof Response) return edge;
    return (await this.get(match[1]!)).server.onRequest(req);
  }) as typeof fetch;
}

let t: TestApp;
let rooms: Rooms;
let clock: ReturnType<typeof fakeClock>;

beforeEach(async () => {
  rooms = new Rooms();
  clock = fakeClock(Date.now());
  t = await createTestApp({
    now: clock.now,
    fetch: rooms.fetch,
    config: { PARTYKIT_HOST: 'http://party.test:1999', PARTY_SECRET },
  });
  await seedCatalogue(t.deps.db);
});

const createParty = (token: string | null, json: unknown) => t.request('/api/parties', { json, headers: token ? bearer(token) : {} });
const joinToken = (id: string, json: unknown, token?: string) =>
  t.request(`/api/parties/${id}/token`, { json, headers: token ? bearer(token) : {} });

describe('POST /api/parties', () => {
  it('creates a party for a signed-in member: an unguessable id and a short-lived host token the room accepts', async () => {
    const lan = await signedInUser(t, { name: 'Lan' });
    const res = await createParty(lan.session.token, { slug: 'dat-rung-phuong-nam', episode: 2, server: 'Thuyết Minh #2' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as PartyTokenResponse;
    expect(body.party).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      film: { slug: 'dat-rung-phuong-nam', title: 'Đất Rừng Phương Nam' },
      episode: 2,
      server: 'Thuyết Minh #2',
    });
    expect(body.name).toBe('Lan');
    expect(body.expiresAt - clock.now()).toBeLessThanOrEqual(120_000);
    const claims = await verifyWatchToken(PARTY_SECRET, body.token, body.party.id, clock.now());
    expect(claims).toEqual({ sub: `u:${lan.id}`, name: 'Lan', party: body.party.id, signedIn: true });
    // The room now exists and the creator is its host.
    const room = (await rooms.get(body.party.id)).server;
    expect(room.state?.hostSub).toBe(`u:${lan.id}`);
    expect(room.state?.timeline).toMatchObject({ episode: 2, server: 'Thuyết Minh #2', playing: false });
    // Two parties never share an id.
    const again = (await (await createParty(lan.session.token, { slug: 'dat-rung-phuong-nam', episode: 1 })).json()) as PartyTokenResponse;
    expect(again.party.id).not.toBe(body.party.id);
    expect(again.party.server).toBe('Vietsub #1');
  });

  it('refuses visitors (401), unknown films (404), episodes or servers the film lacks and bad bodies (400)', async () => {
    const lan = await signedInUser(t, { name: 'Lan' });
    expect((await createParty(null, { slug: 'mat-biec', episode: 1 })).status).toBe(401);
    expect((await createParty(lan.session.token, { slug: 'khong-co', episode: 1 })).status).toBe(404);
    const noEpisode = await createParty(lan.session.token, { slug: 'mat-biec', episode: 7 });
    expect(noEpisode.status).toBe(400);
    expect((await errorOf(noEpisode)).message).toMatch(/^episode: /);
    expect((await errorOf(await createParty(lan.session.token, { slug: 'mat-biec', episode: 1, server: 'Không có' }))).message).toMatch(
      /^server: /,
    );
    for (const bad of [{}, { slug: 'mat-biec' }, { slug: 'mat-biec', episode: '1' }, { slug: 'mat-biec', episode: 1.5 }, [], 'x']) {
      const res = await createParty(lan.session.token, bad);
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toMatchObject({ code: 'invalid_input' });
    }
  });

  it('answers 503, not 500, when the rooms cannot be reached', async () => {
    const lan = await signedInUser(t, { name: 'Lan' });
    rooms.down = true;
    const res = await createParty(lan.session.token, { slug: 'mat-biec', episode: 1 });
    expect(res.status).toBe(503);
    expect(await errorOf(res)).toMatchObject({ code: 'party_unavailable' });
  });
});

describe('POST /api/parties/{id}/token', () => {
  async function aParty() {
    const lan = await signedInUser(t, { name: 'Lan' });
    const body = (await (await createParty(lan.session.token, { slug: 'mat-biec', episode: 1 })).json()) as PartyTokenResponse;
    return body.party.id;
  }

  it('gives a visitor a token under the display name they chose (trimmed), and keeps their identity when asked again', async () => {
    const id = await aParty();
    const res = await joinToken(id, { name: '   Hoa   ' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as PartyTokenResponse;
    expect(body).toMatchObject({ name: 'Hoa', guest: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), party: { id, episode: 1 } });
    const claims = await verifyWatchToken(PARTY_SECRET, body.token, id, clock.now());
    expect(claims).toEqual({ sub: `g:${body.guest}`, name: 'Hoa', party: id, signedIn: false });
    const again = (await (await joinToken(id, { name: 'Hoa', guest: body.guest })).json()) as PartyTokenResponse;
    expect((await verifyWatchToken(PARTY_SECRET, again.token, id, clock.now()))?.sub).toBe(`g:${body.guest}`);
  });

  it('a signed-in member joins under their own name, whatever name they send', async () => {
    const id = await aParty();
    const minh = await signedInUser(t, { name: 'Minh', email: 'minh@example.com' });
    const body = (await (await joinToken(id, { name: 'Giả danh' }, minh.session.token)).json()) as PartyTokenResponse;
    expect(body.name).toBe('Minh');
    expect(body.guest).toBeUndefined();
    expect((await verifyWatchToken(PARTY_SECRET, body.token, id, clock.now()))?.signedIn).toBe(true);
  });

  it.each([[''], ['    '], ['x'.repeat(33)], [undefined]])('refuses the visitor name %j with a clear message', async (name) => {
    const id = await aParty();
    const res = await joinToken(id, name === undefined ? {} : { name });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({ code: 'invalid_input', message: `name: ${WATCH_TEXTS.nameRequired}` });
  });

  it('accepts a 32-character name (counted in characters, not bytes)', async () => {
    const id = await aParty();
    const res = await joinToken(id, { name: 'Ư'.repeat(32) });
    expect(res.status).toBe(200);
  });

  it('says in Vietnamese that a party does not exist, and refuses ids that are not party ids', async () => {
    const res = await joinToken('AAAAAAAAAAAAAAAAAAAAAA', { name: 'Hoa' });
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toEqual({ code: 'party_not_found', message: WATCH_TEXTS.notFound });
    // Before any name: a visitor's link to a missing party says so before the name form.
    const nameless = await joinToken('AAAAAAAAAAAAAAAAAAAAAA', {});
    expect(nameless.status).toBe(404);
    expect(await errorOf(nameless)).toEqual({ code: 'party_not_found', message: WATCH_TEXTS.notFound });
    for (const bad of ['short', 'a'.repeat(65), 'has%20space0000000000']) expect((await joinToken(bad, { name: 'Hoa' })).status).toBe(400);
    expect((await joinToken('AAAAAAAAAAAAAAAAAAAAAA', { name: 'Hoa', guest: '../../etc' })).status).toBe(400);
    expect(
      (
        await t.request('/api/parties/AAAAAAAAAAAAAAAAAAAAAA/token', {
          method: 'POST',
          body: '{',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
  });

  it('says a party is full once 20 people are in it', async () => {
    const id = await aParty();
    const room = (await rooms.get(id)).server;
    for (let i = 0; i < 20; i++) room.present.set(`c${i}`, { sub: `g:someone-${i}` } as never);
    const res = await joinToken(id, { name: 'Hoa' });
    expect(res.status).toBe(409);
    expect(await errorOf(res)).toEqual({ code: 'party_full', message: WATCH_TEXTS.full });
    expect((await joinToken(id, {})).status).toBe(409);
  });

  it('says a party is over and names the episode to watch alone', async () => {
    const id = await aParty();
    const room = (await rooms.get(id)).server;
    room.state!.emptySince = Date.now() - 11 * 60_000;
    await room.onAlarm();
    expect((await joinToken(id, {})).status).toBe(410);
    const res = await joinToken(id, { name: 'Hoa' });
    expect(res.status).toBe(410);
    expect(await res.json()).toEqual({
      error: { code: 'party_ended', message: WATCH_TEXTS.ended },
      party: { film: { slug: 'mat-biec', title: 'Mắt Biếc' }, episode: 1, server: 'Vietsub #1' },
    });
  });
});
