// Live-comment benchmark: `npx tsx bench/live.ts` (or `npm run bench -- live`).
// Starts partykit dev (port 1999, or a free port if that is taken) and the API (worker/node.ts on a file
// libSQL) as separate processes, opens 200 partysocket clients in one film room, posts 100 comments
// through the API, and prints latency from the POST to receipt at every client, plus messages lost.
// Then the floor: the same 100 messages pushed straight to the room (no API, no database).
// Loopback only; bounded (hard stop after 120 s); stops everything it started.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import PartySocket from 'partysocket';
import WebSocket from 'ws';
import { freePort, startPartyKitDev, type PartyKitDev } from '../party/dev-server';
import { parseRoomEvent, type RoomPush } from '../party/messages';
import { loadConfig } from '../worker/config';
import { openMigratedDatabase } from '../worker/db/node-client';
import { films, users } from '../worker/db/schema';
import { startSession } from '../worker/services/auth/accounts';
import { hashPassword } from '../worker/services/auth/password';
import { RATE_LIMITS } from '../worker/services/rate-limit';

const CLIENTS = Number(process.env.BENCH_LIVE_CLIENTS ?? 200);
const COMMENTS = Number(process.env.BENCH_LIVE_COMMENTS ?? 100);
/** One comment every INTERVAL ms (50 per second by default), not all at once: a busy film, not a flood. */
const INTERVAL_MS = Number(process.env.BENCH_LIVE_INTERVAL_MS ?? 20);
const HARD_STOP_MS = 120_000;
const ROOT = resolve(import.meta.dirname, '..');
const DB_FILE = resolve(ROOT, 'data/bench-live.db');
const SLUG = 'phong-chieu-truc-tiep';
const SECRET = `bench-live-${crypto.randomUUID()}`;
const JWT_SECRET = `bench-live-jwt-${crypto.randomUUID()}`;

const cleanups: (() => Promise<void> | void)[] = [];
async function cleanup() {
  for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => undefined);
  cleanups.length = 0;
}
const hardStop = setTimeout(() => {
  console.error(`live bench: hard stop after ${HARD_STOP_MS / 1000} s`);
  void cleanup().finally(() => process.exit(1));
}, HARD_STOP_MS);
hardStop.unref();

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN);
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function portIsFree(port: number): Promise<boolean> {
  const { createServer } = await import('node:net');
  return new Promise((done) => {
    const s = createServer().once('error', () => done(false)).listen(port, '0.0.0.0', () => s.close(() => done(true)));
  });
}

async function seed(): Promise<string[]> {
  rmSync(DB_FILE, { force: true });
  rmSync(`${DB_FILE}-wal`, { force: true });
  rmSync(`${DB_FILE}-shm`, { force: true });
  const database = await openMigratedDatabase(`file:${DB_FILE}`);
  const config = loadConfig({ APP_ENV: 'test', JWT_SECRET });
  await database.db.insert(films).values({ slug: SLUG, title: 'Phòng Chiếu Trực Tiếp', categoryId: 24 });
  // Enough authors that the per-user comment limit never triggers.
  const authors = Math.ceil(COMMENTS / (RATE_LIMITS.commentPerUser.limit - 1));
  const passwordHash = await hashPassword('bench-password');
  const rows = await database.db
    .insert(users)
    .values(Array.from({ length: authors }, (_, i) => ({ email: `khan-gia-${i}@bench.local`, username: `Khán giả ${i + 1}`, passwordHash })))
    .returning();
  const tokens: string[] = [];
  for (const user of rows) tokens.push((await startSession({ db: database.db, config, now: Date.now, fetch }, user)).token);
  database.client.close();
  return tokens;
}

async function startApi(party: PartyKitDev): Promise<string> {
  const port = await freePort();
  const child: ChildProcess = spawn(resolve(ROOT, 'node_modules/.bin/tsx'), ['worker/node.ts'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(port), DATABASE_URL: `file:${DB_FILE}`, APP_ENV: 'test', JWT_SECRET, PARTYKIT_HOST: party.url, PARTY_SECRET: SECRET },
  });
  cleanups.push(() => new Promise<void>((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', () => done());
    try { process.kill(-child.pid!, 'SIGTERM'); } catch { child.kill('SIGTERM'); }
  }));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) return base;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('API did not start');
}

interface Clients {
  /** received[client][tag] = receipt time. */
  received: Map<string, number>[];
  close: () => void;
}

async function openClients(party: PartyKitDev, tagOf: (comment: string) => string | null): Promise<Clients> {
  const received = Array.from({ length: CLIENTS }, () => new Map<string, number>());
  const sockets: PartySocket[] = [];
  await Promise.all(
    received.map((got, i) => new Promise<void>((done, fail) => {
      const socket = new PartySocket({ host: party.host, party: 'comments', room: SLUG, WebSocket, maxRetries: 0, id: `bench-${i}` });
      sockets.push(socket);
      socket.addEventListener('message', (e: MessageEvent) => {
        const at = performance.now();
        const event = parseRoomEvent(e.data);
        if (event?.type !== 'comment') return;
        const tag = tagOf(event.comment.comment);
        if (tag && !got.has(tag)) got.set(tag, at);
      });
      socket.addEventListener('open', () => done(), { once: true });
      socket.addEventListener('error', () => fail(new Error(`client ${i} could not connect`)), { once: true });
    })),
  );
  return { received, close: () => sockets.forEach((s) => s.close()) };
}

