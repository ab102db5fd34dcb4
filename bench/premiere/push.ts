// `npm run bench -- premiere push`: a new episode for 50,000 followers (BENCH_PUSH_SUBSCRIPTIONS to shorten) on the
// Node host (worker/node.ts in a child process, file database), through the push stand-in on loopback HTTPS
// (tests/helpers/push-service.ts: 50–200 ms per answer, 2 % answer 410, 1 % answer 503 with Retry-After once). The
// host is killed with SIGKILL when half have been notified and started again; a mail is queued every 5 s and must
// leave while the pushes go out. Prints sends/s, duplicates, missing, time, the mails, and the floor: the same
// number of plain POSTs to a stand-in like it from a pool as wide as the host's (no database, no crypto); then the
// CPU of one encrypted message in workerd (push-workerd.ts).
// Goal (issue 38 §5): every live subscription exactly once within 10 minutes, none lost to the kill.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { eq, ne } from 'drizzle-orm';
import { freePort } from '../../party/dev-server';
import { pushClient, startPushServer } from '../../tests/helpers/push-service';
import { startSmtpServer } from '../../tests/helpers/smtp-server';
import { loadConfig } from '../../worker/config';
import { openMigratedDatabase } from '../../worker/db/node-client';
import { episodeReleases, pushChunks, pushSubscriptions, users, watchlist } from '../../worker/db/schema';
import { upsertFilm } from '../../worker/services/films/film-writer';
import { outboxInsert, outboxRow } from '../../worker/services/mail/outbox';
import { workerdCpuPerMessage } from './push-workerd';

const ROOT = resolve(import.meta.dirname, '../..');
const DB_FILE = resolve(ROOT, 'data/bench-push.db');
const SUBSCRIPTIONS = Number(process.env.BENCH_PUSH_SUBSCRIPTIONS ?? 50_000);
const GOAL_MS = 10 * 60_000;
/** The run is given twice the goal, so a missed goal still shows how long it took. */
const CAP_MS = 2 * GOAL_MS;
/** The host's pool: 6 chunks at once × 10 sends each (services/push/pool.ts, chunks.ts). */
const IN_FLIGHT = 60;
const JWT_SECRET = `bench-push-${crypto.randomUUID()}`;
const latencyMs = () => 50 + Math.random() * 150;

const episodes = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    serverName: 'Vietsub #1',
    episode: i + 1,
    name: `Tập ${i + 1}`,
    m3u8Url: `https://cdn.example.test/${i + 1}.m3u8`,
    embedUrl: '',
  }));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startHost(env: Record<string, string>): Promise<ChildProcess> {
  const port = await freePort();
  const host = spawn(process.execPath, ['--import', 'tsx', 'worker/node.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, ...env, PORT: String(port) },
  });
  for (let i = 0; i < 600; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return host;
    await sleep(100);
  }
  host.kill('SIGKILL');
  throw new Error('host did not start');
}

function stop(host: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (host.exitCode !== null || host.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((done) => host.once('exit', () => done()));
  host.kill(signal);
  return exited;
}

/** The floor: `n` plain POSTs of a push-sized body to a stand-in like the host's, IN_FLIGHT at a time. */
async function floor(n: number): Promise<number> {
  const standIn = await startPushServer({ latencyMs });
  const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT, ca: readFileSync(standIn.caFile) });
  const body = Buffer.alloc(300, 1);
  const url = new URL(standIn.origin);
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < n) {
      const i = next++;
      await new Promise<void>((done, fail) => {
        const req = request(
          {
            agent,
            host: url.hostname,
            port: url.port,
            path: `/send/${i}`,
            method: 'POST',
            headers: { 'content-encoding': 'aes128gcm', authorization: 'vapid t=x, k=y', topic: 'floor', ttl: '60' },
          },
          (res) => {
            res.resume();
            res.on('end', () => done());
          },
        );
        req.on('error', fail);
        req.end(body);
      });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  await standIn.close();
  return n / seconds;
}

