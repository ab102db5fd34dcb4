// PUT /api/me/progress on the Worker path (@libsql/client/web against the Hrana test server): each
// pipeline the server sees is one network round trip to Turso in production. The write itself is one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../helpers/auth';
import { startWorkerPath, type WorkerPath } from '../helpers/worker-path';

let worker: WorkerPath;
let token = '';

beforeAll(async () => {
  let user: TestUser | undefined;
  worker = await startWorkerPath(async (db) => {
    user = await createUser(db);
  });
  const res = await worker.app.request('/api/dang-nhap', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.77' },
    body: JSON.stringify({ email: user?.email, password: user?.password }),
  });
  token = ((await res.json()) as { token: string }).token;
});
afterAll(async () => {
  await worker?.close();
});

const tripsOf = (path: string, init: RequestInit) => worker.measure(path, init);

describe('PUT /api/me/progress on the Worker path', () => {
  it('a batch of 50 items costs one round trip for the write (plus one reading the viewer)', async () => {
    const now = Date.now();
    const items = Array.from({ length: 50 }, (_, i) => ({
      slug: i % 2 ? 'dat-rung-phuong-nam' : 'mat-biec',
      episode: i + 1,
      position: 60 + i,
      duration: 2400,
      updatedAt: now - 1000 + i,
    }));
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    // A write's guard reads the viewer first (lib/auth-middleware.ts: requireViewer), in one round trip of its own;
    // a read carries it in its own batch (tests/api/signed-in-round-trips.test.ts): the list costs one.
    const read = await tripsOf('/api/me/watchlist', { headers });
    expect(read.status).toBe(200);
    expect(read.trips).toBe(1);
    const viewer = 1;
    const write = await tripsOf('/api/me/progress', { method: 'PUT', headers, body: JSON.stringify({ items }) });
    expect(write.status).toBe(200);
    expect(write.body).toEqual({ saved: 50 });
    expect(write.trips - viewer).toBe(1);
  });
});
