// `npm run bench -- premiere room`: one film's comment room on premiere night (issue 38 §3, §7). partykit dev
// (party/comments.ts, one workerd on one core), BENCH_ROOM_SOCKETS (2,000) plain `ws` clients in one room (a page's
// parse is JSON.parse of each frame; 20 of them are members with a member token), BENCH_ROOM_RATE (20) comments a
// second pushed straight to the room with the shared secret (the API's own cost is the posting bench's) for
// BENCH_SECONDS (60); every 10th comment is a member's own. Per (socket, comment): post → receipt, or counted in a
// batch's `skipped` (the per-socket cap), or lost. Frames per socket per second, workerd's CPU.
// Floor, same run, same clients: a plain `ws` broadcast server in its own Node process (bench/premiere/
// broadcast-floor.ts) sending one frame per 250 ms window with every comment to every socket.
// Then the reconnect variant: the room is told to restart ({type:'reconnect'}); each client waits the `afterMs` it
// is told, reconnects, and the spread of the returns is measured (the old client came back after exactly 3 s).
// BENCH_ROOM_REF=main runs the same against the rooms' code of that git ref (extracted with git archive under
// data/), for a before/after: a room of that age sends one `comment` frame per comment and knows no restart notice.
// Loopback only; bounded in time (hard stop); stops what it started.
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import WebSocket from 'ws';
import { signCommentToken } from '../../party/comment-token';
import { type PartyKitDev, startPartyKitDev, stopChild } from '../../party/dev-server';
import type { RoomPush } from '../../party/messages';
import { PARTY_SECRET_HEADER } from '../../worker/schemas/values';

const SOCKETS = Number(process.env.BENCH_ROOM_SOCKETS ?? 2000);
const RATE = Number(process.env.BENCH_ROOM_RATE ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const MEMBERS = Math.min(20, SOCKETS);
export const SLUG = 'phim-cong-chieu';
/** The room's shared secret for this run (the catch-up bench gives the same one to its API host). */
export const SECRET = `bench-room-${crypto.randomUUID()}`;
const ROOT = resolve(import.meta.dirname, '../..');
const HARD_STOP_MS = (3 * SECONDS + 240) * 1000;
const REF = process.env.BENCH_ROOM_REF;

export interface Client {
  ws: WebSocket;
  /** Which of the run's clients (its URL, its member token): the order they were opened in, not the order of `open`. */
  index: number;
  userId?: number;
  /** comment id → receipt time (performance.now()). */
  got: Map<number, number>;
  skipped: number;
  frames: number;
  /** Frames in each second of the phase. */
  perSecond: Map<number, number>;
  reconnect?: { afterMs: number; noticeAt: number };
  onNotice?: () => void;
  returnedAt?: number;
  attemptAt?: number;
}

export const q = (sorted: Float64Array | number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! : Number.NaN;
export const f0 = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : '–');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU seconds used so far by every process of a process group (partykit dev leads its own; workerd is in it). */
export function groupCpuSeconds(pgrp: number): { all: number; workerd: number } {
  const tick = 100; // USER_HZ on Linux
  let all = 0;
  let workerd = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      if (Number(fields[2]) !== pgrp) continue;
      const cpu = (Number(fields[11]) + Number(fields[12])) / tick;
      all += cpu;
      if (comm.includes('workerd')) workerd += cpu;
    } catch {
      // the process ended meanwhile
    }
  }
  return { all, workerd };
}

export function onFrame(c: Client, data: WebSocket.RawData, phaseStart: () => number): void {
  const at = performance.now();
  c.frames++;
  const second = Math.floor((at - phaseStart()) / 1000);
  c.perSecond.set(second, (c.perSecond.get(second) ?? 0) + 1);
  const event = JSON.parse(String(data)) as {
    type: string;
    events?: { type: string; comment?: { id: number } }[];
    skipped?: number;
    afterMs?: number;
  };
  if (event.type === 'comment') {
    // A room before batches: one frame per comment.
    const id = (event as unknown as { comment: { id: number } }).comment.id;
    if (!c.got.has(id)) c.got.set(id, at);
  } else if (event.type === 'batch') {
    for (const e of event.events!) if (e.type === 'comment' && !c.got.has(e.comment!.id)) c.got.set(e.comment!.id, at);
    c.skipped += event.skipped!;
  } else if (event.type === 'reconnect') {
    // As the page does: leave now, come back after the time the room gave.
    c.reconnect = { afterMs: event.afterMs!, noticeAt: at };
    c.ws.terminate();
    c.onNotice?.();
  }
}

