import { beforeEach, describe, expect, it } from 'vitest';
import { rateLimits, watchProgress, watchlist } from '../../worker/db/schema';
import { PROGRESS_BATCH_MAX, WATCHLIST_MAX } from '../../worker/schemas/library';
import { RATE_LIMITS } from '../../worker/services/rate-limit';
import { pruneHistory } from '../../worker/services/library/progress';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, fakeClock, insertFilm, signedInUser } from '../helpers/auth';

let t: TestApp;
let clock: ReturnType<typeof fakeClock>;
let auth: Record<string, string>;
let userId: number;

beforeEach(async () => {
  clock = fakeClock();
  t = await createTestApp({ now: clock.now });
  await insertFilm(t.deps.db, 'mat-biec', 'Mắt Biếc');
  await insertFilm(t.deps.db, 'lat-mat-8', 'Lật Mặt 8');
  await insertFilm(t.deps.db, 'dat-rung-phuong-nam', 'Đất Rừng Phương Nam');
  const user = await signedInUser(t);
  auth = bearer(user.session.token);
  userId = user.id;
});

const get = async (path: string, headers = auth) => {
  const res = await t.request(path, { headers });
  expect(res.status, await res.clone().text()).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: answers are read as JSON and asserted on field by field.
  return res.json() as Promise<Record<string, any>>;
};

describe('401 without a token', () => {
  it.each([
    ['GET', '/api/me/watchlist'],
    ['PUT', '/api/me/watchlist/mat-biec'],
    ['DELETE', '/api/me/watchlist/mat-biec'],
    ['PUT', '/api/me/progress'],
    ['GET', '/api/me/progress?slug=mat-biec'],
    ['GET', '/api/me/history'],
    ['DELETE', '/api/me/history/mat-biec'],
    ['DELETE', '/api/me/history'],
    ['POST', '/api/me/push-subscriptions'],
    ['DELETE', '/api/me/push-subscriptions'],
  ])('%s %s', async (method, path) => {
    const res = await t.request(path, { method, ...(method === 'GET' ? {} : { json: {} }), headers: {} } as RequestInit);
    expect(res.status).toBe(401);
    expect((await errorOf(res)).code).toBe('unauthorized');
    const bad = await t.request(path, { method, headers: { authorization: 'Bearer not-a-token' } });
    expect(bad.status).toBe(401);
  });
});

describe('watchlist', () => {
  it('adds, lists newest first with film cards, and is idempotent', async () => {
    const put1 = await t.request('/api/me/watchlist/mat-biec', { method: 'PUT', headers: auth });
    expect(put1.status).toBe(200);
    const first = (await put1.json()) as { addedAt: number; notify: boolean };
    expect(first.notify).toBe(true);
    clock.advance(1000);
    expect((await t.request('/api/me/watchlist/lat-mat-8', { method: 'PUT', json: { notify: false }, headers: auth })).status).toBe(200);
    clock.advance(1000);
    // A second PUT keeps the entry (and its addedAt), one row.
    const again = await t.request('/api/me/watchlist/mat-biec', { method: 'PUT', json: {}, headers: auth });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { addedAt: number }).addedAt).toBe(first.addedAt);
    expect(await t.deps.db.$count(watchlist)).toBe(2);

    const list = await get('/api/me/watchlist');
    expect(list.data.map((i: { slug: string }) => i.slug)).toEqual(['lat-mat-8', 'mat-biec']);
    expect(list.data[0]).toMatchObject({ slug: 'lat-mat-8', notify: false, addedAt: expect.any(Number) });
    expect(list.data[1].film).toMatchObject({ slug: 'mat-biec', title: 'Mắt Biếc', category_id: 24 });

    // notify can be turned on and off without moving the entry.
    await t.request('/api/me/watchlist/lat-mat-8', { method: 'PUT', json: { notify: true }, headers: auth });
    expect((await get('/api/me/watchlist')).data[0]).toMatchObject({ slug: 'lat-mat-8', notify: true });
  });

  it('removes idempotently; unknown film 404; bad body 400 naming the field', async () => {
    await t.request('/api/me/watchlist/mat-biec', { method: 'PUT', headers: auth });
    for (let i = 0; i < 2; i++) {
      const res = await t.request('/api/me/watchlist/mat-biec', { method: 'DELETE', headers: auth });
      expect(res.status).toBe(200);
    }
    expect((await get('/api/me/watchlist')).data).toEqual([]);
    for (const method of ['PUT', 'DELETE']) {
      const res = await t.request(`/api/me/watchlist/${encodeURIComponent('Không Có Phim Này')}`, { method, headers: auth });
      expect(res.status).toBe(404);
      expect((await errorOf(res)).code).toBe('not_found');
    }
    const bad = await t.request('/api/me/watchlist/mat-biec', { method: 'PUT', json: { notify: 'có' }, headers: auth });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/^notify:/);
  });

  it('is personal: another member sees their own list', async () => {
    await t.request('/api/me/watchlist/mat-biec', { method: 'PUT', headers: auth });
    const other = await signedInUser(t);
    expect((await get('/api/me/watchlist', bearer(other.session.token))).data).toEqual([]);
  });

  it(`holds at most ${WATCHLIST_MAX} films`, async () => {
    const ids: number[] = [];
    for (let i = 0; i < WATCHLIST_MAX; i++) ids.push(await insertFilm(t.deps.db, `phim-so-${i}`));
    await t.deps.db.insert(watchlist).values(ids.map((filmId, i) => ({ userId, filmId, addedAt: i })));
    const over = await t.request('/api/me/watchlist/mat-biec', { method: 'PUT', headers: auth });
    expect(over.status).toBe(409);
    expect((await errorOf(over)).message).toMatch(/1000/);
    // One already on the list can still be changed; after removing one, another fits.
    expect((await t.request('/api/me/watchlist/phim-so-3', { method: 'PUT', json: { notify: false }, headers: auth })).status).toBe(200);
    await t.request('/api/me/watchlist/phim-so-3', { method: 'DELETE', headers: auth });
    expect((await t.request('/api/me/watchlist/mat-biec', { method: 'PUT', headers: auth })).status).toBe(200);
  });
});

