// PUT /api/me/progress on the Worker path (@libsql/client/web against the Hrana test server): each
// pipeline the server sees is one network round trip to Turso in production. The write itself is one.
import { createClient } from '@libsql/client/web';
import { drizzle } from 'drizzle-orm/libsql/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../worker/app';
import { loadConfig } from '../../worker/config';
import { schema } from '../../worker/db/client';
import { openDatabase } from '../../worker/db/node-client';
import { createUser } from '../helpers/auth';
import { seedCatalogue } from '../helpers/catalogue-fixture';
import { type HranaServer, startHranaServer } from '../helpers/hrana-server';

let server: HranaServer;
let app: ReturnType<typeof createApp>;
let token = '';
const closers: (() => void)[] = [];

beforeAll(async () => {
  server = await startHranaServer();
  const local = openDatabase(`file:${server.path}`);
  await seedCatalogue(local.db);
  const user = await createUser(local.db);
  local.client.close();
  const client = createClient({ url: server.url });
  closers.push(() => client.close());
  app = createApp({ db: drizzle(client, { schema }), config: loadConfig({ APP_ENV: 'test' }), now: Date.now, fetch: globalThis.fetch });
  const res = await app.request('/api/dang-nhap', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.77' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  token = ((await res.json()) as { token: string }).token;
});
afterAll(async () => {
  for (const close of closers) close();
  await server?.close();
});

async function tripsOf(path: string, init: RequestInit): Promise<{ trips: number; status: number }> {
  const before = server.stats.pipelines();
  const res = await app.request(path, init);
  await res.arrayBuffer();
  return { trips: server.stats.pipelines() - before, status: res.status };
}

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
    const before = server.stats.pipelines();
    const res = await app.request('/api/me/progress', { method: 'PUT', headers, body: JSON.stringify({ items }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ saved: 50 });
    expect(server.stats.pipelines() - before - viewer).toBe(1);
  });
});
