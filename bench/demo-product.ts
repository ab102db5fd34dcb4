// The product as `npm start` runs it (built PWA, SSR renderer, demo crawl) on free ports and a temporary
// database, for the browser benchmarks (bench/lighthouse.ts, bench/page-cpu.ts), and the pages they measure.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, stopChild } from '../party/dev-server';
import { REPO_ROOT } from '../worker/node';

async function waitFor(url: string, ready: (body: unknown) => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok && ready(await res.json())) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms`);
}

/**
 * The product as scripts/start.ts runs it (built PWA, demo crawl), on free ports and a temporary database.
 * `root` runs another checkout of the repository (its own build and node_modules), e.g. main before a change.
 */
export async function startProduct(options: { root?: string } = {}): Promise<{ base: string; dbFile: string; stop: () => Promise<void> }> {
  const root = options.root ?? REPO_ROOT;
  const dir = mkdtempSync(join(tmpdir(), 'phimviet-lighthouse-'));
  const [port, demoPort, partyPort, paymentPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const base = `http://localhost:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: root,
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: `file:${join(dir, 'lighthouse.db')}`,
      PUBLIC_URL: base,
      DEMO_SOURCE_PORT: String(demoPort),
      CRAWL_SOURCES: `http://127.0.0.1:${demoPort}`,
      PARTYKIT_HOST: `http://127.0.0.1:${partyPort}`,
      PAYMENT_STANDIN_PORT: String(paymentPort),
      APP_ENV: 'test',
    },
    stdio: 'ignore',
  });
  const stop = async () => {
    await stopChild(server);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(`${base}/api/health`, (b) => (b as { ok?: boolean }).ok === true, 240_000);
    await waitFor(`${base}/api/product?page=1`, (b) => ((b as { data?: unknown[] }).data?.length ?? 0) > 0, 120_000);
    // The demo crawl goes on after the first films appear; measuring beside it would measure the crawl too.
    // Wait until the catalogue size stays the same over 18 s (longer than the 10 s public read cache).
    let last = -1;
    for (let stable = 0, i = 0; stable < 3 && i < 60; i++) {
      const page = (await (await fetch(`${base}/api/product?page=1`)).json()) as { pagination?: { totalItems?: number } };
      const total = page.pagination?.totalItems ?? 0;
      stable = total === last ? stable + 1 : 0;
      last = total;
      await new Promise((r) => setTimeout(r, 6000));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, dbFile: join(dir, 'lighthouse.db'), stop };
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** Home, a listing and the first film's page: [name, path]. */
export async function pagesToMeasure(base: string): Promise<[string, string][]> {
  const films = (await (await fetch(`${base}/api/product/product-phimle`)).json()) as { data: { slug: string }[] };
  const film = films.data[0]?.slug;
  if (!film)
    return [
      ['home', '/'],
      ['listing', '/phim-bo'],
    ];
  // The watch page of the film's first episode (the player's page: its chunk loads only there).
  const detail = (await (await fetch(`${base}/api/product/${film}`)).json()) as { datafilm?: { linkfilms?: { episode: number }[] } };
  const episode = detail.datafilm?.linkfilms?.[0]?.episode;
  return [
    ['home', '/'],
    ['listing', '/phim-bo'],
    ['film', `/${film}`],
    ...(episode !== undefined ? [['watch', `/xem-phim/${film}/tap-${episode}`] as [string, string]] : []),
  ];
}
