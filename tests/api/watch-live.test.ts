// Watch parties end to end through a real `partykit dev`: the API creates the room and signs tokens, the
// room checks them in onBeforeConnect and onConnect, and two sockets (partysocket on ws) share a timeline.
import PartySocket from 'partysocket';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startPartyKitDev, type PartyKitDev } from '../../party/dev-server';
import { parseWatchEvent, WATCH_PARTY, type WatchEvent } from '../../party/watch-messages';
import { signWatchToken } from '../../party/watch-token';
import type { PartyTokenResponse } from '../../worker/schemas/watch-party';
import { createTestApp, type TestApp } from '../helpers/app';
import { bearer, signedInUser } from '../helpers/auth';
import { seedCatalogue } from '../helpers/catalogue-fixture';

const SECRET = `live-watch-secret-${process.pid}-${Date.now()}`;
let party: PartyKitDev;
let t: TestApp;

beforeAll(async () => {
  party = await startPartyKitDev({ secret: SECRET, log: 'capture' });
  t = await createTestApp({ config: { PARTYKIT_HOST: party.url, PARTY_SECRET: SECRET } });
  await seedCatalogue(t.deps.db);
}, 90_000);

afterAll(async () => {
  await party?.stop();
});

function connect(room: string, token: string) {
  const socket = new PartySocket({ host: party.host, party: WATCH_PARTY, room, WebSocket, maxRetries: 0, query: { token } });
  const events: WatchEvent[] = [];
  let closed: { code: number; reason: string } | null = null;
  socket.addEventListener('message', (e: MessageEvent) => {
    const event = parseWatchEvent(e.data);
    if (event) events.push(event);
  });
  socket.addEventListener('close', (e: CloseEvent) => {
    closed ??= { code: e.code, reason: e.reason };
  });
  socket.addEventListener('error', () => {
    closed ??= { code: -1, reason: 'error' };
  });
  return { socket, events, closed: () => closed };
}

const waitFor = async (check: () => boolean, ms = 8000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('watch parties through partykit dev', () => {
  it('a host and a visitor join with API tokens, share the timeline, and a forged token is refused', async () => {
    const lan = await signedInUser(t, { name: 'Lan' });
    const created = await t.request('/api/parties', {
      json: { slug: 'dat-rung-phuong-nam', episode: 1 },
      headers: bearer(lan.session.token),
    });
    expect(created.status).toBe(201);
    const host = (await created.json()) as PartyTokenResponse;
    const joined = await t.request(`/api/parties/${host.party.id}/token`, { json: { name: 'Hoa' } });
    expect(joined.status).toBe(200);
    const guest = (await joined.json()) as PartyTokenResponse;

    const a = connect(host.party.id, host.token);
    await waitFor(() => a.events.some((e) => e.type === 'welcome'));
    const b = connect(host.party.id, guest.token);
    try {
      await waitFor(() => b.events.some((e) => e.type === 'welcome'));
      const welcome = b.events.find((e) => e.type === 'welcome');
      expect(welcome?.type === 'welcome' && welcome.snapshot.members.map((m) => [m.name, m.host])).toEqual([
        ['Lan', true],
        ['Hoa', false],
      ]);
      a.socket.send(JSON.stringify({ type: 'ping', id: 1, t: 5 }));
      await waitFor(() => a.events.some((e) => e.type === 'pong'));
      a.socket.send(JSON.stringify({ type: 'seek', seq: 1, position: 750 }));
      await waitFor(() => b.events.some((e) => e.type === 'snapshot' && e.notice?.text === 'Lan đã tua đến 12:30'));
      // The visitor may not control: refused, nothing changes for the host.
      const seen = a.events.length;
      b.socket.send(JSON.stringify({ type: 'seek', seq: 2, position: 10 }));
      await waitFor(() => b.events.some((e) => e.type === 'refused' && e.code === 'not_allowed'));
      b.socket.send(JSON.stringify({ type: 'chat', text: 'xin chào' }));
      await waitFor(() => a.events.some((e) => e.type === 'chat'));
      expect(a.events.slice(seen).filter((e) => e.type === 'snapshot')).toEqual([]);

      const forged = await signWatchToken(
        'not-the-secret-0123456789',
        { sub: 'u:1', name: 'X', party: host.party.id, signedIn: true },
        Date.now(),
      );
      const c = connect(host.party.id, forged.token);
      await waitFor(() => c.closed() !== null);
      expect(c.events).toEqual([]);
    } finally {
      a.socket.close();
      b.socket.close();
    }
    expect(party.output()).not.toMatch(/Uncaught/);
  });
});
