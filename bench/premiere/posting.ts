// `npm run bench -- premiere posting`: posting at the crowd's pace (issue 38 §4). Starts partykit dev and the Node
// API (worker/node.ts on a temporary file database), opens BENCH_LISTENERS sockets (default 1,000) over a few films'
// rooms, and has BENCH_POSTERS members (default 500) post across those films for BENCH_SECONDS (default 60), half of
// what is offered on one hot film (so its slow mode switches on). Prints accepted/s, p95 POST, 429s and 503s, when
// slow mode went on and off (the room's `slow-mode` events), and the database round trips of one comment (counted on
// an in-process libSQL client), beside a floor: GET /api/health of the same host. Loopback only; bounded; stops
// everything it started.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import PartySocket from 'partysocket';
import WebSocket from 'ws';
import { startPartyKitDev } from '../../party/dev-server';
import { startApiHost } from './api-host';
import { parseRoomEvent } from '../../party/messages';
import { createApp } from '../../worker/app';
import { loadConfig } from '../../worker/config';
import { openMigratedDatabase } from '../../worker/db/node-client';
import { films, users } from '../../worker/db/schema';
import { startSession } from '../../worker/services/auth/accounts';
import { hashPassword } from '../../worker/services/auth/password';

const POSTERS = Number(process.env.BENCH_POSTERS ?? 500);
const LISTENERS = Number(process.env.BENCH_LISTENERS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
/** Offered posts a second over every film; half of them on the hot film. */
/**
 * A host at a premiere has been serving for hours: before the measured run, WARM_MEMBERS other members post on another
 * film for a few seconds (BENCH_WARM=0 measures a host that has just started).
 */
const WARM_MEMBERS = process.env.BENCH_WARM === '0' ? 0 : 50;
const WARM_FILM = 'khoi-dong-may-chu';
const WINDOW_S = Number(process.env.BENCH_WINDOW ?? 10);
const OFFERED = Number(process.env.BENCH_OFFERED ?? 100);
const FILMS = ['cong-chieu-tap-moi', 'phim-le-cuoi-tuan', 'phim-bo-toi-nay'];
const SECRET = `bench-posting-${crypto.randomUUID()}`;
const JWT_SECRET = `bench-posting-jwt-${crypto.randomUUID()}`;

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : Number.NaN;

/** Round trips of one comment: an in-process app over a libSQL client that counts its calls. */
async function roundTripsPerComment(dbFile: string, token: string): Promise<number> {
  const { db, client } = await openMigratedDatabase(`file:${dbFile}`);
  let calls = 0;
  for (const method of ['execute', 'batch', 'transaction'] as const) {
    const original = client[method].bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      calls++;
      return original(...args);
    };
  }
  const app = createApp({ db, config: loadConfig({ APP_ENV: 'test', JWT_SECRET }), now: Date.now, fetch: async () => new Response('{}') });
  const post = (i: number) =>
    app.request('/api/product/comment', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ titlefilm: FILMS[2], contentcomment: `Đếm lượt đi về ${i}`, client_id: crypto.randomUUID() }),
    });
  await post(0); // compiles the word list once
  calls = 0;
  const n = 4;
  for (let i = 1; i <= n; i++) await post(i);
  client.close();
  return calls / n;
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-posting-'));
  const dbFile = join(dir, 'posting.db');
  const cleanups: (() => Promise<void> | void)[] = [];
  const hardStop = setTimeout(() => process.exit(1), (SECONDS + 240) * 1000);
  hardStop.unref();
  try {
    const database = await openMigratedDatabase(`file:${dbFile}`);
    const config = loadConfig({ APP_ENV: 'test', JWT_SECRET });
    await database.db.insert(films).values([...FILMS, WARM_FILM].map((slug) => ({ slug, title: `Phim ${slug}`, categoryId: 24 })));
    const passwordHash = await hashPassword('bench-password');
    const rows = await database.db
      .insert(users)
      .values(
        Array.from({ length: POSTERS + 1 + WARM_MEMBERS }, (_, i) => ({
          email: `thanh-vien-${i}@bench.local`,
          username: `Thành viên ${i + 1}`,
          passwordHash,
        })),
      )
      .returning();
    const tokens: string[] = [];
    for (const user of rows) tokens.push((await startSession({ db: database.db, config, now: Date.now, fetch }, user)).token);
    database.client.close();
    const warmTokens = tokens.splice(POSTERS + 1);
    const trips = await roundTripsPerComment(dbFile, tokens.pop()!);

    const party = await startPartyKitDev({ secret: SECRET });
    cleanups.push(() => party.stop());
    const host = await startApiHost({ dbFile, jwtSecret: JWT_SECRET, partyUrl: party.url, partySecret: SECRET });
    cleanups.push(() => host.stop());
    const api = host.url;

    // Listeners over the films' rooms (half on the hot one); the first of each room notes slow-mode changes.
    const started = performance.now();
    const at = () => ((performance.now() - started) / 1000).toFixed(1);
    const slowLog: string[] = [];
    const sockets: PartySocket[] = [];
    await Promise.all(
      Array.from({ length: LISTENERS }, (_, i) => {
        const room = i % 2 === 0 ? FILMS[0]! : FILMS[1 + (i % 4 === 1 ? 0 : 1)]!;
        return new Promise<void>((done) => {
          const socket = new PartySocket({ host: party.host, party: 'comments', room, WebSocket, maxRetries: 0, id: `listener-${i}` });
          sockets.push(socket);
          if (i < 3)
            socket.addEventListener('message', (e: MessageEvent) => {
              const event = parseRoomEvent(e.data);
              if (event?.type === 'slow-mode')
                slowLog.push(`${room} ${event.seconds > 0 ? `on (${event.seconds} s)` : 'off'} at ${at()} s`);
            });
          socket.addEventListener('open', () => done(), { once: true });
          socket.addEventListener('error', () => done(), { once: true });
        });
      }),
    );
    cleanups.push(() => {
      for (const s of sockets) s.close();
    });
    const open = sockets.filter((s) => s.readyState === 1).length;

    // Floor: the same host's cheapest answer, measured now.
    const floor: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t0 = performance.now();
      await (await fetch(`${api}/api/health`)).arrayBuffer();
      floor.push(performance.now() - t0);
    }
    floor.sort((a, b) => a - b);

    // Warm-up: 4 comments from each warm member on the warm film, ~40/s, not measured.
    await Promise.all(
      warmTokens.map(async (token, m) => {
        for (let n = 0; n < 4; n++) {
          await new Promise((r) => setTimeout(r, Math.random() * 1200));
          await fetch(`${api}/api/product/comment`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ titlefilm: WARM_FILM, contentcomment: `Khởi động ${m}.${n}`, client_id: crypto.randomUUID() }),
          })
            .then((r) => r.arrayBuffer())
            .catch(() => undefined);
        }
      }),
    );

    const t0 = performance.now();
    const end = t0 + SECONDS * 1000;
    const status = new Map<number, number>();
    const accepted = new Map<string, number>();
    const latencies: number[] = [];
    /** Each POST's start (s from t0) and time, for the p95 of each 10 s of the run. */
    const timeline: [number, number][] = [];
    const interval = (POSTERS / OFFERED) * 1000;
    const slowCodes = { slow: 0, rate: 0 };
    await Promise.all(
      tokens.map(async (token, m) => {
        await new Promise((r) => setTimeout(r, Math.random() * interval));
        let n = 0;
        while (performance.now() < end) {
          const film = Math.random() < 0.5 ? FILMS[0]! : FILMS[1 + (Math.random() < 0.5 ? 0 : 1)]!;
          const sent = performance.now();
          const res = await fetch(`${api}/api/product/comment`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({
              titlefilm: film,
              contentcomment: `Thành viên ${m} nói lần ${++n}: tập này hay quá`,
              client_id: crypto.randomUUID(),
            }),
          }).catch(() => null);
          const took = performance.now() - sent;
          const code = res?.status ?? 0;
          status.set(code, (status.get(code) ?? 0) + 1);
          latencies.push(took);
          timeline.push([(sent - t0) / 1000, took]);
          if (code === 201) accepted.set(film, (accepted.get(film) ?? 0) + 1);
          if (code === 429) {
            const body = (await res!.json().catch(() => ({}))) as { error?: { code?: string } };
            if (body.error?.code === 'slow_mode') slowCodes.slow++;
            else slowCodes.rate++;
          } else await res?.arrayBuffer().catch(() => undefined);
          const wait = interval * (0.5 + Math.random()) - took;
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        }
      }),
    );
    const elapsed = (performance.now() - t0) / 1000;
    const windows = new Map<number, number[]>();
    for (const [at, took] of timeline) {
      const w = Math.floor(at / WINDOW_S);
      windows.set(w, [...(windows.get(w) ?? []), took]);
    }
    const byWindow = [...windows]
      .sort(([a], [b]) => a - b)
      .map(
        ([w, xs]) =>
          `${w * WINDOW_S}–${(w + 1) * WINDOW_S} s ${percentile(
            xs.sort((a, b) => a - b),
            95,
          ).toFixed(0)}`,
      )
      .join(', ');
    latencies.sort((a, b) => a - b);
    const total = [...accepted.values()].reduce((a, b) => a + b, 0);
    await new Promise((r) => setTimeout(r, 1500));
    console.log(
      `   ${POSTERS} members posting ${elapsed.toFixed(0)} s across ${FILMS.length} films (offered ~${OFFERED}/s, half on ${FILMS[0]}), ${open}/${LISTENERS} sockets listening`,
    );
    console.log(`   p95 POST per 10 s of the run (ms): ${byWindow}`);
    console.log(`   floor: GET /api/health median ${percentile(floor, 50).toFixed(1)} ms, p95 ${percentile(floor, 95).toFixed(1)} ms`);
    console.log(
      `   accepted ${(total / elapsed).toFixed(1)}/s (goal ≥ 50/s; ${[...accepted].map(([f, n]) => `${f} ${(n / elapsed).toFixed(1)}/s`).join(', ')}), p95 POST ${percentile(latencies, 95).toFixed(0)} ms (goal ≤ 250 ms), p50 ${percentile(latencies, 50).toFixed(0)} ms`,
    );
    console.log(
      `   answers: ${[...status].map(([s, n]) => `${s || 'network error'} ×${n}`).join(', ')}; 429 slow_mode ×${slowCodes.slow}, rate_limited ×${slowCodes.rate}; 503 ×${status.get(503) ?? 0} (goal 0)`,
    );
    console.log(
      `   slow mode: ${slowLog.length ? slowLog.join('; ') : 'never switched'} (times from the sockets' start, posting from ${((t0 - started) / 1000).toFixed(1)} s)`,
    );
    console.log(`   database round trips per comment: ${trips.toFixed(2)} (goal ≤ 2); load average ${loadavg()[0]!.toFixed(2)}`);
  } finally {
    for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