const putProgress = (items: unknown[], headers = auth) => t.request('/api/me/progress', { method: 'PUT', json: { items }, headers });
const item = (over: Partial<{ slug: string; episode: number; position: number; duration: number; updatedAt: number }> = {}) => ({
  slug: 'mat-biec',
  episode: 1,
  position: 120,
  duration: 2400,
  updatedAt: clock.now() - 60_000,
  ...over,
});

describe('progress', () => {
  it('the newest updatedAt wins per film and episode, whatever order writes arrive in', async () => {
    const base = clock.now() - 10 * 60_000;
    // The later write arrives first (an offline phone replays its outbox after the laptop wrote).
    expect((await putProgress([item({ position: 900, updatedAt: base + 5000 })])).status).toBe(200);
    expect((await putProgress([item({ position: 300, updatedAt: base + 1000 })])).status).toBe(200);
    expect((await get('/api/me/progress?slug=mat-biec')).data).toEqual([
      { episode: 1, position: 900, duration: 2400, updatedAt: base + 5000 },
    ]);
    // A newer one replaces it; episodes are kept apart; newest first.
    await putProgress([item({ position: 950, updatedAt: base + 9000 }), item({ episode: 2, position: 10, updatedAt: base + 7000 })]);
    expect((await get('/api/me/progress?slug=mat-biec')).data).toEqual([
      { episode: 1, position: 950, duration: 2400, updatedAt: base + 9000 },
      { episode: 2, position: 10, duration: 2400, updatedAt: base + 7000 },
    ]);
    // Duplicates within one batch: the newest of them.
    await putProgress([item({ episode: 3, position: 5, updatedAt: base + 2 }), item({ episode: 3, position: 50, updatedAt: base + 3 })]);
    expect((await get('/api/me/progress?slug=mat-biec')).data.find((p: { episode: number }) => p.episode === 3).position).toBe(50);
  });

  it("caps updatedAt at the server's clock, so a fast clock cannot pin a position forever", async () => {
    await putProgress([item({ position: 700, updatedAt: clock.now() + 86_400_000 })]);
    expect((await get('/api/me/progress?slug=mat-biec')).data[0]).toMatchObject({ position: 700, updatedAt: clock.now() });
    clock.advance(1000);
    await putProgress([item({ position: 800, updatedAt: clock.now() })]);
    expect((await get('/api/me/progress?slug=mat-biec')).data[0].position).toBe(800);
  });

  it('validates the body: 400 naming the field; more than 50 items refused', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /^items:/],
      [{ items: [] }, /^items:/],
      [{ items: [item({ episode: 0 })] }, /^items\.0\.episode:/],
      [{ items: [item({ position: -1 })] }, /^items\.0\.position:/],
      [{ items: [{ ...item(), duration: 'dài' }] }, /^items\.0\.duration:/],
      [{ items: [{ ...item(), updatedAt: undefined }] }, /^items\.0\.updatedAt:/],
      [{ items: [item({ slug: ' ' })] }, /^items\.0\.slug:/],
      [{ items: Array.from({ length: PROGRESS_BATCH_MAX + 1 }, (_, i) => item({ episode: i + 1 })) }, /^items:/],
    ];
    for (const [json, message] of cases) {
      const res = await t.request('/api/me/progress', { method: 'PUT', json, headers: auth });
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      expect((await errorOf(res)).message).toMatch(message);
    }
    expect((await putProgress(Array.from({ length: PROGRESS_BATCH_MAX }, (_, i) => item({ episode: i + 1 })))).status).toBe(200);
    expect(await t.deps.db.$count(watchProgress)).toBe(PROGRESS_BATCH_MAX);
  });

  it('unknown film: GET 404; a write of a vanished film is dropped so an outbox can drain', async () => {
    expect((await t.request('/api/me/progress?slug=khong-co', { headers: auth })).status).toBe(404);
    expect((await t.request('/api/me/progress', { headers: auth })).status).toBe(400);
    const res = await putProgress([item({ slug: 'da-bi-xoa' }), item()]);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ saved: 1 });
  });

  it('is rate-limited per member, and a refused write changes nothing', async () => {
    const { limit } = RATE_LIMITS.progressPerUser;
    for (let i = 0; i < limit; i++)
      expect((await putProgress([item({ position: i, updatedAt: clock.now() - 1000 + i })])).status).toBe(200);
    const refused = await putProgress([item({ position: 5000, updatedAt: clock.now() })]);
    expect(refused.status).toBe(429);
    expect((await get('/api/me/progress?slug=mat-biec')).data[0].position).toBe(limit - 1);
    // Another member is not limited by this one.
    const other = await signedInUser(t);
    expect((await putProgress([item()], bearer(other.session.token))).status).toBe(200);
    expect(await t.deps.db.$count(rateLimits)).toBeGreaterThan(0);
  });
});

