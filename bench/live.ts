// Live-comment benchmark: `npx tsx bench/live.ts` (or `npm run bench -- live`).
// Starts partykit dev (port 1999, or a free port if that is taken) and the API (worker/node.ts on a file
// libSQL) as separate processes, opens 200 partysocket clients in one film room, posts 100 comments
// through the API, and prints latency from the POST to receipt at every client, plus messages lost.
// Each run is followed by its floor: the same 100 messages pushed straight to the room (no API, no
// database). Two rates: steady (10/s, a very busy film; the aim applies here) and burst (50/s).
// Loopback only; bounded (hard stop after 120 s); stops everything it started.
import { rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import PartySocket from 'partysocket';
import WebSocket from 'ws';
import { startPartyKitDev, type PartyKitDev } from '../party/dev-server';
import { startApiHost } from './premiere/api-host';
import { parseRoomEvent, type RoomPush } from '../party/messages';
import { loadConfig } from '../worker/config';
import { openMigratedDatabase } from '../worker/db/node-client';
import { films, users } from '../worker/db/schema';
import { startSession } from '../worker/services/auth/accounts';
import { hashPassword } from '../worker/services/auth/password';
import { RATE_LIMITS } from '../worker/services/rate-limit';

const CLIENTS = Number(process.env.BENCH_LIVE_CLIENTS ?? 200);
const COMMENTS = Number(process.env.BENCH_LIVE_COMMENTS ?? 100);
/** Steady: a very busy film (10 comments a second). Burst: 50 a second, to show where queueing starts. */
const STEADY_INTERVAL_MS = Number(process.env.BENCH_LIVE_INTERVAL_MS ?? 100);
const BURST_INTERVAL_MS = 20;
const HARD_STOP_MS = 120_000;
/** Sequential posts before measuring: the API's first requests pay for JIT and statement caches. */
const WARMUP = 20;
const WARMUP_AUTHORS = 5;
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

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : NaN;
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function portIsFree(port: number): Promise<boolean> {
  const { createServer } = await import('node:net');
  return new Promise((done) => {
    const s = createServer()
      .once('error', () => done(false))
      .listen(port, '0.0.0.0', () => s.close(() => done(true)));
  });
}

async function seed(): Promise<string[]> {
  rmSync(DB_FILE, { force: true });
  rmSync(`${DB_FILE}-wal`, { force: true });
  rmSync(`${DB_FILE}-shm`, { force: true });
  const database = await openMigratedDatabase(`file:${DB_FILE}`);
  const config = loadConfig({ APP_ENV: 'test', JWT_SECRET });
  await database.db.insert(films).values({ slug: SLUG, title: 'Phòng Chiếu Trực Tiếp', categoryId: 24 });
  // Enough authors that the per-user comment limit never triggers: 4 runs of COMMENTS, 2 of them through the API.
  const authors = Math.ceil((2 * COMMENTS) / (RATE_LIMITS.commentPerUser.limit - 1)) + WARMUP_AUTHORS;
  const passwordHash = await hashPassword('bench-password');
  const rows = await database.db
    .insert(users)
    .values(
      Array.from({ length: authors }, (_, i) => ({ email: `khan-gia-${i}@bench.local`, username: `Khán giả ${i + 1}`, passwordHash })),
    )
    .returning();
  const tokens: string[] = [];
  for (const user of rows) tokens.push((await startSession({ db: database.db, config, now: Date.now, fetch }, user)).token);
  database.client.close();
  return tokens;
}

async function startApi(party: PartyKitDev): Promise<string> {
  const host = await startApiHost({ dbFile: DB_FILE, jwtSecret: JWT_SECRET, partyUrl: party.url, partySecret: SECRET });
  cleanups.push(() => host.stop());
  return host.url;
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
    received.map(
      (got, i) =>
        new Promise<void>((done, fail) => {
          const socket = new PartySocket({ host: party.host, party: 'comments', room: SLUG, WebSocket, maxRetries: 0, id: `bench-${i}` });
          sockets.push(socket);
          socket.addEventListener('message', (e: MessageEvent) => {
            const at = performance.now();
            const event = parseRoomEvent(e.data);
            // The room sends comments in batch frames (one per send window).
            for (const item of event?.type === 'batch' ? event.events : event ? [event] : []) {
              if (item.type !== 'comment') continue;
              const tag = tagOf(item.comment.comment);
              if (tag && !got.has(tag)) got.set(tag, at);
            }
          });
          socket.addEventListener('open', () => done(), { once: true });
          socket.addEventListener('error', () => fail(new Error(`client ${i} could not connect`)), { once: true });
        }),
    ),
  );
  return {
    received,
    close: () => {
      for (const s of sockets) s.close();
    },
  };
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
  console.log(
    `    ${name.padEnd(29)} p50 ${ms(percentile(latencies, 50)).padStart(9)}   p99 ${ms(percentile(latencies, 99)).padStart(9)}   max ${ms(latencies.at(-1) ?? NaN).padStart(9)}   delivered ${latencies.length}/${expected}   lost ${lost}`,
  );
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), lost };
}

