import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { episodeReleases, pushChunks, pushSubscriptions, users, watchlist } from '../../worker/db/schema';
import { upsertFilm } from '../../worker/services/films/film-writer';
import { isAllowedPushEndpoint } from '../../worker/services/push/subscriptions';
import { newEpisodes, runScheduledJobs } from '../../worker/scheduled';
import { loadConfig } from '../../worker/config';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, signedInUser } from '../helpers/auth';
import { type PushClient, pushService, verifyVapid } from '../helpers/push-service';

let t: TestApp;
let push: ReturnType<typeof pushService>;
let admin: Record<string, string>;

const episodes = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    serverName: 'Vietsub #1',
    episode: i + 1,
    name: `Tập ${i + 1}`,
    m3u8Url: `https://cdn.example.test/ep${i + 1}.m3u8`,
    embedUrl: '',
  }));

beforeEach(async () => {
  push = pushService();
  t = await createTestApp({ fetch: push.fetch, config: { PUSH_ENDPOINT_ORIGINS: [push.origin] } });
  await upsertFilm(t.deps.db, { title: 'Đất Rừng Phương Nam', slug: 'dat-rung-phuong-nam', categoryId: 24, episodes: episodes(11) });
  await upsertFilm(t.deps.db, { title: 'Mắt Biếc', slug: 'mat-biec', categoryId: 25, episodes: episodes(1) });
  admin = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
});

/** A member following `slug` with one browser subscribed. */
async function follower(slug = 'dat-rung-phuong-nam', notify = true) {
  const member = await signedInUser(t);
  const auth = bearer(member.session.token);
  expect((await t.request(`/api/me/watchlist/${slug}`, { method: 'PUT', json: { notify }, headers: auth })).status).toBe(200);
  const browser = push.client();
  const res = await t.request('/api/me/push-subscriptions', { json: browser.subscription, headers: auth });
  expect(res.status).toBe(201);
  return { member, auth, browser };
}

/** `n` members following the film with notify on, one browser each, written straight to the tables. */
async function followers(n: number, filmId = 1): Promise<PushClient[]> {
  const browsers = Array.from({ length: n }, () => push.client());
  const ids = await t.deps.db
    .insert(users)
    .values(browsers.map((_, i) => ({ email: `follower${i}@example.test`, username: `follower${i}` })))
    .returning({ id: users.id });
  await t.deps.db.insert(watchlist).values(ids.map(({ id }) => ({ userId: id, filmId, notify: true, addedAt: 1 })));
  await t.deps.db
    .insert(pushSubscriptions)
    .values(ids.map(({ id }, i) => ({ userId: id, endpoint: browsers[i]!.subscription.endpoint, ...browsers[i]!.subscription.keys })));
  return browsers;
}

const addEpisode = (slug: string, episode: number) =>
  t.request('/api/product/create_xemphim', {
    json: { selectedTitle: slug, episode, linkfilm: `https://cdn.example.test/${slug}/${episode}.m3u8` },
    headers: admin,
  });

describe('GET /api/push/public-key', () => {
  it('answers the VAPID public key, base64url of an uncompressed P-256 point', async () => {
    const res = await t.request('/api/push/public-key');
    expect(res.status).toBe(200);
    const { key } = (await res.json()) as { key: string };
    expect(key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(Buffer.from(key, 'base64url')[0]).toBe(4);
    expect(((await (await t.request('/api/push/public-key')).json()) as { key: string }).key).toBe(key);
  });

  it('uses the configured pair', async () => {
    const configured = await createTestApp({
      config: {
        VAPID_PUBLIC_KEY: 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U',
        VAPID_PRIVATE_KEY: 'UUxI4O8-FbRouAevSmBQ6o18hgE4nSG3qwvJTfKc-ls',
      },
    });
    expect(await (await configured.request('/api/push/public-key')).json()).toEqual({
      key: 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U',
    });
  });
});

describe('POST/DELETE /api/me/push-subscriptions', () => {
  it('accepts known push services and the configured origins; anything else is a 400 naming endpoint', async () => {
    const member = await signedInUser(t);
    const auth = bearer(member.session.token);
    const keys = push.client().subscription.keys;
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/abc:def',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
      'https://web.push.apple.com/QGuQyavXutnMH',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAA',
      `${push.origin}/send/x`,
    ]) {
      const res = await t.request('/api/me/push-subscriptions', { json: { endpoint, keys }, headers: auth });
      expect(res.status, endpoint).toBe(201);
    }
    for (const endpoint of [
      'https://evil.example.com/fcm/send/abc',
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com.evil.example/x',
      'https://127.0.0.1/push',
      'https://fcm.googleapis.com:8443/x',
      'http://169.254.169.254/latest/meta-data',
    ]) {
      const res = await t.request('/api/me/push-subscriptions', { json: { endpoint, keys }, headers: auth });
      expect(res.status, endpoint).toBe(400);
      expect((await errorOf(res)).message).toMatch(/^endpoint:/);
    }
    const noKeys = await t.request('/api/me/push-subscriptions', { json: { endpoint: `${push.origin}/send/y` }, headers: auth });
    expect(noKeys.status).toBe(400);
    expect((await errorOf(noKeys)).message).toMatch(/^keys/);
    expect(await t.deps.db.$count(pushSubscriptions)).toBe(5);

    // Deleting is idempotent and only touches the member's own.
    const other = bearer((await signedInUser(t)).session.token);
    const del = (headers: Record<string, string>) =>
      t.request('/api/me/push-subscriptions', { method: 'DELETE', json: { endpoint: `${push.origin}/send/x` }, headers });
    expect((await del(other)).status).toBe(200);
    expect(await t.deps.db.$count(pushSubscriptions)).toBe(5);
    expect((await del(auth)).status).toBe(200);
    expect((await del(auth)).status).toBe(200);
    expect(await t.deps.db.$count(pushSubscriptions)).toBe(4);
    expect((await t.request('/api/me/push-subscriptions', { method: 'DELETE', json: {}, headers: auth })).status).toBe(400);
  });

  it('the built-in list does not depend on configuration', () => {
    const config = loadConfig({ APP_ENV: 'production', JWT_SECRET: 'x'.repeat(40), PARTY_SECRET: 'y'.repeat(20) });
    expect(isAllowedPushEndpoint(config, 'https://fcm.googleapis.com/fcm/send/a')).toBe(true);
    expect(isAllowedPushEndpoint(config, 'https://push.example.test/send/a')).toBe(false);
  });
});