/** Opens `count` clients 50 at a time; `onOpen` (the catch-up bench's first catch-up) runs as each opens. */
export async function openClients(
  url: (i: number) => Promise<string>,
  phaseStart: () => number,
  options: { count?: number; onOpen?: (c: Client) => Promise<void> } = {},
): Promise<Client[]> {
  const count = options.count ?? SOCKETS;
  const clients: Client[] = [];
  for (let i = 0; i < count; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, async (_, k) => {
        const index = i + k;
        const ws = new WebSocket(await url(index), { perMessageDeflate: false });
        const c: Client = {
          ws,
          index,
          userId: index < MEMBERS ? index + 1 : undefined,
          got: new Map(),
          skipped: 0,
          frames: 0,
          perSecond: new Map(),
        };
        ws.on('message', (data) => onFrame(c, data, phaseStart));
        await new Promise<void>((done, fail) => {
          ws.once('open', () => done());
          ws.once('error', fail);
        });
        await options.onOpen?.(c);
        clients.push(c);
      }),
    );
  }
  return clients;
}

interface PhaseResult {
  posted: number;
  failures: number;
  latencies: Float64Array;
  received: number;
  skipped: number;
  lost: number;
  ownMissing: number;
  framesPerSocketSecond: { mean: number; max: number };
  wallSeconds: number;
}

/** RATE comments a second for SECONDS, each pushed as the API pushes it; then a 3 s drain. */
async function phase(clients: Client[], post: (body: RoomPush) => Promise<Response>, start: { t: number }): Promise<PhaseResult> {
  for (const c of clients) {
    c.got.clear();
    c.skipped = 0;
    c.frames = 0;
    c.perSecond.clear();
  }
  const total = RATE * SECONDS;
  const sentAt = new Map<number, number>();
  const author = new Map<number, number>();
  let failures = 0;
  const inflight: Promise<void>[] = [];
  start.t = performance.now();
  for (let i = 0; i < total; i++) {
    const due = start.t + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const id = 1_000_000 + i;
    // Every 10th comment is a member's own: that member's socket must get it whatever its cap.
    const userId = i % 10 === 0 ? ((i / 10) % MEMBERS) + 1 : 10_000 + i;
    author.set(id, userId);
    sentAt.set(id, performance.now());
    inflight.push(
      post({
        type: 'comment',
        comment: {
          id,
          parent_id: null,
          comment: `Bình luận số ${i + 1} trong đêm công chiếu, hay quá!`,
          createdAt: Date.now(),
          users: { username: `Khán giả ${userId}` },
          user_id: userId,
        },
      }).then(
        async (res) => {
          if (!res.ok) failures++;
          await res.arrayBuffer();
        },
        () => {
          failures++;
        },
      ),
    );
  }
  await Promise.all(inflight);
  await sleep(3000);
  const wallSeconds = (performance.now() - start.t) / 1000;
  let n = 0;
  for (const c of clients) n += c.got.size;
  const latencies = new Float64Array(n);
  let k = 0;
  let received = 0;
  let skipped = 0;
  let ownMissing = 0;
  let maxPerSecond = 0;
  let frames = 0;
  for (const c of clients) {
    for (const [id, at] of c.got) latencies[k++] = at - sentAt.get(id)!;
    received += c.got.size;
    skipped += c.skipped;
    frames += c.frames;
    for (const v of c.perSecond.values()) maxPerSecond = Math.max(maxPerSecond, v);
    if (c.userId !== undefined) for (const [id, who] of author) if (who === c.userId && !c.got.has(id)) ownMissing++;
  }
  latencies.sort();
  return {
    posted: total,
    failures,
    latencies,
    received,
    skipped,
    lost: clients.length * total - received - skipped,
    ownMissing,
    framesPerSocketSecond: { mean: frames / clients.length / (SECONDS + 3), max: maxPerSecond },
    wallSeconds,
  };
}

function report(name: string, r: PhaseResult, cpu?: string): void {
  console.log(
    `   ${name.padEnd(26)} post→receipt p50 ${f0(q(r.latencies, 0.5))} ms, p95 ${f0(q(r.latencies, 0.95))} ms, p99 ${f0(q(r.latencies, 0.99))} ms, max ${f0(r.latencies.at(-1) ?? Number.NaN)} ms`,
  );
  console.log(
    `   ${''.padEnd(26)} received ${r.received}, skipped (counted) ${r.skipped}, lost ${r.lost}, members' own missing ${r.ownMissing}, push failures ${r.failures}; frames per socket per second mean ${r.framesPerSocketSecond.mean.toFixed(2)}, max ${r.framesPerSocketSecond.max}${cpu ? `; ${cpu}` : ''}`,
  );
}

