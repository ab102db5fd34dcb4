// Round trips on the Worker path: the app over @libsql/client/web, as worker/index.ts builds it, against
// the Hrana test server. Each pipeline the server sees is one network round trip to Turso in production.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkerPath, type WorkerPath } from '../helpers/worker-path';

let worker: WorkerPath;
beforeAll(async () => {
  worker = await startWorkerPath();
});
afterAll(async () => {
  await worker?.close();
});

/** Round trips one request costs, and its status. */
const roundTrips = (url: string) => worker.measure(url);

/** Every public read endpoint of the goal; one line each as endpoints are added. */
const PUBLIC_READS: [string, string][] = [
  ['home', '/api/product/product-home'],
  ["home's first screen", '/api/product/home-top'],
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
  ["an episode's learned intro and credits", '/api/segments/dat-rung-phuong-nam/tap-1?server=Vietsub%20%231'],
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

describe("an episode's learned intro and credits (issue 40 §7): one statement", () => {
  it('one round trip', async () => {
    const { trips, status } = await roundTrips('/api/segments/dat-rung-phuong-nam/tap-1?server=Vietsub%20%231');
    expect(status).toBe(200);
    expect(trips).toBe(1);
  });
});

describe('the home, its first screen and the sidebar: one round trip each', () => {
  it('home and sidebar stay one batch while trending has to be topped up (no views yet)', async () => {
    for (const path of ['/api/product/product-home', '/api/product/home-top', '/api/product/sidebar']) {
      const { trips, status } = await roundTrips(path);
      expect(status).toBe(200);
      expect(trips, path).toBe(1);
    }
  });
});
