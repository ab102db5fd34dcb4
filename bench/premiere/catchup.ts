// `npm run bench -- premiere catchup`: a room restart's catch-up, API side (issue 38 §3: "2,000 sockets reconnecting:
// catch-up p95 ≤ 500 ms, 0 API errors, ≤ 2 API requests per reconnect"). partykit dev (party/comments.ts) and the
// real Node API host (worker/node.ts) on a temporary file database: one film with BENCH_CATCHUP_SEED (200) comments,
// BENCH_ROOM_SOCKETS (2,000) plain `ws` clients in its room, a tenth of them (200) signed-in members with sessions,
// the rest visitors. Each client does what the page does (web/src/features/comments/hooks/use-live-comments.ts) on
// every socket open: a member first asks GET …/comments/token (Bearer) and connects with it; every client then asks
// GET …/comments?since=<its newest id> (a member with its Bearer). The room is told to restart ({type:'reconnect'},
// bench/premiere/room.ts reconnectVariant); while its sockets are away BENCH_CATCHUP_POSTS (20) other members post
// through the API. Per reconnect: catch-up time (socket open → answer parsed; and from the moment the client's
// timer fired, which for a member includes its token read), API requests, API errors (non-2xx or network), and
// which comments posted during the downtime are missing from the catch-up. Floors, same run, same host: GET
// /api/health every 50 ms beside the crowd; every API request of the reconnect replayed at the same moments as GET
// /api/health once the sockets are gone; each read alone. The API's, the room's and this process's CPU, and how long
// the API's main thread waited for a core (a shared machine). Load average at start and end.
// BENCH_CATCHUP_FIXED=3000 is the before: every client back 3 s after the notice, as the old page came back.
// Loopback only; bounded in time (hard stop); stops only what it started (partykit dev and the API, by pid).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startPartyKitDev } from '../../party/dev-server';
import { startApiHost } from './api-host';
import { loadConfig } from '../../worker/config';
import { openMigratedDatabase } from '../../worker/db/node-client';
import { comments, films, users } from '../../worker/db/schema';
import { startSession } from '../../worker/services/auth/accounts';
import { hashPassword } from '../../worker/services/auth/password';
import { type Client, f0, groupCpuSeconds, openClients, q, reconnectVariant, SECRET, SLUG, sleep } from './room';

const SOCKETS = Number(process.env.BENCH_ROOM_SOCKETS ?? 2000);
const MEMBERS = Math.min(SOCKETS, Math.round(SOCKETS / 10));
const SEED = Number(process.env.BENCH_CATCHUP_SEED ?? 200);
const POSTS = Number(process.env.BENCH_CATCHUP_POSTS ?? 20);
const JWT_SECRET = `bench-catchup-jwt-${crypto.randomUUID()}`;
const HARD_STOP_MS = 300_000;
/**
 * BENCH_CATCHUP_FIXED=3000: every client comes back 3 s after the notice whatever the room said, as the page did before
 * issue 38 (partysocket's fixed first retry): the before of the same run.
 */
const FIXED_MS = process.env.BENCH_CATCHUP_FIXED ? Number(process.env.BENCH_CATCHUP_FIXED) : undefined;

/**
 * Seconds the main threads of a process group's processes have run, and have waited runnable for a CPU (Linux
 * schedstat): the second against the first says whether a slow host was busy or was kept off the cores by the
 * machine's other work.
 */
function groupMainThreads(pgrp: number): { ran: number; waited: number } {
  let ran = 0;
  let waited = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== pgrp) continue;
      const [run, wait] = readFileSync(`/proc/${entry}/task/${entry}/schedstat`, 'utf8').split(' ').map(Number);
      ran += run! / 1e9;
      waited += wait! / 1e9;
    } catch {
      // the process ended meanwhile
    }
  }
  return { ran, waited };
}

/** Reads an answer to its end; whether it was 2xx. */
const drained = async (r: Response) => {
  await r.arrayBuffer();
  return r.ok;
};

/** One API request of a client: when it started (performance.now()), how long it took, and its outcome. */
interface Call {
  at: number;
  ms: number;
  ok: boolean;
}

