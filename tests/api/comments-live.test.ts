// End to end through a real `partykit dev`: API → room → browsers (partysocket on ws, as the web uses it).
import PartySocket from 'partysocket';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startPartyKitDev, type PartyKitDev } from '../../party/dev-server';
import { parseRoomEvent, type RoomEvent } from '../../party/messages';
import { createTestApp } from '../helpers/app';
import { bearer, insertFilm, signedInUser } from '../helpers/auth';

const SECRET = `live-test-party-secret-${process.pid}-${Date.now()}`;
let party: PartyKitDev;

beforeAll(async () => {
  party = await startPartyKitDev({ secret: SECRET, log: 'capture' });
}, 90_000);

afterAll(async () => {
  await party?.stop();
});

function listen(slug: string) {
  const socket = new PartySocket({ host: party.host, party: 'comments', room: slug, WebSocket, maxRetries: 0 });
  const events: RoomEvent[] = [];
  socket.addEventListener('message', (e: MessageEvent) => {
    const event = parseRoomEvent(e.data);
    if (event) events.push(event);
  });
  const open = new Promise<void>((done) => socket.addEventListener('open', () => done(), { once: true }));
  return { socket, events, open };
}

const waitFor = async (check: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('live comments through partykit dev', () => {
  it("delivers a posted comment to every browser in the film's room, and to no other room", async () => {
    const t = await createTestApp({ config: { PARTYKIT_HOST: party.url, PARTY_SECRET: SECRET } });
    await insertFilm(t.deps.db, 'mat-biec');
    await insertFilm(t.deps.db, 'lat-mat-8');
    const a = listen('mat-biec');
    const b = listen('mat-biec');
    const elsewhere = listen('lat-mat-8');
    await Promise.all([a.open, b.open, elsewhere.open]);
    try {
      const user = await signedInUser(t, { name: 'Người xem trực tiếp' });
      const res = await t.request('/api/product/comment', {
        json: { titlefilm: 'mat-biec', contentcomment: '<i>trực tiếp</i>' },
        headers: bearer(user.session.token),
      });
      expect(res.status).toBe(201);
      const comment = await res.json();
      await t.background();
      await waitFor(() => a.events.length > 0 && b.events.length > 0);
      expect(a.events).toEqual([{ type: 'comment', comment }]);
      expect(b.events).toEqual([{ type: 'comment', comment }]);

      // A browser's message is never relayed; a ping gets a pong to that browser only.
      a.socket.send(JSON.stringify({ type: 'comment', comment: { ...comment, id: 999, comment: 'giả mạo' } }));
      a.socket.send(JSON.stringify({ type: 'ping' }));
      await waitFor(() => a.events.some((e) => e.type === 'pong'));
      // The pong proves the room has handled the forged frame. A relay of it would have been sent to b
      // before this next push, and a stray copy of the first comment to the other room before that
      // room's own push: each socket delivers in order, so once these arrive, nothing else came first.
      const next = await t.request('/api/product/comment', {
        json: { titlefilm: 'mat-biec', contentcomment: 'bình luận thứ hai' },
        headers: bearer(user.session.token),
      });
      const there = await t.request('/api/product/comment', {
        json: { titlefilm: 'lat-mat-8', contentcomment: 'ở phòng khác' },
        headers: bearer(user.session.token),
      });
      const [second, third] = [await next.json(), await there.json()];
      await t.background();
      await waitFor(() => b.events.length >= 2 && elsewhere.events.length >= 1);
      expect(b.events).toEqual([
        { type: 'comment', comment },
        { type: 'comment', comment: second },
      ]);
      expect(elsewhere.events).toEqual([{ type: 'comment', comment: third }]);

      // An unsigned push straight to the room is refused.
      const forged = await fetch(`${party.url}/parties/comments/mat-biec`, {
        method: 'POST',
        body: JSON.stringify({ type: 'comment', comment }),
      });
      expect(forged.status).toBe(401);
    } finally {
      for (const s of [a, b, elsewhere]) s.socket.close();
    }
  });
});

describe('sockets that close', () => {
  const open = (slug: string) =>
    new Promise<WebSocket>((done, fail) => {
      const ws = new WebSocket(`ws://${party.host}/parties/comments/${slug}`);
      ws.once('open', () => done(ws));
      ws.once('error', fail);
    });
  const closed = (ws: WebSocket) =>
    new Promise<void>((done) => (ws.readyState === WebSocket.CLOSED ? done() : ws.once('close', () => done())));

  it('leave no uncaught exception in the dev server log, however the browser goes (nor does a refused push)', async () => {
    // A clean close; "going away" (what a browser sends when the viewer leaves the page); a dropped
    // connection with no close frame (a phone losing its network); a close after the socket sat idle.
    const clean = await open('dong-sach');
    clean.close();
    const away = await open('roi-trang');
    away.close(1001, 'going away');
    const dropped = await open('mat-mang');
    dropped.terminate();
    const idle = await open('ngoi-yen');
    await new Promise((r) => setTimeout(r, 2000));
    idle.close();
    await Promise.all([clean, away, dropped, idle].map(closed));
    await new Promise((r) => setTimeout(r, 1500));
    // The whole log so far: the first test's refused (unsigned) push is in it too.
    const logged = party.output();
    expect(logged).toContain('401 Unauthorized'); // the capture works
    expect(logged).not.toMatch(/Uncaught|disconnected/);
  }, 30_000);
});

describe('the room secret', () => {
  it('is on no command line of any process (it is in a private config file), and the room still checks it', () => {
    const commandLines = readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        } catch {
          return ''; // the process ended meanwhile
        }
      });
    expect(commandLines.some((line) => line.includes('partykit') && line.includes(' dev '))).toBe(true);
    expect(commandLines.filter((line) => line.includes(SECRET))).toEqual([]);
  });

  it('refuses a push without it (401) and takes one with it', async () => {
    const body = JSON.stringify({
      type: 'comment',
      comment: { id: 1, parent_id: null, comment: 'x', createdAt: 1, users: { username: 'a' } },
    });
    const without = await fetch(`${party.url}/parties/comments/phim-bi-mat`, { method: 'POST', body });
    expect(without.status).toBe(401);
    const withSecret = await fetch(`${party.url}/parties/comments/phim-bi-mat`, {
      method: 'POST',
      body,
      headers: { 'x-party-secret': SECRET },
    });
    expect(withSecret.status).toBe(200);
  });
});