async function startFloor(): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(resolve(ROOT, 'node_modules/.bin/tsx'), [resolve(ROOT, 'bench/premiere/broadcast-floor.ts')], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((done, fail) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /PORT (\d+)/.exec(out);
      if (m) done(Number(m[1]));
    });
    child.once('exit', () => fail(new Error('floor server exited')));
  });
  return { port, child };
}

/** What the catch-up bench (bench/premiere/catchup.ts) adds to the reconnect variant. */
export interface ReconnectHooks {
  /** Runs once the room has told its sockets (their downtime): e.g. comments posted through the API meanwhile. */
  duringDowntime?: () => Promise<void>;
  /** Runs as each socket opens again (the page's catch-up); the client counts as back once it settles. */
  onReturn?: (c: Client, i: number) => Promise<void>;
  /** When the client comes back, given the room's afterMs (default: then); the old page's fixed 3 s for a before. */
  comeBackAfter?: (afterMs: number) => number;
}

export interface ReconnectResult {
  /** When the reconnect push was sent (performance.now()). */
  t0: number;
  told: number;
  back: number;
  failed: number;
}

/** The reconnect variant: the room is told to restart; clients come back after the afterMs they were told. */
export async function reconnectVariant(
  party: PartyKitDev,
  clients: Client[],
  roomUrl: (i: number) => Promise<string>,
  hooks: ReconnectHooks = {},
): Promise<ReconnectResult> {
  const t0 = performance.now();
  let failed = 0;
  const returned = new Promise<void>((allBack) => {
    let back = 0;
    for (const c of clients) {
      const i = c.index;
      c.onNotice = () => {
        c.onNotice = undefined;
        setTimeout(async () => {
          c.attemptAt = performance.now();
          let url: string;
          try {
            url = await roomUrl(i);
          } catch {
            if (back + ++failed === clients.length) allBack();
            return;
          }
          const ws = new WebSocket(url, { perMessageDeflate: false });
          ws.once('open', () => {
            c.returnedAt = performance.now();
            c.ws = ws;
            void (hooks.onReturn?.(c, i) ?? Promise.resolve())
              .catch(() => undefined)
              .finally(() => {
                if (++back + failed === clients.length) allBack();
              });
          });
          ws.once('error', () => {
            if (back + ++failed === clients.length) allBack();
          });
        }, hooks.comeBackAfter?.(c.reconnect!.afterMs) ?? c.reconnect!.afterMs);
      };
    }
  });
  const res = await fetch(`${party.url}/parties/comments/${SLUG}`, {
    method: 'POST',
    headers: { [PARTY_SECRET_HEADER]: SECRET },
    body: JSON.stringify({ type: 'reconnect' } satisfies RoomPush),
  });
  const told = ((await res.json()) as { delivered: number }).delivered;
  await hooks.duringDowntime?.();
  await Promise.race([returned, sleep(70_000)]);
  const back = clients.filter((c) => c.returnedAt !== undefined);
  const after = back.map((c) => c.returnedAt! - t0).sort((a, b) => a - b);
  const connect = back.map((c) => c.returnedAt! - c.attemptAt!).sort((a, b) => a - b);
  const perSecond = new Map<number, number>();
  for (const ms of after) perSecond.set(Math.floor(ms / 1000), (perSecond.get(Math.floor(ms / 1000)) ?? 0) + 1);
  console.log(
    `   reconnect: ${told} sockets told, ${back.length} back, ${failed} failed; returns after the notice: first ${f0(after[0] ?? Number.NaN)} ms, p50 ${f0(q(after, 0.5))} ms, p95 ${f0(q(after, 0.95))} ms, last ${f0(after.at(-1) ?? Number.NaN)} ms; busiest second ${Math.max(0, ...perSecond.values())} returns (${(back.length / Math.max(1, perSecond.size)).toFixed(0)}/s average over ${perSecond.size} s); connect p95 ${f0(q(connect, 0.95))} ms`,
  );
  if (!hooks.onReturn)
    console.log(
      '   (before: every page came back after exactly 3 s, 3.00–3.11 s, issue 38; catch-up reads are the API side: `npm run bench -- premiere catchup`)',
    );
  return { t0, told, back: back.length, failed };
}