/** What the bench knows of each client (by its index), as the page would. */
interface Page {
  /** The member's session (Bearer) for the API; none for a visitor. */
  session?: string;
  /** The newest comment id it holds (its next ?since=). */
  newest: number;
  calls: Call[];
  /** The last catch-up: comment ids it brought and when it was parsed. */
  caughtUp?: { ids: Set<number>; at: number };
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-catchup-'));
  const dbFile = join(dir, 'catchup.db');
  const cleanups: (() => Promise<void> | void)[] = [];
  const hardStop = setTimeout(() => {
    console.error(`catch-up bench: hard stop after ${HARD_STOP_MS / 1000} s`);
    void Promise.all(cleanups.map((fn) => Promise.resolve(fn()).catch(() => undefined))).finally(() => process.exit(1));
  }, HARD_STOP_MS);
  hardStop.unref();
  const loadStart = loadavg();
  try {
    // The film, its members (MEMBERS who watch, POSTS who post while the room is away) and SEED comments.
    const database = await openMigratedDatabase(`file:${dbFile}`);
    const config = loadConfig({ APP_ENV: 'test', JWT_SECRET });
    const [film] = await database.db.insert(films).values({ slug: SLUG, title: 'Phim công chiếu', categoryId: 24 }).returning();
    const passwordHash = await hashPassword('bench-password');
    const rows = await database.db
      .insert(users)
      .values(
        Array.from({ length: MEMBERS + POSTS }, (_, i) => ({
          email: `khan-gia-${i}@bench.local`,
          username: `Khán giả ${i + 1}`,
          passwordHash,
        })),
      )
      .returning();
    const deps = { db: database.db, config, now: Date.now, fetch };
    const sessions: string[] = [];
    for (const user of rows) sessions.push((await startSession(deps, user)).token);
    // In inserts of 1,000 rows: SQLite binds at most 32,766 values per statement.
    for (let from = 0; from < SEED; from += 1000)
      await database.db.insert(comments).values(
        Array.from({ length: Math.min(1000, SEED - from) }, (_, j) => ({
          filmId: film!.id,
          userId: rows[(from + j) % rows.length]!.id,
          body: `Bình luận trước giờ chiếu số ${from + j + 1}`,
        })),
      );
    const seeded = (await database.client.execute('select max(id) as id from comments')).rows[0]!.id as number;
    database.client.close();
    const posterSessions = sessions.splice(MEMBERS);

    const party = await startPartyKitDev({ secret: SECRET });
    cleanups.push(() => party.stop());
    const host = await startApiHost({ dbFile, jwtSecret: JWT_SECRET, partyUrl: party.url, partySecret: SECRET });
    cleanups.push(() => host.stop());
    const api = host.url;
    const child = host.child;

    const pages: Page[] = Array.from({ length: SOCKETS }, (_, i) => ({
      session: i < MEMBERS ? sessions[i] : undefined,
      // What the film page's detail brought it: the newest comment at load.
      newest: seeded,
      calls: [],
    }));
    /** One API read as the page makes it, counted on the page; a non-2xx or a network error is an error (and throws). */
    const read = async <T>(page: Page, path: string, bearer?: string): Promise<T> => {
      const at = performance.now();
      const call: Call = { at, ms: 0, ok: false };
      page.calls.push(call);
      try {
        const res = await fetch(`${api}${path}`, { headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });
        const body = res.ok ? ((await res.json()) as T) : await res.arrayBuffer().then(() => undefined);
        call.ok = res.ok;
        if (!res.ok) throw new Error(`${path}: ${res.status}`);
        return body as T;
      } finally {
        call.ms = performance.now() - at;
      }
    };
    // The page's connect: a member asks for its member token first (partysocket's `query`), a visitor does not.
    const roomUrl = async (i: number) => {
      const page = pages[i]!;
      const base = `ws://${party.host}/parties/comments/${SLUG}`;
      if (!page.session) return base;
      const { token } = await read<{ token: string }>(page, `/api/product/${SLUG}/comments/token`, page.session);
      return `${base}?token=${encodeURIComponent(token)}`;
    };
    // The page's 'open': what it missed since its newest comment.
    const catchUp = async (c: Client) => {
      const page = pages[c.index]!;
      const body = await read<{ data: { id: number }[] }>(page, `/api/product/${SLUG}/comments?since=${page.newest}`, page.session);
      const ids = new Set(body.data.map((d) => d.id));
      for (const id of ids) page.newest = Math.max(page.newest, id);
      page.caughtUp = { ids, at: performance.now() };
    };
    const start = { t: performance.now() };
    const clients = await openClients(roomUrl, () => start.t, { count: SOCKETS, onOpen: (c) => catchUp(c).catch(() => undefined) });
    cleanups.push(() => {
      for (const c of clients) c.ws.terminate();
    });
    const firstErrors = pages.reduce((n, p) => n + p.calls.filter((x) => !x.ok).length, 0);
    console.log(
      `   ${clients.length} ws clients in room '${SLUG}' (${MEMBERS} signed-in members, ${SOCKETS - MEMBERS} visitors), each joined as the page joins (${firstErrors} API errors); Node API on a file database, ${SEED} comments; load ${loadStart.map((n) => n.toFixed(2)).join(' ')}`,
    );
    await sleep(3000); // the arrival's presence frames settle
    for (const p of pages) {
      p.calls = [];
      p.caughtUp = undefined;
    }

    // The restart: the room tells its sockets when to come back; meanwhile POSTS members post through the API.
    const posted: number[] = [];
    let postFailures = 0;
    let postedBy = 0;
    // The floor during the reconnect itself: GET /api/health every 50 ms from this same process, beside the crowd.
    const probe: { ms: number; ok: boolean }[] = [];
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const t = performance.now();
        const ok = await fetch(`${api}/api/health`).then(drained, () => false);
        probe.push({ ms: performance.now() - t, ok });
        await sleep(Math.max(0, 50 - (performance.now() - t)));
      }
    })();
    const apiCpu0 = groupCpuSeconds(child.pid!).all;
    const apiSched0 = groupMainThreads(child.pid!);
    const roomCpu0 = groupCpuSeconds(party.pid).all;
    const phaseStart = performance.now();
    // This process plays the 2,000 pages: how busy it was says how much of a time is the client's own.
    const ownCpu0 = process.cpuUsage();
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const result = await reconnectVariant(party, clients, roomUrl, {
      duringDowntime: async () => {
        await Promise.all(
          posterSessions.map(async (session, k) => {
            const res = await fetch(`${api}/api/product/comment`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
              body: JSON.stringify({
                titlefilm: SLUG,
                contentcomment: `Phòng vừa khởi động lại, khán giả ${k + 1} vẫn ở đây`,
                client_id: crypto.randomUUID(),
              }),
            }).catch(() => null);
            const body = res?.status === 201 ? ((await res.json()) as { id: number; state?: string }) : undefined;
            if (body && body.state === undefined) posted.push(body.id);
            else postFailures++;
          }),
        );
        postedBy = performance.now();
      },
      onReturn: catchUp,
      comeBackAfter: FIXED_MS === undefined ? undefined : () => FIXED_MS,
    });
    const phaseSeconds = (performance.now() - phaseStart) / 1000;
    const apiCpu = (100 * (groupCpuSeconds(child.pid!).all - apiCpu0)) / phaseSeconds;
    const apiSched1 = groupMainThreads(child.pid!);
    const apiRan = apiSched1.ran - apiSched0.ran;
    const apiWaited = apiSched1.waited - apiSched0.waited;
    const roomCpu = (100 * (groupCpuSeconds(party.pid).all - roomCpu0)) / phaseSeconds;
    const ownCpuUsed = process.cpuUsage(ownCpu0);
    const ownCpu = (ownCpuUsed.user + ownCpuUsed.system) / 1e4 / phaseSeconds;
    lag.disable();
    probing = false;
    await prober;
    const probeMs = probe.map((x) => x.ms).sort((a, b) => a - b);
    await sleep(500);
    const loadEnd = loadavg();

    const back = clients.filter((c) => c.returnedAt !== undefined && pages[c.index]!.caughtUp);
    const firstAttempt = Math.min(...clients.map((c) => c.attemptAt ?? Number.POSITIVE_INFINITY));
    const fromOpen = back.map((c) => pages[c.index]!.caughtUp!.at - c.returnedAt!).sort((a, b) => a - b);
    const fromDecision = back.map((c) => pages[c.index]!.caughtUp!.at - c.attemptAt!).sort((a, b) => a - b);
    const perReconnect = (members: boolean) => {
      const counts = clients.filter((c) => c.index < MEMBERS === members).map((c) => pages[c.index]!.calls.length);
      return { mean: counts.reduce((a, b) => a + b, 0) / Math.max(1, counts.length), max: Math.max(0, ...counts) };
    };
    const m = perReconnect(true);
    const v = perReconnect(false);
    const calls = pages.flatMap((p) => p.calls);
    const errors = calls.filter((x) => !x.ok).length;
    let missing = 0;
    for (const c of clients) {
      const got = pages[c.index]!.caughtUp?.ids;
      for (const id of posted) if (!got?.has(id)) missing++;
    }
    const sinceMs = pages
      .flatMap((p, i) => p.calls.slice(i < MEMBERS ? 1 : 0))
      .map((x) => x.ms)
      .sort((a, b) => a - b);

    // The floor: every request of the reconnect again, at the same moments, as GET /api/health of the same host.
    const origin = Math.min(...calls.map((x) => x.at));
    const floorStart = performance.now();
    const floor = await Promise.all(
      calls.map(async (x) => {
        const wait = floorStart + (x.at - origin) - performance.now();
        if (wait > 0) await sleep(wait);
        const t = performance.now();
        const ok = await fetch(`${api}/api/health`).then(drained, () => false);
        return { ms: performance.now() - t, ok };
      }),
    );
    const floorMs = floor.map((x) => x.ms).sort((a, b) => a - b);
    const floorErrors = floor.filter((x) => !x.ok).length;
    // And one at a time, nothing else running: the catch-up read's own service time beside the health check's.
    const alone = async (path: string) => {
      const times: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        await (await fetch(`${api}${path}`)).arrayBuffer();
        times.push(performance.now() - t);
      }
      return times.sort((a, b) => a - b);
    };
    const aloneSince = await alone(`/api/product/${SLUG}/comments?since=${seeded}`);
    const aloneHealth = await alone('/api/health');

    if (FIXED_MS !== undefined)
      console.log(`   (BENCH_CATCHUP_FIXED: every client came back ${FIXED_MS} ms after the notice, as the page did before issue 38)`);
    console.log(
      `   downtime: ${posted.length} comments posted through the API while the sockets were away (${postFailures} not accepted or held), the last ${f0(postedBy - result.t0)} ms after the notice; first socket back at ${f0(firstAttempt - result.t0)} ms`,
    );
    console.log(
      `   catch-up (socket open → answer parsed): p50 ${f0(q(fromOpen, 0.5))} ms, p95 ${f0(q(fromOpen, 0.95))} ms, max ${f0(fromOpen.at(-1) ?? Number.NaN)} ms over ${back.length} reconnects; from the client's decision to reconnect (members: with the token read): p50 ${f0(q(fromDecision, 0.5))} ms, p95 ${f0(q(fromDecision, 0.95))} ms, max ${f0(fromDecision.at(-1) ?? Number.NaN)} ms`,
    );
    console.log(
      `   API requests per reconnect: members mean ${m.mean.toFixed(2)}, max ${m.max}; visitors mean ${v.mean.toFixed(2)}, max ${v.max} (${calls.length} in all); API errors ${errors}; comments posted during the downtime missing from a catch-up ${missing} (of ${posted.length} × ${clients.length}); catch-up read alone p95 ${f0(q(sinceMs, 0.95))} ms`,
    );
    console.log(
      `   floor after the reconnect, same host, its ${floor.length} requests replayed at the same moments as GET /api/health (no sockets): p50 ${f0(q(floorMs, 0.5))} ms, p95 ${f0(q(floorMs, 0.95))} ms, max ${f0(floorMs.at(-1) ?? Number.NaN)} ms, errors ${floorErrors}`,
    );
    console.log(
      `   floor during the reconnect, beside the crowd: GET /api/health every 50 ms, ${probe.length} probes, p50 ${f0(q(probeMs, 0.5))} ms, p95 ${f0(q(probeMs, 0.95))} ms, max ${f0(probeMs.at(-1) ?? Number.NaN)} ms, errors ${probe.filter((x) => !x.ok).length}; CPU over the ${phaseSeconds.toFixed(0)} s of the reconnect: the API host ${apiCpu.toFixed(0)} % of one core (its main thread ran ${apiRan.toFixed(1)} s and waited runnable for a core ${apiWaited.toFixed(1)} s), partykit dev (workerd) ${roomCpu.toFixed(0)} %, this process (the ${SOCKETS} pages) ${ownCpu.toFixed(0)} % with event-loop delay p99 ${f0(lag.percentile(99) / 1e6)} ms`,
    );
    console.log(
      `   one at a time, nothing else running: catch-up read median ${q(aloneSince, 0.5).toFixed(1)} ms, GET /api/health median ${q(aloneHealth, 0.5).toFixed(1)} ms`,
    );
    const p95 = q(fromOpen, 0.95);
    const met = p95 <= 500 && errors === 0 && m.max <= 2 && v.max <= 1 && missing === 0 && back.length === clients.length;
    console.log(
      `   goal (catch-up p95 ≤ 500 ms, 0 API errors, ≤ 2 API requests per reconnect, 0 missing, every socket back): ${met ? 'met' : 'NOT met'}; load average at start ${loadStart.map((n) => n.toFixed(2)).join(' ')}, at the end of the reconnect ${loadEnd.map((n) => n.toFixed(2)).join(' ')}`,
    );
  } finally {
    clearTimeout(hardStop);
    for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}
