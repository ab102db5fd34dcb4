// `npm run bench`: the catalogue API on 20,000 generated films, measured against the Node host.
// `npm run bench -- live`: the live-comment room benchmark (bench/live.ts); `-- load`: 500 connections for
// 60 s (bench/load.ts); `-- service`: in-process service time vs its SQL at 20k and 100k (bench/service.ts).
// Loopback only; every load is bounded in time and stops by itself.
import autocannon from 'autocannon';
import type { EventEmitter } from 'node:events';
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fold } from '../worker/db/fold';
import { benchDbFile, ensureCatalogue } from './catalogue';
import { startBenchServer } from './server';

const FILMS = Number(process.env.BENCH_FILMS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const PORT = Number(process.env.BENCH_PORT ?? 8799);
const DB_FILE = benchDbFile(FILMS);
const BASE = `http://127.0.0.1:${PORT}`;

// Other benchmarks of this folder: `npm run bench -- live | load | service | edge | startup | downloads | together | comment-filter | crawl` (edge: the Worker in workerd, bench/edge.ts; startup: tap → first frame on the watch page, bench/startup.ts; downloads: a 45-minute episode downloaded vs a plain fetch loop, longest task and heap, bench/downloads.ts; together: watch parties' drift and late joiners, bench/together.ts; comment-filter: the comment filter over 10,000 comments, p50/p99 per comment against fold() alone, bench/comment-filter.ts; crawl: round trips per new and per merged film of two sources sharing most films, bench/crawl.ts; crash: the host killed with SIGKILL inside requests and restarted, 200 rounds, bench/crash.ts; durability: synchronous FULL vs NORMAL on writes, and a backup of 100 MB while the site serves, bench/durability.ts; light-crawl: a published episode to its push enqueued, one scheduler tick, bench/light-crawl.ts; related: "Phim tương tự" hit rate @8 against the genre list, and the film API at 20,000 films, bench/related.ts).
for (const other of [
  'live',
  'load',
  'service',
  'edge',
  'startup',
  'downloads',
  'together',
  'comment-filter',
  'crawl',
  'premiere',
  'account-export',
  'crash',
  'light-crawl',
  'durability',
  'related',
] as const) {
  if (process.argv.includes(other)) {
    await import(`./${other}`);
    process.exit(process.exitCode ?? 0);
  }
}

async function startServer(cacheSeconds: number): Promise<() => void> {
  const server = await startBenchServer({ dbFile: DB_FILE, port: PORT, cacheSeconds });
  return server.stop;
}

interface Measured {
  name: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  bytesPerReq: number;
  errors: number;
  hitRate: number;
}

async function load(name: string, paths: string[]): Promise<Measured> {
  let next = 0;
  let hits = 0;
  let responses = 0;
  // autocannon returns an emitter that is also a promise of the result; its types only know the promise.
  const instance = autocannon({
    url: BASE,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length]! }) }],
  }) as unknown as EventEmitter & Promise<autocannon.Result>;
  instance.on('response', (client: unknown, _status: number, _bytes: number, _ms: number) => {
    responses++;
    const headers = (client as { parser?: { info?: { headers?: string[] } } }).parser?.info?.headers;
    if (headers?.some((h) => h.toLowerCase() === 'hit')) hits++;
  });
  const result = await instance;
  return {
    name,
    reqPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytesPerReq: Math.round(result.throughput.total / Math.max(1, result.requests.total)),
    errors: result.errors + result.non2xx,
    hitRate: responses ? hits / responses : 0,
  };
}

/** The spec's way: download every film from GET /api/product, then filter titles in the browser. */
async function wholeCatalogueSuggest(query: string): Promise<{ ms: number; bytes: number; found: number }> {
  const started = performance.now();
  let bytes = 0;
  const all: { title: string }[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(`${BASE}/api/product?pageSize=100&page=${page}`);
    const text = await res.text();
    bytes += Buffer.byteLength(text);
    const body = JSON.parse(text) as { data: { title: string }[]; pagination: { totalPages: number } };
    all.push(...body.data);
    if (page >= body.pagination.totalPages) break;
  }
  const needle = query.toLowerCase();
  const found = all.filter((f) => f.title.toLowerCase().includes(needle)).slice(0, 5).length;
  return { ms: performance.now() - started, bytes, found };
}

