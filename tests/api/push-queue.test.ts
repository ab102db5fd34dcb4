// The Node host's push queue across a crash (docs/decisions/1030): the real host (worker/node.ts) in a child process
// on a file database sends a release to 300 followers through a push service on loopback HTTPS; the scheduler keeps
// sending mail while the sends are held; the host is killed with SIGKILL half-way and started again; then every
// live subscription holds exactly one notification, the gone ones are deleted, and the ones answered 503 got theirs.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../party/dev-server';
import { loadConfig } from '../../worker/config';
import { type NodeDatabase, openMigratedDatabase } from '../../worker/db/node-client';
import { episodeReleases, pushChunks, pushSubscriptions, users, watchlist } from '../../worker/db/schema';
import { upsertFilm } from '../../worker/services/films/film-writer';
import { outboxInsert, outboxRow } from '../../worker/services/mail/outbox';
import { pushClient, type PushServer, startPushServer } from '../helpers/push-service';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';

const ROOT = resolve(import.meta.dirname, '../..');
const FOLLOWERS = 300;
const dir = mkdtempSync(join(tmpdir(), 'phimviet-push-queue-'));
const DB_URL = `file:${join(dir, 'push.db')}`;
let database: NodeDatabase;
let push: PushServer;
let smtp: TestSmtpServer;
let child: ChildProcess | undefined;

const episodes = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    serverName: 'Vietsub #1',
    episode: i + 1,
    name: `Tập ${i + 1}`,
    m3u8Url: `https://cdn.example.test/${i + 1}.m3u8`,
    embedUrl: '',
  }));

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The Node host as `npm start` runs it (its ticker and push pool on), on the test's database and push service. */
async function startHost(): Promise<ChildProcess> {
  const port = await freePort();
  const host = spawn(process.execPath, ['--import', 'tsx', 'worker/node.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: DB_URL,
      APP_ENV: 'test',
      JWT_SECRET: 'push-queue-test-secret-0123456789abcdef',
      PARTY_SECRET: 'push-queue-test-party',
      VAPID_PUBLIC_KEY: 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U',
      VAPID_PRIVATE_KEY: 'UUxI4O8-FbRouAevSmBQ6o18hgE4nSG3qwvJTfKc-ls',
      PUSH_ENDPOINT_ORIGINS: push.origin,
      NODE_EXTRA_CA_CERTS: push.caFile,
      SMTP_URL: smtp.url,
      SCHEDULER_TICK_MS: '200',
      PUSH_LEASE_MS: '6000',
    },
  });
  await until(
    () =>
      fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      ),
    'the host to start',
  );
  return host;
}

function killHard(host: ChildProcess): Promise<void> {
  const exited = new Promise<void>((done) => host.once('exit', () => done()));
  host.kill('SIGKILL');
  return exited;
}

