// `npm run bench -- edge`: the Worker entry as an operator runs it before deploying — `wrangler dev --local`
// (workerd) with the built PWA and renderer, the database behind tests/helpers/hrana-server.ts on a crawled
// demo catalogue, and a TCP proxy adding EDGE_DELAY_MS (20) each way in front of it, standing for the
// Worker→Turso hop. Per request: workerd CPU (summed over its threads from /proc/<pid>/task/*/schedstat,
// nanoseconds), DB round trips (pipelines counted by the Hrana server) and wall time. Misses run with
// PUBLIC_CACHE_SECONDS=0 (no cache of any kind); hits on a second workerd with the cache on.
// Loopback only; WRANGLER_SEND_METRICS and CLOUDFLARE_CF_FETCH_ENABLED are off.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildDemoCatalogue } from '../demo/catalogue';
import { startDemoSource } from '../demo/server';
import { freePort, stopChild } from '../party/dev-server';
import Database from 'libsql';
import { startHranaServer } from '../tests/helpers/hrana-server';
import { loadConfig } from '../worker/config';
import { openMigratedDatabase } from '../worker/db/node-client';
import { REPO_ROOT } from '../worker/node';
import { DEMO_ACCOUNTS, seedDemoAccounts } from '../worker/services/auth/demo-accounts';
import { runCrawl } from '../worker/services/crawler/index';

process.env.WRANGLER_SEND_METRICS = 'false';
process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false';

const DELAY_MS = Number(process.env.EDGE_DELAY_MS ?? 20);
const RUNS = Number(process.env.EDGE_RUNS ?? 25);
const label = process.env.EDGE_LABEL ?? 'this tree';

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
const p95 = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)] ?? Number.NaN;
};

/** A TCP proxy that holds every chunk DELAY_MS before passing it on, both ways (order kept per direction). */
async function startDelayProxy(target: URL): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const delayed = (from: Socket, to: Socket) => {
    let last = 0;
    from.on('data', (chunk) => {
      // Never earlier than the previous chunk: timers of equal delay may still reorder under load.
      const at = Math.max(Date.now() + DELAY_MS, last);
      last = at;
      setTimeout(() => to.writable && to.write(chunk), at - Date.now());
    });
    from.on('end', () => setTimeout(() => to.end(), Math.max(0, last - Date.now())));
    from.on('error', () => to.destroy());
  };
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
    delayed(client, upstream);
    delayed(upstream, client);
  });
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  };
}

function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      /* gone */
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/**
 * CPU time of a process in ms (schedstat: nanoseconds on CPU): all its threads, and the part of V8's helper
 * threads ("V8 DefaultWorker": the garbage collector's concurrent marking and sweeping, background compiles).
 * The rest is the thread that runs the isolates (the Worker, and miniflare's own entry and asset workers).
 */
function cpuMs(pid: number): { all: number; helpers: number } {
  let all = 0;
  let helpers = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const ns = Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
      all += ns;
      if (readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').startsWith('V8 ')) helpers += ns;
    } catch {
      /* thread ended */
    }
  }
  return { all: all / 1e6, helpers: helpers / 1e6 };
}

interface Workerd {
  base: string;
  pid: number;
  stop: () => Promise<void>;
}