interface Phase {
  sentAt: Map<string, number>;
  postTimes: number[];
  failures: number;
}

/** Sends COMMENTS comments, one every intervalMs, through the API or straight to the room (the floor). */
async function sendPhase(
  via: 'api' | 'room',
  name: string,
  intervalMs: number,
  ctx: { api: string; party: PartyKitDev; nextToken: () => string },
): Promise<Phase> {
  const phase: Phase = { sentAt: new Map(), postTimes: [], failures: 0 };
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < COMMENTS; i++) {
    const tag = `${name}-${i}`;
    const t0 = performance.now();
    phase.sentAt.set(tag, t0);
    const request =
      via === 'api'
        ? fetch(`${ctx.api}/api/product/comment`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.nextToken()}` },
            body: JSON.stringify({ titlefilm: SLUG, contentcomment: `#${tag} Bình luận thử số ${i + 1}` }),
          })
        : fetch(`${ctx.party.url}/parties/comments/${SLUG}`, {
            method: 'POST',
            headers: { 'x-party-secret': SECRET },
            body: JSON.stringify({
              type: 'comment',
              comment: {
                id: 1_000_000 + i,
                parent_id: null,
                comment: `#${tag} x`,
                createdAt: Date.now(),
                users: { username: 'bench' },
                user_id: 1,
              },
            } satisfies RoomPush),
          });
    inflight.push(
      request.then(
        async (res) => {
          phase.postTimes.push(performance.now() - t0);
          if (!res.ok) phase.failures++;
          await res.arrayBuffer();
        },
        () => {
          phase.failures++;
        },
      ),
    );
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  await Promise.all(inflight);
  return phase;
}

async function main() {
  const port = (await portIsFree(1999)) ? 1999 : undefined;
  const party = await startPartyKitDev({ secret: SECRET, port });
  cleanups.push(() => party.stop());
  const tokens = await seed();
  cleanups.push(() => {
    for (const f of [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`]) rmSync(f, { force: true });
  });
  const api = await startApi(party);
  console.log(
    `live bench: ${CLIENTS} partysocket clients in room '${SLUG}' on ${party.url}${port ? '' : ' (1999 was busy)'}, API ${api} (worker/node.ts, file libSQL)`,
  );

  const tagOf = (text: string) => /^#(\w+-\d+) /.exec(text)?.[1] ?? null;
  const clients = await openClients(party, tagOf);
  cleanups.push(() => clients.close());

  // Warm-up: the API's first requests pay for JIT; not measured.
  const warmTokens = tokens.slice(-WARMUP_AUTHORS);
  for (let i = 0; i < WARMUP; i++) {
    const res = await fetch(`${api}/api/product/comment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${warmTokens[i % WARMUP_AUTHORS]}` },
      body: JSON.stringify({ titlefilm: SLUG, contentcomment: `#warm-${i} khởi động` }),
    });
    await res.arrayBuffer();
  }

  let next = 0;
  const authorTokens = tokens.slice(0, -WARMUP_AUTHORS);
  const ctx = { api, party, nextToken: () => authorTokens[next++ % authorTokens.length]! };
  console.log(
    `  ${COMMENTS} comments per run; latency = POST sent → comment event parsed at each client; lost = (client, comment) pairs never received\n`,
  );
  let verdict = true;
  for (const [label, intervalMs] of [
    ['steady', STEADY_INTERVAL_MS],
    ['burst', BURST_INTERVAL_MS],
  ] as const) {
    const ours = await sendPhase('api', `${label}api`, intervalMs, ctx);
    await waitForDeliveries(clients, [...ours.sentAt.keys()], 10_000);
    const floor = await sendPhase('room', `${label}floor`, intervalMs, ctx);
    await waitForDeliveries(clients, [...floor.sentAt.keys()], 10_000);
    ours.postTimes.sort((a, b) => a - b);
    console.log(`  ${label}: one comment every ${intervalMs} ms (${(1000 / intervalMs).toFixed(0)}/s)`);
    console.log(
      `    POST /api/product/comment    p50 ${ms(percentile(ours.postTimes, 50)).padStart(9)}   p99 ${ms(percentile(ours.postTimes, 99)).padStart(9)}   non-201 ${ours.failures}`,
    );
    const a = summarise('POST → every client (API)', clients, ours.sentAt);
    const f = summarise('push → every client (floor)', clients, floor.sentAt);
    console.log(`    ratio API/floor: p50 ${(a.p50 / f.p50).toFixed(2)}x, p99 ${(a.p99 / f.p99).toFixed(2)}x\n`);
    if (label === 'steady') verdict = a.p99 < 100 && a.lost === 0 && ours.failures === 0;
  }
  console.log(
    `  machine load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} cores (clients, API and room share them)`,
  );
  console.log(`  aim (steady): p99 under 100 ms, none lost → ${verdict ? 'met' : 'NOT met'}`);
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