const titles = await ensureCatalogue(FILMS);
let stop = await startServer(10);
try {
  const detailPaths: string[] = [];
  for (let page = 1; page <= 20; page++) {
    const body = (await (await fetch(`${BASE}/api/product?pageSize=100&page=${page}`)).json()) as { data: { slug: string }[] };
    detailPaths.push(...body.data.map((f) => `/api/product/${f.slug}`));
  }
  const listingPaths = ['phimbo', 'phimle', 'phimhanhdong', 'han-quoc', 'phimtinhcam', 'trung-quoc'].flatMap((endpoint) =>
    Array.from(
      { length: 20 },
      (_, p) => `/api/product/product-${endpoint}?page=${p + 1}${p % 3 === 0 ? '&sort=views' : ''}${p % 4 === 0 ? '&year=2020' : ''}`,
    ),
  );
  const queries = titles.slice(0, 2000).map((title, i) => {
    const words = title.split(' ');
    const phrase = words.slice(0, 1 + (i % 2)).join(' ');
    return i % 2 === 0 ? fold(phrase) : phrase; // half typed without diacritics
  });
  const suggestPaths = queries.map((q) => `/api/product/search?q=${encodeURIComponent(q)}&limit=5`);

  const scenarios = async () => [
    // The floor: routing, middleware and one trivial query, on the same host under the same load.
    await load('floor: /api/health', ['/api/health']),
    await load('listing page', listingPaths),
    await load('film detail', detailPaths),
    await load('search suggestions', suggestPaths),
  ];
  const print = (title: string, results: Measured[]) => {
    console.log(`\n${title}`);
    // The floor ran on the same host a few seconds earlier: p99 over the floor's p99 is what the endpoint
    // itself adds, whatever else the shared machine was doing.
    const floor = results[0]!;
    console.log('scenario              req/s    p50 ms   p99 ms  p99/floor  bytes/req  errors  cache hits');
    for (const r of results) {
      console.log(
        `${r.name.padEnd(20)} ${String(r.reqPerSec).padStart(6)}  ${String(r.p50).padStart(7)}  ${String(r.p99).padStart(7)}  ${`${(r.p99 / floor.p99).toFixed(1)}×`.padStart(9)}  ${String(r.bytesPerReq).padStart(9)}  ${String(r.errors).padStart(6)}  ${(r.hitRate * 100).toFixed(0).padStart(9)}%`,
      );
    }
    console.log(
      `load average ${loadavg()
        .map((x) => x.toFixed(1))
        .join(' ')} (the machine is shared)`,
    );
  };
  console.log(`\nCatalogue benchmark: ${FILMS} films, ${CONNECTIONS} connections, ${SECONDS} s per scenario, Node host on a libSQL file`);
  console.log(
    `URL sets: ${listingPaths.length} listing pages, ${detailPaths.length} films, ${suggestPaths.length} search queries (rotated)`,
  );
  print('With the public read cache (PUBLIC_CACHE_SECONDS=10, the default):', await scenarios());
  stop();
  stop = await startServer(0);
  print('Without it (PUBLIC_CACHE_SECONDS=0): every request reaches the database', await scenarios());

  // Side by side, one client, no load: a suggestion from our endpoint vs the whole-catalogue way.
  const sample = queries.slice(0, 5);
  const ours: { ms: number; bytes: number }[] = [];
  const theirs: { ms: number; bytes: number }[] = [];
  for (const q of sample) {
    const started = performance.now();
    const text = await (await fetch(`${BASE}/api/product/search?q=${encodeURIComponent(q)}&limit=5`)).text();
    ours.push({ ms: performance.now() - started, bytes: Buffer.byteLength(text) });
    theirs.push(await wholeCatalogueSuggest(q));
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const oursMs = median(ours.map((x) => x.ms));
  const theirsMs = median(theirs.map((x) => x.ms));
  const oursBytes = median(ours.map((x) => x.bytes));
  const theirsBytes = median(theirs.map((x) => x.bytes));
  console.log('\nSuggestions, one client, median of 5 queries:');
  console.log(`  server search      ${oursMs.toFixed(2)} ms   ${oursBytes} bytes`);
  console.log(`  whole catalogue    ${theirsMs.toFixed(0)} ms   ${theirsBytes} bytes  (GET /api/product, every page, filtered in JS)`);
  console.log(`  ratio              ${(theirsMs / oursMs).toFixed(0)}x time, ${(theirsBytes / oursBytes).toFixed(0)}x bytes`);
} finally {
  stop();
}
if (process.env.BENCH_CLEAN) rmSync(DB_FILE, { force: true });