beforeAll(async () => {
  push = await startPushServer({ latencyMs: () => 150 + Math.random() * 200, retryAfterSeconds: 1, keepBodies: true });
  smtp = await startSmtpServer();
  database = await openMigratedDatabase(DB_URL);
  const { db } = database;
  await upsertFilm(db, { title: 'Đất Rừng Phương Nam', slug: 'dat-rung-phuong-nam', categoryId: 24, episodes: episodes(1) });
});

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) await killHard(child);
  database?.client.close();
  await push?.close();
  await smtp?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('push queue on the Node host', () => {
  it('300 followers, SIGKILL half-way, restart: each live one notified once, mail sent meanwhile', { timeout: 180_000 }, async () => {
    const { db } = database;
    const browsers = Array.from({ length: FOLLOWERS }, (_, i) => pushClient(`${push.origin}/send/${i}`));
    const ids = await db
      .insert(users)
      .values(browsers.map((_, i) => ({ email: `f${i}@example.test`, username: `f${i}` })))
      .returning({ id: users.id });
    await db.insert(watchlist).values(ids.map(({ id }) => ({ userId: id, filmId: 1, notify: true, addedAt: 1 })));
    await db
      .insert(pushSubscriptions)
      .values(ids.map(({ id }, i) => ({ userId: id, endpoint: browsers[i]!.subscription.endpoint, ...browsers[i]!.subscription.keys })));
    // 2 % of the subscriptions are gone (410), 1 % answer 503 with Retry-After once.
    const gone = browsers.filter((_, i) => i % 50 === 7).map((b) => b.subscription.endpoint);
    const busy = browsers.filter((_, i) => i % 100 === 3).map((b) => b.subscription.endpoint);
    for (const endpoint of gone) push.gone.add(endpoint);
    for (const endpoint of busy) push.unavailable.set(endpoint, 1);
    const live = browsers.filter((b) => !gone.includes(b.subscription.endpoint));
    // The release: a crawl writes episode 2.
    await upsertFilm(db, { title: 'Đất Rừng Phương Nam', categoryId: 24, episodes: episodes(2), id: 1 });

    child = await startHost();
    // Sends are under way: hold every answer of the push service, then queue a mail. The minute jobs do not wait
    // for the push sends, so the mail leaves while they are held.
    await until(() => push.received.size >= 30, 'the first sends');
    push.pause();
    const config = loadConfig({ APP_ENV: 'test', JWT_SECRET: 'push-queue-test-secret-0123456789abcdef' });
    await outboxInsert(db, [
      await outboxRow(config, { kind: 'password_changed', to: 'watcher@example.test', params: { name: 'An' } }, Date.now()),
    ]);
    const mail = await smtp.waitFor((m) => m.to.includes('watcher@example.test'), 10_000);
    expect(mail.subject).toBeTruthy();
    expect(push.received.size).toBeLessThan(live.length);
    expect(await db.$count(pushChunks, ne(pushChunks.status, 'done'))).toBeGreaterThan(0);
    push.resume();

    // Half-way, the host dies without a word.
    await until(() => push.received.size >= 150, 'half of the sends');
    const inFlightAtKill = push.inFlight();
    await killHard(child);
    expect(push.received.size).toBeLessThan(live.length);

    child = await startHost();
    await until(async () => (await db.$count(pushChunks, ne(pushChunks.status, 'done'))) === 0, 'every chunk to settle', 120_000);

    // Every live subscription holds exactly one notification (a resent one carries the same Topic and replaced the
    // first while undelivered); what was sent twice is at most what the killed host had in flight or unrecorded.
    const counts = live.map((b) => push.received.get(b.subscription.endpoint)?.topics.length ?? 0);
    expect(counts.filter((n) => n === 0)).toHaveLength(0);
    for (const b of live) expect(push.held(b.subscription.endpoint), b.subscription.endpoint).toBe(1);
    const duplicates = counts.reduce((sum, n) => sum + n - 1, 0);
    expect(counts.every((n) => n <= 2)).toBe(true);
    expect(duplicates).toBeLessThanOrEqual(Math.max(inFlightAtKill, 60));
    // Each message decrypts to the announcement.
    for (const b of live.slice(0, 20)) {
      const body = push.received.get(b.subscription.endpoint)!.bodies[0]!;
      expect(JSON.parse(b.decrypt(body)).title).toBe('Đất Rừng Phương Nam: đã có tập 2');
    }
    // Gone ones were never accepted and are deleted; the 503 ones were tried again and got theirs.
    for (const endpoint of gone) expect(push.received.has(endpoint)).toBe(false);
    expect(await db.$count(pushSubscriptions)).toBe(FOLLOWERS - gone.length);
    for (const endpoint of busy) expect(push.held(endpoint)).toBe(1);
    const [release] = await db.select().from(episodeReleases).where(eq(episodeReleases.episode, 2));
    expect(release?.doneAt).not.toBeNull();
    const chunks = await db.select().from(pushChunks);
    expect(chunks.map((c) => c.size)).toEqual([100, 100, 100]);
    expect(chunks.reduce((n, c) => n + c.gone, 0)).toBe(gone.length);
  });
});
