// Issue 17 goal 3 on the Worker path: a server-rendered page reads the database over Hrana (as Turso is read from
// a Worker) in one round trip. Each page carries only what it renders (decision 0904), so the home does not read
// every list of the home, nor a listing its sidebar.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderShell, type SsrEntry } from '../../worker/ssr/render';
import { buildSsrEntry } from '../helpers/ssr-build';
import { startWorkerPath, type WorkerPath } from '../helpers/worker-path';

// The shape of web/index.html after a build (tests/api/ssr-node.test.ts).
const SHELL =
  '<!doctype html><html lang="vi"><head><script src="/assets/boot-abc.js" async></script><meta charset="UTF-8" /><title>PhimViet</title></head><body><div id="root"></div><!--/app--><script type="module" src="/assets/index-abc.js"></script></body></html>';
const ORIGIN = 'https://phimviet.example';

let worker: WorkerPath;
let load: () => Promise<SsrEntry>;

beforeAll(async () => {
  worker = await startWorkerPath();
  ({ load } = await buildSsrEntry());
}, 120_000);

afterAll(async () => {
  await worker?.close();
});

/** One page rendered as a host renders it, its reads the app's, in-process: its round trips and what it sent. */
async function render(path: string) {
  const before = worker.server.stats.pipelines();
  const page = await renderShell(SHELL, new URL(path, ORIGIN), load, (request) => worker.app.fetch(request), ORIGIN);
  return { trips: worker.server.stats.pipelines() - before, page };
}

const PAGES: [string, string][] = [
  ['home', '/'],
  ['category listing', '/phim-bo'],
  ['filtered listing', '/phim-le?sort=views&page=1'],
  ['genre listing', '/the-loai/hanh-dong'],
  ['country listing', '/han-quoc'],
  ['film', '/dat-rung-phuong-nam'],
  ['watch', '/xem-phim/dat-rung-phuong-nam/tap-1'],
  ['search', '/tim-kiem/dat'],
];

describe('a server-rendered page costs one database round trip on the Worker path', () => {
  for (const [name, path] of PAGES) {
    it(name, async () => {
      const { trips, page } = await render(path);
      expect(page.status, path).toBe(200);
      expect(page.html, `${path} was rendered`).toContain('id="ssr-state"');
      expect(trips, `${path}: ${trips} round trips`).toBe(1);
    });
  }
});