describe('new-episode notifications', () => {
  it('an admin adds an episode: each follower with notify on gets a push they decrypt, signed with VAPID', async () => {
    const a = await follower();
    const b = await follower();
    await follower('dat-rung-phuong-nam', false); // notify off
    await follower('mat-biec'); // follows another film
    const res = await addEpisode('dat-rung-phuong-nam', 12);
    expect(res.status).toBe(201);
    await t.background();

    expect(push.received.map((r) => r.endpoint).sort()).toEqual([a.browser.subscription.endpoint, b.browser.subscription.endpoint].sort());
    // One VAPID token for the push service, reused (RFC 8292 allows it until its exp); the Topic is the film; the
    // body is the message and the one delimiter octet, not padded to 4 KB.
    expect(new Set(push.received.map((r) => r.headers.get('authorization'))).size).toBe(1);
    for (const received of push.received) {
      expect(received.headers.get('topic')).toBe('dat-rung-phuong-nam');
      expect(received.body.length).toBeLessThan(600);
    }
    const { key } = (await (await t.request('/api/push/public-key')).json()) as { key: string };
    for (const received of push.received) {
      const browser = received.endpoint === a.browser.subscription.endpoint ? a.browser : b.browser;
      expect(received.headers.get('content-encoding')).toBe('aes128gcm');
      expect(Number(received.headers.get('ttl'))).toBeGreaterThan(0);
      const { k, claims } = await verifyVapid(received.headers, received.endpoint);
      expect(k).toBe(key);
      expect(claims.sub).toBeTruthy();
      const payload = JSON.parse(browser.decrypt(received.body));
      expect(payload).toMatchObject({
        type: 'new-episode',
        title: 'Đất Rừng Phương Nam: đã có tập 12',
        url: '/xem-phim/dat-rung-phuong-nam/tap-12',
        episode: 12,
      });
    }

    // Never twice for the same episode: the same number on another server, a scheduled run, the list page.
    expect((await addEpisode('dat-rung-phuong-nam', 12)).status).toBe(200);
    await t.request('/api/product/create_xemphim', {
      json: { selectedTitle: 'dat-rung-phuong-nam', episode: 12, server: 'Thuyết Minh', linkfilm: 'https://cdn.example.test/tm12.m3u8' },
      headers: admin,
    });
    await t.background();
    await runScheduledJobs(t.deps, [newEpisodes]);
    expect(push.received).toHaveLength(2);

    // The list page shows the new episode until the member opens it.
    const list = (await (await t.request('/api/me/watchlist', { headers: a.auth })).json()) as { data: { newEpisodes: number[] }[] };
    expect(list.data[0]?.newEpisodes).toEqual([]); // never opened: nothing to compare with
    await t.request('/api/me/watchlist/seen', { method: 'POST', headers: a.auth });
    await addEpisode('dat-rung-phuong-nam', 13);
    await t.background();
    const after = (await (await t.request('/api/me/watchlist', { headers: a.auth })).json()) as { data: { newEpisodes: number[] }[] };
    expect(after.data[0]?.newEpisodes).toEqual([13]);
    expect(push.received).toHaveLength(4);
  });

  it('a crawl that brings new episodes is sent by the scheduled job; concurrent notifiers send once', async () => {
    const a = await follower();
    await upsertFilm(t.deps.db, { title: 'Đất Rừng Phương Nam', slug: 'ignored', categoryId: 24, episodes: episodes(14), id: 1 });
    const [job1, job2] = await Promise.all([runScheduledJobs(t.deps, [newEpisodes]), runScheduledJobs(t.deps, [newEpisodes])]);
    expect(job1?.[0]?.ok && job2?.[0]?.ok).toBe(true);
    const texts = push.received.map((r) => JSON.parse(a.browser.decrypt(r.body)).title).sort();
    expect(texts).toEqual(['Đất Rừng Phương Nam: đã có tập 12', 'Đất Rừng Phương Nam: đã có tập 13', 'Đất Rừng Phương Nam: đã có tập 14']);
    // The same film rewritten with the same episodes announces nothing.
    await upsertFilm(t.deps.db, { title: 'Đất Rừng Phương Nam', categoryId: 24, episodes: episodes(14), id: 1 });
    await runScheduledJobs(t.deps, [newEpisodes]);
    expect(push.received).toHaveLength(3);
    expect(await t.deps.db.$count(episodeReleases)).toBe(3);
  });

  it('a subscription the push service answers 410 for is deleted', async () => {
    const a = await follower();
    const b = await follower();
    push.gone.add(a.browser.subscription.endpoint);
    await addEpisode('dat-rung-phuong-nam', 12);
    await t.background();
    const left = await t.deps.db.select({ endpoint: pushSubscriptions.endpoint }).from(pushSubscriptions);
    expect(left.map((r) => r.endpoint)).toEqual([b.browser.subscription.endpoint]);
    expect(push.received.map((r) => r.endpoint)).toEqual([b.browser.subscription.endpoint]);
    const rows = await t.deps.db.select().from(episodeReleases).where(eq(episodeReleases.episode, 12));
    expect(rows[0]?.doneAt).not.toBeNull();
  });

  it('a release of 250 followers goes out in chunks of at most 100, each follower once', async () => {
    const browsers = await followers(250);
    expect((await addEpisode('dat-rung-phuong-nam', 12)).status).toBe(201);
    await t.background();
    const chunks = await t.deps.db.select().from(pushChunks);
    expect(chunks.map((c) => c.size)).toEqual([100, 100, 50]);
    expect(chunks.every((c) => c.status === 'done' && c.pending === '[]')).toBe(true);
    expect(chunks.reduce((n, c) => n + c.sent, 0)).toBe(250);
    const per = new Map<string, number>();
    for (const r of push.received) per.set(r.endpoint, (per.get(r.endpoint) ?? 0) + 1);
    expect(per.size).toBe(250);
    expect([...per.values()].every((n) => n === 1)).toBe(true);
    const last = push.received.find((r) => r.endpoint === browsers[249]!.subscription.endpoint)!;
    expect(JSON.parse(browsers[249]!.decrypt(last.body)).title).toBe('Đất Rừng Phương Nam: đã có tập 12');
    // Nothing is sent again by a later tick.
    await runScheduledJobs(t.deps, [newEpisodes]);
    expect(push.received).toHaveLength(250);
  });

  it("503 with Retry-After is tried again after the wait; one still failing waits for the chunk's next run", async () => {
    const [busy, down, fine] = await followers(3);
    push.unavailable.set(busy!.subscription.endpoint, 1);
    push.unavailable.set(down!.subscription.endpoint, 1000);
    await addEpisode('dat-rung-phuong-nam', 12);
    await t.background();
    const tries = (b: PushClient) => push.attempts.filter((a) => a.endpoint === b.subscription.endpoint);
    // Answered 503 once, then sent no sooner than Retry-After (1 s) said.
    expect(tries(busy!).map((a) => a.status)).toEqual([503, 201]);
    expect(tries(busy!)[1]!.at - tries(busy!)[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(tries(fine!).map((a) => a.status)).toEqual([201]);
    // The one still unavailable after this run's tries is left pending in the chunk, not deleted, not sent twice.
    expect(tries(down!).length).toBeGreaterThan(1);
    expect(tries(down!).every((a) => a.status === 503)).toBe(true);
    const [chunk] = await t.deps.db.select().from(pushChunks);
    expect(chunk).toMatchObject({ status: 'pending', sent: 2, pending: JSON.stringify([await idOf(down!)]) });
    expect(await t.deps.db.$count(pushSubscriptions)).toBe(3);
    // Its service is back: the next run after the wait sends it, and only it.
    push.unavailable.delete(down!.subscription.endpoint);
    t.advance(5 * 60_000);
    await runScheduledJobs(t.deps, [newEpisodes]);
    expect(tries(down!).at(-1)?.status).toBe(201);
    expect(push.received.map((r) => r.endpoint).sort()).toEqual([busy, down, fine].map((b) => b!.subscription.endpoint).sort());
    expect((await t.deps.db.select().from(pushChunks))[0]).toMatchObject({ status: 'done', sent: 3, pending: '[]' });
  });
});

async function idOf(browser: PushClient): Promise<number> {
  const [row] = await t.deps.db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.endpoint, browser.subscription.endpoint));
  return row!.id;
}
