// Round trips on the Worker path: the app over @libsql/client/web, as worker/index.ts builds it, against
// the Hrana test server. Each pipeline the server sees is one network round trip to Turso in production.
import { createClient } from '@libsql/client/web';
import { drizzle } from 'drizzle-orm/libsql/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../worker/app';
import { loadConfig } from '../../worker/config';
import { schema } from '../../worker/db/client';
import { openDatabase } from '../../worker/db/node-client';
import { seedCatalogue } from '../helpers/catalogue-fixture';
import { type HranaServer, startHranaServer } from '../helpers/hrana-server';

let server: HranaServer;
let app: ReturnType<typeof createApp>;
const closers: (() => void)[] = [];

beforeAll(async () => {
  server = await startHranaServer();
  // Seeded through a file connection (fast); the app reads through Hrana like a Worker.
  const local = openDatabase(`file:${server.path}`);
  await seedCatalogue(local.db);
  local.client.close();
  const client = createClient({ url: server.url });
  closers.push(() => client.close());
  const config = loadConfig({ APP_ENV: 'test', PUBLIC_CACHE_SECONDS: '0' });
  app = createApp({ db: drizzle(client, { schema }), config, now: Date.now, fetch: globalThis.fetch });
  // The client's first call probes the protocol version: not a cost of any endpoint.
  await app.request('/api/health');
});
afterAll(async () => {
  for (const close of closers) close();
  await server?.close();
});

/** Round trips one request costs, and its status. */
async function roundTrips(path: string): Promise<{ trips: number; status: number }> {
  const before = server.stats.pipelines();
  const res = await app.request(path);
  await res.arrayBuffer();
  return { trips: server.stats.pipelines() - before, status: res.status };
}

/** Every public read endpoint of the goal; one line each as endpoints are added. */
const PUBLIC_READS: [string, string][] = [
  ['home', '/api/product/product-home'],
  ['sidebar', '/api/product/sidebar'],
  ['category listing', '/api/product/product-phimbo?page=1'],
  ['genre listing with filters', '/api/product/product-phimhanhdong?page=1&sort=views&year=2023'],
  ['country listing', '/api/product/product-han-quoc?page=1'],
  ['detail', '/api/product/dat-rung-phuong-nam'],
  ['detail by id', '/api/product/getdetail_xemphim/1'],
  ['episode', '/api/product/dat-rung-phuong-nam/tap-1'],
  ['search (FTS)', '/api/product/search?q=dat%20rung'],
  ['search (short prefix)', '/api/product/search?q=ma'],
  ['category', '/api/category'],
  ['comments', '/api/product/dat-rung-phuong-nam/comments'],
];

describe('public reads cost at most 2 database round trips on the Worker path', () => {
  for (const [name, path] of PUBLIC_READS) {
    it(name, async () => {
      const { trips, status } = await roundTrips(path);
      expect(status).toBe(200);
      expect(trips, `${path}: ${trips} round trips`).toBeLessThanOrEqual(2);
    });
  }
});

describe('a page and its sidebar: one round trip each, so a listing page renders in two', () => {
  it('home and sidebar stay one batch while trending has to be topped up (no views yet)', async () => {
    for (const path of ['/api/product/product-home', '/api/product/sidebar']) {
      const { trips, status } = await roundTrips(path);
      expect(status).toBe(200);
      expect(trips, path).toBe(1);
    }
  });
});