export async function run(): Promise<void> {
  const cleanups: (() => Promise<void> | void)[] = [];
  const hardStop = setTimeout(() => {
    console.error(`room bench: hard stop after ${HARD_STOP_MS / 1000} s`);
    void Promise.all(cleanups.map((fn) => Promise.resolve(fn()).catch(() => undefined))).finally(() => process.exit(1));
  }, HARD_STOP_MS);
  hardStop.unref();
  try {
    let codeRoot: string | undefined;
    if (REF) {
      codeRoot = resolve(ROOT, `data/bench-room-${REF.replace(/[^\w.-]/g, '_')}`);
      rmSync(codeRoot, { recursive: true, force: true });
      mkdirSync(codeRoot, { recursive: true });
      execSync(`git archive ${REF} party worker/lib worker/schemas | tar -x -C ${codeRoot}`, { cwd: ROOT });
      cleanups.push(() => rmSync(codeRoot!, { recursive: true, force: true }));
      console.log(`   the rooms' code of ${REF} (${execSync(`git rev-parse --short ${REF}`, { cwd: ROOT }).toString().trim()})`);
    }
    const party = await startPartyKitDev({ secret: SECRET, log: process.env.BENCH_ROOM_LOG === '1', codeRoot });
    cleanups.push(() => party.stop());
    const start = { t: performance.now() };
    const roomUrl = async (i: number) => {
      const base = `ws://${party.host}/parties/comments/${SLUG}`;
      if (i >= MEMBERS) return base;
      const { token } = await signCommentToken(SECRET, { userId: i + 1, room: SLUG }, Date.now());
      return `${base}?token=${encodeURIComponent(token)}`;
    };
    const clients = await openClients(roomUrl, () => start.t);
    cleanups.push(() => {
      for (const c of clients) c.ws.terminate();
    });
    console.log(
      `   ${clients.length} ws clients in room '${SLUG}' of partykit dev (${MEMBERS} members), ${RATE} comments/s for ${SECONDS} s pushed straight to the room with the secret; load ${loadavg()[0]!.toFixed(2)}`,
    );
    await sleep(6000); // the presence frames of the arrival settle
    const cpu0 = groupCpuSeconds(party.pid);
    const ours = await phase(
      clients,
      (body) =>
        fetch(`${party.url}/parties/comments/${SLUG}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [PARTY_SECRET_HEADER]: SECRET },
          body: JSON.stringify(body),
        }),
      start,
    );
    const cpu1 = groupCpuSeconds(party.pid);
    const workerdPct = (100 * (cpu1.workerd - cpu0.workerd)) / ours.wallSeconds;
    const groupPct = (100 * (cpu1.all - cpu0.all)) / ours.wallSeconds;
    report(
      'room (partykit dev)',
      ours,
      `workerd CPU ${workerdPct.toFixed(0)} % of one core (the whole partykit dev process group ${groupPct.toFixed(0)} %)`,
    );
    const loadRoom = loadavg()[0]!;

    // The reconnect variant, on the same sockets (a room before it knows no restart notice).
    if (!REF) await reconnectVariant(party, clients, roomUrl);

    // The floor: the same clients' count and the same pushes, to a plain broadcast loop.
    for (const c of clients) c.ws.terminate();
    const floor = await startFloor();
    cleanups.push(() => stopChild(floor.child));
    const floorClients = await openClients(
      async () => `ws://127.0.0.1:${floor.port}`,
      () => start.t,
    );
    cleanups.push(() => {
      for (const c of floorClients) c.ws.terminate();
    });
    const fcpu0 = groupCpuSeconds(floor.child.pid!).all;
    const base = await phase(
      floorClients,
      (body) => fetch(`http://127.0.0.1:${floor.port}/`, { method: 'POST', body: JSON.stringify(body) }),
      start,
    );
    const floorPct = (100 * (groupCpuSeconds(floor.child.pid!).all - fcpu0)) / base.wallSeconds;
    report('floor (ws broadcast loop)', base, `floor process CPU ${floorPct.toFixed(0)} % of one core`);
    const p95 = q(ours.latencies, 0.95);
    const p99 = q(ours.latencies, 0.99);
    const met = ours.lost === 0 && ours.ownMissing === 0 && p95 <= 500 && p99 <= 1000 && ours.framesPerSocketSecond.max <= 5;
    console.log(
      `   goal (0 lost, own kept, p95 ≤ 500 ms, p99 ≤ 1 s, ≤ 5 frames/s per socket): ${met ? 'met' : 'NOT met'}; load average during the room phase ${loadRoom.toFixed(2)}, now ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    clearTimeout(hardStop);
    for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => undefined);
  }
}