async function waitForDeliveries(clients: Clients, tags: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  const done = () => clients.received.every((got) => tags.every((t) => got.has(t)));
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
}

function summarise(name: string, clients: Clients, sentAt: Map<string, number>) {
  const latencies: number[] = [];
  let lost = 0;
  for (const got of clients.received) {
    for (const [tag, t0] of sentAt) {
      const at = got.get(tag);
      if (at === undefined) lost++;
      else latencies.push(at - t0);
    }
  }
  latencies.sort((a, b) => a - b);
  const expected = clients.received.length * sentAt.size;
  console.log(`  ${name.padEnd(28)} p50 ${ms(percentile(latencies, 50)).padStart(9)}   p99 ${ms(percentile(latencies, 99)).padStart(9)}   max ${ms(latencies.at(-1) ?? NaN).padStart(9)}   delivered ${latencies.length}/${expected}   lost ${lost}`);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), lost };
}

async function main() {
  const port = (await portIsFree(1999)) ? 1999 : undefined;
  const party = await startPartyKitDev({ secret: SECRET, port });
  cleanups.push(() => party.stop());
  const tokens = await seed();
  cleanups.push(() => { for (const f of [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`]) rmSync(f, { force: true }); });
  const api = await startApi(party);
  console.log(`live bench: ${CLIENTS} clients in room '${SLUG}' on ${party.url}${port ? '' : ' (1999 was busy)'}, API ${api}, ${COMMENTS} comments at one per ${INTERVAL_MS} ms`);

  const tagOf = (text: string) => /^#(\w+-\d+) /.exec(text)?.[1] ?? null;
  const clients = await openClients(party, tagOf);
  cleanups.push(() => clients.close());

  // Through the API: POST (auth, validation, rate limit, insert) → push → room → 200 browsers.
  const apiSent = new Map<string, number>();
  const postTimes: number[] = [];
  const posts: Promise<void>[] = [];
  let failures = 0;
  for (let i = 0; i < COMMENTS; i++) {
    const tag = `api-${i}`;
    const t0 = performance.now();
    apiSent.set(tag, t0);
    posts.push(
      fetch(`${api}/api/product/comment`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[i % tokens.length]}` },
        body: JSON.stringify({ titlefilm: SLUG, contentcomment: `#${tag} Bình luận thử số ${i + 1}` }),
      }).then(async (res) => {
        postTimes.push(performance.now() - t0);
        if (res.status !== 201) failures++;
        await res.arrayBuffer();
      }, () => { failures++; }),
    );
    await new Promise((r) => setTimeout(r, INTERVAL_MS));
  }
  await Promise.all(posts);
  await waitForDeliveries(clients, [...apiSent.keys()], 10_000);

  // The floor: the same fan-out with no API and no database, pushed straight to the room.
  const floorSent = new Map<string, number>();
  for (let i = 0; i < COMMENTS; i++) {
    const tag = `floor-${i}`;
    const message: RoomPush = { type: 'comment', comment: { id: 1_000_000 + i, parent_id: null, comment: `#${tag} x`, createdAt: Date.now(), users: { username: 'bench' } } };
    floorSent.set(tag, performance.now());
    void fetch(`${party.url}/parties/comments/${SLUG}`, { method: 'POST', headers: { 'x-party-secret': SECRET }, body: JSON.stringify(message) }).then((r) => r.arrayBuffer(), () => undefined);
    await new Promise((r) => setTimeout(r, INTERVAL_MS));
  }
  await waitForDeliveries(clients, [...floorSent.keys()], 10_000);

  postTimes.sort((a, b) => a - b);
  console.log(`  POST /api/product/comment   p50 ${ms(percentile(postTimes, 50)).padStart(9)}   p99 ${ms(percentile(postTimes, 99)).padStart(9)}   non-201 ${failures}`);
  const ours = summarise('POST → every client (API)', clients, apiSent);
  const floor = summarise('push → every client (floor)', clients, floorSent);
  console.log(`  ratio API/floor: p50 ${(ours.p50 / floor.p50).toFixed(2)}x, p99 ${(ours.p99 / floor.p99).toFixed(2)}x`);
  console.log(`  aim: p99 under 100 ms, none lost → ${ours.p99 < 100 && ours.lost === 0 && failures === 0 ? 'met' : 'NOT met'}`);
}

try {
  await main();
} catch (err) {
  console.error('live bench failed:', err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  await cleanup();
  clearTimeout(hardStop);
}
