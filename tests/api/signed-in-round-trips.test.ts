// Signed-in reads on the Worker path (@libsql/client/web against the Hrana test server): each pipeline the
// server sees is one network round trip to Turso in production. The viewer behind a token is read in the
// handler's own batch (services/auth/viewer.ts: batchWithViewer), so signing in adds no round trip.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../worker/db/schema';
import { createUser, type TestUser } from '../helpers/auth';
import { startWorkerPath, type WorkerPath } from '../helpers/worker-path';

let worker: WorkerPath;
beforeAll(async () => {
  worker = await startWorkerPath();
});
afterAll(async () => {
  await worker?.close();
});

let ip = 10;
async function signIn(user: TestUser): Promise<Record<string, string>> {
  ip += 1;
  const res = await worker.app.request('/api/dang-nhap', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${ip}` },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  expect(res.status).toBe(200);
  return { authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
}

async function request(path: string, headers: Record<string, string> = {}) {
  const measured = await worker.measure(path, { headers });
  return { ...measured, body: measured.body as Record<string, unknown> };
}

const FILM = '/api/product/dat-rung-phuong-nam';
const EPISODE = '/api/product/dat-rung-phuong-nam/tap-1';
const MEMBER_READS = ['/api/me/watchlist', '/api/me/history?page=1', '/api/me/progress?slug=dat-rung-phuong-nam'];

describe('signed-in reads cost the round trips of the anonymous ones', () => {
  it('film detail: one round trip signed out and signed in, with the viewer own rating', async () => {
    const headers = await signIn(await createUserThrough());
    const rated = await worker.app.request('/api/product/rating_star', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ titlefilm: 'dat-rung-phuong-nam', starselect: 4 }),
    });
    expect(rated.status).toBe(200);

    const anonymous = await request(FILM);
    expect(anonymous.status).toBe(200);
    expect(anonymous.trips).toBe(1);
    expect(anonymous.body.rating_star).toEqual({ rating: null });

    const signedIn = await request(FILM, headers);
    expect(signedIn.status).toBe(200);
    expect(signedIn.trips).toBe(1);
    expect(signedIn.body.rating_star).toEqual({ rating: 4 });
    expect(signedIn.res.headers.get('cache-control')).toBe('private, no-store');
  });

  it('episode link: the same round trips signed in as signed out', async () => {
    const headers = await signIn(await createUserThrough());
    const anonymous = await request(EPISODE);
    const signedIn = await request(EPISODE, headers);
    expect(anonymous.status).toBe(200);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toEqual(anonymous.body);
    expect(signedIn.trips).toBe(anonymous.trips);
  });

  it('a public read with a token reads no viewer at all', async () => {
    const headers = await signIn(await createUserThrough());
    const home = await request('/api/product/product-home', headers);
    expect(home.status).toBe(200);
    expect(home.trips).toBe(1);
  });

  for (const path of MEMBER_READS) {
    it(`${path}: one round trip, the member read in the same batch`, async () => {
      const headers = await signIn(await createUserThrough());
      const read = await request(path, headers);
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      expect(read.trips).toBe(1);
    });
  }
});

describe('a token whose user is gone or whose session is retired is still refused', () => {
  it('sign out everywhere: /api/me reads answer 401, the film page is the anonymous one', async () => {
    const user = await createUserThrough();
    const headers = await signIn(user);
    await worker.app.request('/api/product/rating_star', {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ titlefilm: 'dat-rung-phuong-nam', starselect: 5 }),
    });
    await worker.db.update(users).set({ sessionEpoch: 7 }).where(eq(users.id, user.id));
    for (const path of MEMBER_READS) {
      const read = await request(path, headers);
      expect(read.status, path).toBe(401);
      expect(read.body).toEqual({ error: { code: 'unauthorized', message: 'Bạn cần đăng nhập' } });
    }
    const film = await request(FILM, headers);
    expect(film.status).toBe(200);
    expect(film.body.rating_star).toEqual({ rating: null });
    expect(film.res.headers.get('cache-control')).not.toContain('private');
  });

  it('a deleted user: /api/me reads answer 401', async () => {
    const user = await createUserThrough();
    const headers = await signIn(user);
    await worker.db.delete(users).where(eq(users.id, user.id));
    for (const path of MEMBER_READS) expect((await request(path, headers)).status, path).toBe(401);
  });

  it('no token: /api/me reads answer 401 without reading the database', async () => {
    for (const path of MEMBER_READS) {
      const read = await request(path);
      expect(read.status, path).toBe(401);
      expect(read.trips).toBe(0);
    }
  });
});

/** A user written through the app's own client (the Hrana server's database). */
async function createUserThrough(): Promise<TestUser> {
  return createUser(worker.db);
}