export async function run(): Promise<void> {
  const push = await startPushServer({ latencyMs, retryAfterSeconds: 2, keepBodies: true });
  const smtp = await startSmtpServer();
  rmSync(DB_FILE, { force: true });
  rmSync(`${DB_FILE}-wal`, { force: true });
  rmSync(`${DB_FILE}-shm`, { force: true });
  const database = await openMigratedDatabase(`file:${DB_FILE}`);
  const { db } = database;
  const hosts: ChildProcess[] = [];
  try {
    // ---- 50,000 members following one series, one browser each ----
    const seeded = performance.now();
    await upsertFilm(db, { title: 'Đất Rừng Phương Nam', slug: 'dat-rung-phuong-nam', categoryId: 24, episodes: episodes(1) });
    const keys = Array.from({ length: 100 }, (_, i) => pushClient(`${push.origin}/keys/${i}`));
    const endpoint = (i: number) => `${push.origin}/send/${i}`;
    for (let from = 0; from < SUBSCRIPTIONS; from += 1000) {
      const n = Math.min(1000, SUBSCRIPTIONS - from);
      const ids = await db
        .insert(users)
        .values(Array.from({ length: n }, (_, k) => ({ email: `f${from + k}@example.test`, username: `f${from + k}` })))
        .returning({ id: users.id });
      await db.insert(watchlist).values(ids.map(({ id }) => ({ userId: id, filmId: 1, notify: true, addedAt: 1 })));
      await db
        .insert(pushSubscriptions)
        .values(ids.map(({ id }, k) => ({ userId: id, endpoint: endpoint(from + k), ...keys[(from + k) % 100]!.subscription.keys })));
    }
    const gone = new Set<string>();
    const busy = new Set<string>();
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      if (i % 50 === 7) gone.add(endpoint(i));
      else if (i % 100 === 3) busy.add(endpoint(i));
    }
    for (const e of gone) push.gone.add(e);
    for (const e of busy) push.unavailable.set(e, 1);
    const live = SUBSCRIPTIONS - gone.size;
    console.log(
      `   seeded ${SUBSCRIPTIONS} subscriptions (${gone.size} gone, ${busy.size} answer 503 once) in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
    );

    // ---- the release, then the host ----
    await upsertFilm(db, { title: 'Đất Rừng Phương Nam', categoryId: 24, episodes: episodes(2), id: 1 });
    const env = {
      DATABASE_URL: `file:${DB_FILE}`,
      APP_ENV: 'test',
      JWT_SECRET,
      PARTY_SECRET: 'bench-push-party',
      VAPID_PUBLIC_KEY: 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U',
      VAPID_PRIVATE_KEY: 'UUxI4O8-FbRouAevSmBQ6o18hgE4nSG3qwvJTfKc-ls',
      PUSH_ENDPOINT_ORIGINS: push.origin,
      NODE_EXTRA_CA_CERTS: push.caFile,
      SMTP_URL: smtp.url,
      SCHEDULER_TICK_MS: '1000',
    };
    let host = await startHost(env);
    hosts.push(host);
    const started = performance.now();
    const elapsed = () => (performance.now() - started) / 1000;

    // A mail every 5 s while the pushes go out: when did each leave?
    const config = loadConfig({ APP_ENV: 'test', JWT_SECRET });
    const mails: { to: string; at: number; left?: number }[] = [];
    const mailer = setInterval(() => {
      const mail: { to: string; at: number; left?: number } = { to: `probe${mails.length}@example.test`, at: performance.now() };
      mails.push(mail);
      void outboxRow(config, { kind: 'password_changed', to: mail.to, params: { name: 'An' } }, Date.now())
        .then((row) => outboxInsert(db, [row]))
        .catch((err: unknown) => console.log(`   mail probe not queued: ${err instanceof Error ? String(err.cause ?? err) : err}`));
      smtp
        .waitFor((m) => m.to.includes(mail.to), 120_000)
        .then(
          () => (mail.left = performance.now()),
          () => undefined,
        );
    }, 5000);

    // ---- kill -9 half-way, start again ----
    const received = () => push.received.size;
    while (received() < live / 2 && elapsed() * 1000 < CAP_MS) await sleep(100);
    const inFlight = push.inFlight();
    const atKill = received();
    await stop(host, 'SIGKILL');
    const killedAt = elapsed();
    console.log(`   SIGKILL at ${killedAt.toFixed(1)} s: ${atKill} notified, ${inFlight} in flight at the push service`);
    host = await startHost(env);
    hosts.push(host);
    console.log(`   restarted at ${elapsed().toFixed(1)} s`);
    const open = () => db.$count(pushChunks, ne(pushChunks.status, 'done'));
    const releaseDone = async () =>
      (await db.select({ doneAt: episodeReleases.doneAt }).from(episodeReleases).where(eq(episodeReleases.episode, 2)))[0]?.doneAt;
    while (((await open()) > 0 || !(await releaseDone())) && elapsed() * 1000 < CAP_MS) await sleep(500);
    const total = elapsed();
    clearInterval(mailer);
    await sleep(3000);

    // ---- what the push service holds ----
    let missing = 0;
    let duplicates = 0;
    let heldTwice = 0;
    let bytes = 0;
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const e = endpoint(i);
      if (gone.has(e)) continue;
      const log = push.received.get(e);
      if (!log) {
        missing++;
        continue;
      }
      duplicates += log.topics.length - 1;
      if (push.held(e) > 1) heldTwice++;
      bytes += log.bodies[0]?.length ?? 0;
    }
    const sample = Array.from({ length: 20 }, (_, k) => Math.floor((k * SUBSCRIPTIONS) / 20) + 1).filter((i) => !gone.has(endpoint(i)));
    const decrypted = sample.every(
      (i) => JSON.parse(keys[i % 100]!.decrypt(push.received.get(endpoint(i))!.bodies[0]!)).title === 'Đất Rừng Phương Nam: đã có tập 2',
    );
    const goneLeft = await db.$count(pushSubscriptions);
    const end = started + total * 1000;
    const inRun = mails.filter((m) => m.left !== undefined && m.left <= end);
    const waits = mails.filter((m) => m.left !== undefined).map((m) => (m.left! - m.at) / 1000);
    const notified = live - missing;
    console.log(
      `   ${notified}/${live} live subscriptions notified in ${total.toFixed(1)} s (goal ≤ ${GOAL_MS / 1000} s, SIGKILL and restart included): ${(notified / total).toFixed(0)} sends/s`,
    );
    console.log(
      `   missing ${missing}; sent twice ${duplicates} (the killed host's in flight or unrecorded: ${inFlight} in flight at the kill); held twice after Topic replacement ${heldTwice}`,
    );
    console.log(
      `   gone: ${SUBSCRIPTIONS - goneLeft}/${gone.size} deleted; 503 once then delivered: ${[...busy].filter((e) => push.held(e) === 1).length}/${busy.size}; bodies ${(bytes / Math.max(notified, 1)).toFixed(0)} B on average (unpadded); sample decrypts: ${decrypted}`,
    );
    console.log(
      `   mail: ${inRun.length}/${mails.length} queued every 5 s left before the last push (scheduler tick 1 s); longest wait ${Math.max(0, ...waits).toFixed(1)} s`,
    );
    await stop(host, 'SIGTERM');

    // ---- the floor ----
    const floorRate = await floor(live);
    console.log(
      `   floor: ${live} plain POSTs, ${IN_FLIGHT} in flight, no database or crypto: ${floorRate.toFixed(0)}/s (${(live / floorRate).toFixed(1)} s)`,
    );
    const cpu = await workerdCpuPerMessage();
    console.log(
      `   workerd CPU per message (Miniflare): ${cpu.unpadded.ms.toFixed(2)} ms unpadded with the VAPID token reused (${cpu.unpadded.bytes} B), ${cpu.padded.ms.toFixed(2)} ms padded (${cpu.padded.bytes} B), ${cpu.before.ms.toFixed(2)} ms as before (sign per message + padded); Free plan 10 ms ÷ ${cpu.unpadded.ms.toFixed(2)} ≈ ${Math.floor(10 / cpu.unpadded.ms)} messages per invocation`,
    );
    console.log(
      `   goal ${missing === 0 && heldTwice === 0 && total * 1000 <= GOAL_MS ? 'met' : 'NOT met'}; load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    for (const host of hosts) await stop(host, 'SIGKILL');
    database.client.close();
    await push.close();
    await smtp.close();
    rmSync(DB_FILE, { force: true });
    rmSync(`${DB_FILE}-wal`, { force: true });
    rmSync(`${DB_FILE}-shm`, { force: true });
  }
}