async function startWorkerd(vars: Record<string, string>): Promise<Workerd> {
  const port = await freePort();
  const inspector = await freePort();
  const persist = mkdtempSync(join(tmpdir(), 'phimviet-edge-state-'));
  const args = ['wrangler', 'dev', '--local', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspector)];
  args.push('--persist-to', persist, '--show-interactive-dev-session=false', '--log-level', 'error');
  for (const [k, v] of Object.entries(vars)) args.push('--var', `${k}:${v}`);
  const child: ChildProcess = spawn('npx', ['--no-install', ...args], {
    cwd: REPO_ROOT,
    detached: true,
    env: { ...process.env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopChild(child);
    rmSync(persist, { recursive: true, force: true });
  };
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(`${base}/api/health`);
      if (res.ok) {
        // wrangler dev runs two workerd processes: its proxy on the public port and the runtime that runs the
        // Worker (the one with the inspector). The Worker's CPU is the second one's.
        const pid = descendants(child.pid!).find((p) => {
          try {
            return (
              readFileSync(`/proc/${p}/comm`, 'utf8').trim() === 'workerd' &&
              readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('--inspector-addr')
            );
          } catch {
            return false;
          }
        });
        if (!pid) throw new Error('no workerd process under wrangler');
        return { base, pid, stop };
      }
    } catch (error) {
      if (error instanceof Error && error.message.startsWith('no workerd')) {
        await stop();
        throw error;
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error('wrangler dev did not start');
}

interface Sample {
  cpu: number;
  /** Of cpu, what V8's helper threads spent (cpuMs). */
  helpers: number;
  trips: number;
  ms: number;
  status: number;
  bytes: number;
}

async function one(w: Workerd, pipelines: () => number, path: string, init?: RequestInit): Promise<Sample> {
  const c0 = cpuMs(w.pid);
  const t0 = pipelines();
  const s0 = performance.now();
  const res = await fetch(w.base + path, init);
  const body = await res.arrayBuffer();
  const ms = performance.now() - s0;
  // Work left to waitUntil (none on these reads) and the last chunk's bookkeeping settle within a tick.
  await new Promise((r) => setTimeout(r, 5));
  const c1 = cpuMs(w.pid);
  return {
    cpu: c1.all - c0.all,
    helpers: c1.helpers - c0.helpers,
    trips: pipelines() - t0,
    ms,
    status: res.status,
    bytes: body.byteLength,
  };
}

interface Row {
  name: string;
  cpu50: number;
  cpu95: number;
  /** CPU less V8's helper threads, p50 / p95. */
  own50: number;
  own95: number;
  trips: number;
  p50: number;
  bytes: number;
  status: number;
}

async function measure(
  w: Workerd,
  pipelines: () => number,
  name: string,
  /** The path, or the i-th request's path (warm-ups are -3 to -1). */
  path: string | ((i: number) => string),
  runs = RUNS,
  init?: () => RequestInit,
): Promise<Row> {
  const pathOf = typeof path === 'string' ? () => path : path;
  for (let i = -3; i < 0; i++) await one(w, pipelines, pathOf(i), init?.());
  const samples: Sample[] = [];
  for (let i = 0; i < runs; i++) samples.push(await one(w, pipelines, pathOf(i), init?.()));
  return {
    name,
    cpu50: median(samples.map((s) => s.cpu)),
    cpu95: p95(samples.map((s) => s.cpu)),
    own50: median(samples.map((s) => s.cpu - s.helpers)),
    own95: p95(samples.map((s) => s.cpu - s.helpers)),
    trips: median(samples.map((s) => s.trips)),
    p50: median(samples.map((s) => s.ms)),
    bytes: median(samples.map((s) => s.bytes)),
    status: samples[0]!.status,
  };
}

/** The build's JavaScript file whose size is nearest `bytes`, as a URL path (a static-file floor for hits). */
function staticFileNear(bytes: number): { path: string; bytes: number } | undefined {
  const dir = resolve(REPO_ROOT, 'web/dist/assets');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.js'))
    .map((f) => ({ path: `/assets/${f}`, bytes: statSync(resolve(dir, f)).size }))
    .sort((a, b) => Math.abs(a.bytes - bytes) - Math.abs(b.bytes - bytes))[0];
}

/**
 * A table of rows; "× floor" is each row's CPU p50 over the first row's (the runtime's own work for a request that
 * reaches the Worker, measured in the same run), so runs on machines of other speeds compare.
 */
function print(title: string, rows: Row[]) {
  const floor = rows[0]?.cpu50 ?? 0;
  console.log(`\n${title}`);
  console.log(
    'request                          status   CPU p50   CPU p95   × floor   without V8 helpers p50 / p95   DB trips   p50 ms     bytes',
  );
  for (const r of rows) {
    const ratio = floor > 0 ? (r.cpu50 / floor).toFixed(1) : '-';
    console.log(
      `${r.name.padEnd(32)} ${String(r.status).padStart(6)} ${r.cpu50.toFixed(1).padStart(9)} ${r.cpu95.toFixed(1).padStart(9)} ${ratio.padStart(9)} ${`${r.own50.toFixed(1)} / ${r.own95.toFixed(1)}`.padStart(29)} ${String(r.trips).padStart(10)} ${r.p50.toFixed(0).padStart(8)} ${String(r.bytes).padStart(9)}`,
    );
  }
}

async function ensureBuild() {
  if (existsSync(resolve(REPO_ROOT, 'web/dist/index.html')) && existsSync(resolve(REPO_ROOT, 'worker/ssr/dist/entry-server.js'))) return;
  console.log('• npm run build (web/dist and the renderer are missing)');
  await new Promise<void>((done, fail) =>
    spawn('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' }).once('exit', (code) =>
      code === 0 ? done() : fail(new Error('build failed')),
    ),
  );
}

const stops: (() => Promise<void>)[] = [];
const stopAll = async () => {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  stops.length = 0;
};
process.once('SIGINT', () => void stopAll().then(() => process.exit(130)));

try {
  await ensureBuild();
  const dir = mkdtempSync(join(tmpdir(), 'phimviet-edge-'));
  stops.push(async () => rmSync(dir, { recursive: true, force: true }));
  const demoPort = await freePort();
  const mediaBase = 'http://127.0.0.1:1/demo-media';
  let demo = await startDemoSource({ port: demoPort, mediaBase });

  // The catalogue: the demo source crawled into a file, as `npm start` does, plus the demo accounts.
  const file = join(dir, 'edge.db');
  const config = loadConfig({ APP_ENV: 'test', CRAWL_SOURCES: demo.url });
  {
    const database = await openMigratedDatabase(`file:${file}`);
    await seedDemoAccounts(database.db);
    await runCrawl(
      { db: database.db, fetch, config: { ...config, CRAWL_DELAY_MS: 0 }, now: Date.now },
      { source: demo.url, trigger: 'start' },
    );
    database.client.close();
  }
  const films = (await (await fetch(`${demo.url}/danh-sach/phim-bo?page=1`)).json()) as { items: { slug: string }[] };
  const series = films.items[0]!.slug;
  stops.push(() => demo.close());
  const hrana = await startHranaServer({ path: file, migrate: false });
  stops.push(hrana.close);
  const proxy = await startDelayProxy(new URL(hrana.url));
  stops.push(proxy.close);
  const pipelines = hrana.stats.pipelines;

  const vars = (cacheSeconds: number) => ({
    APP_ENV: 'test',
    DATABASE_URL: proxy.url,
    PUBLIC_CACHE_SECONDS: String(cacheSeconds),
    CRAWL_SOURCES: demo.url,
    CRAWL_SOURCE: demo.url,
    CRAWL_DELAY_MS: '0',
    // One waitUntil crawls the whole run (no Cron Trigger runs under wrangler dev to resume a paused one).
    CRAWL_TICK_BUDGET_MS: '600000',
    JWT_SECRET: 'edge-bench-only-secret-0123456789abcdef',
    PARTY_SECRET: 'edge-bench-party-secret',
  });

  // A word in many demo titles (Phương Nam, Nam…): a full page of 24 results, as a search page usually shows. ('phim',
  // this bench's word until 2026-11-24, matches no demo title: its row measured the empty-result page.)
  const searchWord = 'nam';

  console.log(`\nEdge benchmark (${label}): wrangler dev --local, Hrana over a proxy adding ${DELAY_MS} ms each way`);
  console.log(
    `${RUNS} requests each after 3 warm-ups, one at a time; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  // Misses: no cache at all.
  const cold = await startWorkerd(vars(0));
  stops.push(cold.stop);
  const pages: [string, string][] = [
    // The floors: what the local runtime itself spends on a request that reaches the Worker (HTTP, wrangler's
    // entry and asset-router workers, Hono's middleware) with no database work (an unknown API path, its 404
    // JSON), and with one round trip that reads nothing (the health check).
    ['floor: no DB (/api/none, 404)', '/api/none'],
    ['floor: /api/health', '/api/health'],
    ['SSR home', '/'],
    ['SSR listing /phim-bo', '/phim-bo'],
    ['SSR film', `/${series}`],
    ['SSR watch', `/xem-phim/${series}/tap-1`],
    ['SSR search', `/tim-kiem/${searchWord}`],
    ['API home', '/api/product/product-home'],
    ['API listing', '/api/product/product-phimbo'],
    ['API film', `/api/product/${series}`],
  ];
  const missRows: Row[] = [];
  for (const [name, path] of pages) missRows.push(await measure(cold, pipelines, name, path));

  const user = DEMO_ACCOUNTS.find((a) => a.label === 'user')!;
  const admin = DEMO_ACCOUNTS.find((a) => a.label === 'admin')!;
  const loginInit = (account: typeof user) => () => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  missRows.push(await measure(cold, pipelines, 'login (PBKDF2)', '/api/dang-nhap', 3, loginInit(user)));
  const login = (await (await fetch(`${cold.base}/api/dang-nhap`, loginInit(user)())).json()) as { accessToken?: string; token?: string };
  const token = login.accessToken ?? login.token;
  if (token)
    missRows.push(
      await measure(cold, pipelines, 'API film, signed in', `/api/product/${series}`, RUNS, () => ({
        headers: { authorization: `Bearer ${token}` },
      })),
    );
  print('Cache misses (PUBLIC_CACHE_SECONDS=0)', missRows);

  // Admin crawls of the whole demo source on the Worker: first with nothing changed at the source (every film
  // skipped by its checksum), then after the source changed every film (every film rewritten).
  const adminLogin = (await (await fetch(`${cold.base}/api/dang-nhap`, loginInit(admin)())).json()) as {
    accessToken?: string;
    token?: string;
  };
  const adminToken = adminLogin.accessToken ?? adminLogin.token;
  const crawl = async (what: string) => {
    const c0 = cpuMs(cold.pid);
    const t0 = pipelines();
    const s0 = performance.now();
    const started = await fetch(`${cold.base}/api/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ category: ['Phim Bộ', 'Phim Lẻ', 'Phim Shows', 'Phim Sắp Chiếu'] }),
    });
    const { runId } = (await started.json()) as { runId?: number };
    // Watched in the database file itself (not through the Worker): every round trip counted is the crawl's.
    const watch = new Database(file, { readonly: true });
    type Run = { status: string; pagesDone: number; filmsNew: number; filmsUpdated: number; filmsSkipped: number; filmsFailed: number };
    const read = watch.prepare(
      'select status, pages_done as pagesDone, films_new as filmsNew, films_updated as filmsUpdated, films_skipped as filmsSkipped, films_failed as filmsFailed from crawl_runs where id = ?',
    );
    let run = read.get(runId) as Run | undefined;
    for (let i = 0; i < 12_000 && run?.status === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      run = read.get(runId) as Run | undefined;
    }
    watch.close();
    const ms = performance.now() - s0;
    console.log(
      `Admin crawl, ${what}: ${run?.status}, ${run?.pagesDone} pages, ${run?.filmsNew} new / ${run?.filmsUpdated} updated / ${run?.filmsSkipped} skipped / ${run?.filmsFailed} failed: ` +
        `${(ms / 1000).toFixed(1)} s, ${(cpuMs(cold.pid).all - c0.all).toFixed(0)} ms workerd CPU, ${pipelines() - t0} DB round trips`,
    );
  };
  console.log('');
  await crawl('source unchanged');
  await demo.close();
  demo = await startDemoSource({
    port: demoPort,
    mediaBase,
    films: buildDemoCatalogue().map((f) => ({ ...f, content: `${f.content} (2)` })),
  });
  await crawl('every film changed at the source');
  await cold.stop();

  // Hits and a fresh isolate: the cache on.
  const warm = await startWorkerd(vars(60));
  stops.push(warm.stop);
  const first = await one(warm, pipelines, '/');
  console.log(`\nFirst SSR request of a fresh isolate: ${first.cpu.toFixed(1)} ms CPU, ${first.trips} DB trips, ${first.ms.toFixed(0)} ms`);
  const hitRows: Row[] = [];
  // A floor is not stored (404, no-store): with the cache on, it pays the Cache API's lookup (a miss) too.
  for (const [name, path] of pages)
    hitRows.push(await measure(warm, pipelines, name.startsWith('floor') ? `${name}, cache on` : `${name} (hit)`, path));
  // A miss as a visitor meets it with the cache on (a URL nobody asked for yet): the lookups of both layers
  // miss, the answer is produced as above, then kept in both. Here caches.default is miniflare's simulation,
  // a worker of this same workerd process; the floor rows' difference between the two tables is its lookup.
  hitRows.push(await measure(warm, pipelines, 'SSR film, miss with cache on', (i) => `/${series}?lan=${i}`));
  hitRows.push(await measure(warm, pipelines, 'API film, miss with cache on', (i) => `/api/product/${series}?lan=${i}`));
  // What a hit is measured against: Static Assets answering a file of a page's size, no Worker code at all.
  const asset = staticFileNear(80_000);
  if (asset) hitRows.push(await measure(warm, pipelines, `floor: static file, ${Math.round(asset.bytes / 1000)} KB`, asset.path));
  print('Cache on (PUBLIC_CACHE_SECONDS=60), the same URL again', hitRows);
} finally {
  await stopAll();
}