describe('history', () => {
  it('one row per film (its latest episode), newest first, paged; remove one and clear all', async () => {
    const base = clock.now() - 60 * 60_000;
    await putProgress([
      item({ slug: 'mat-biec', episode: 1, position: 100, updatedAt: base + 1 }),
      item({ slug: 'mat-biec', episode: 2, position: 200, updatedAt: base + 3 }),
      item({ slug: 'lat-mat-8', episode: 1, position: 50, updatedAt: base + 2 }),
    ]);
    const page = await get('/api/me/history?page=1');
    expect(page.data.map((h: { slug: string; episode: number }) => [h.slug, h.episode])).toEqual([
      ['mat-biec', 2],
      ['lat-mat-8', 1],
    ]);
    expect(page.data[0]).toMatchObject({
      position: 200,
      duration: 2400,
      updatedAt: base + 3,
      film: { slug: 'mat-biec', title: 'Mắt Biếc' },
    });
    expect(page.pagination).toEqual({ page: 1, pageSize: 20, totalItems: 2, totalPages: 1 });
    expect((await get('/api/me/history?page=2')).data).toEqual([]);
    expect((await t.request('/api/me/history?page=0', { headers: auth })).status).toBe(400);
    expect((await t.request('/api/me/history?page=', { headers: auth })).status).toBe(200);

    expect((await t.request('/api/me/history/mat-biec', { method: 'DELETE', headers: auth })).status).toBe(200);
    expect((await get('/api/me/history')).data.map((h: { slug: string }) => h.slug)).toEqual(['lat-mat-8']);
    expect((await t.request('/api/me/history/khong-co', { method: 'DELETE', headers: auth })).status).toBe(404);
    expect((await t.request('/api/me/history', { method: 'DELETE', headers: auth })).status).toBe(200);
    expect((await get('/api/me/history')).data).toEqual([]);
  });

  it('is kept one year', async () => {
    await putProgress([item({ slug: 'mat-biec', updatedAt: clock.now() - 366 * 86_400_000 }), item({ slug: 'lat-mat-8' })]);
    await pruneHistory(t.deps.db, clock.now());
    expect((await get('/api/me/history')).data.map((h: { slug: string }) => h.slug)).toEqual(['lat-mat-8']);
  });
});
