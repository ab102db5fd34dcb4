// `npm run bench -- service`: where an uncached request's time goes, in-process (app.request, no HTTP,
// read cache off). For each endpoint, the median time of the whole request beside the median time of the
// very SQL statements it ran (both as CPU time of the process, so other work on the machine does not count), replayed directly on the same libSQL client right after: the ratio is the
// app's own cost (routing, validation, drizzle's mapping, JSON) over the database's.
// Sizes: BENCH_SIZES=20000,100000 (default); each catalogue is written once (bench/catalogue.ts).
// Profile it with `node --cpu-prof --cpu-prof-dir=data/prof --import tsx bench/service.ts`, then
// `tsx bench/profile-top.ts data/prof` prints the functions that took the time.
import type { InArgs, InStatement } from '@libsql/client';
import { loadConfig } from '../worker/config';
import { fold } from '../worker/db/fold';
import { openMigratedDatabase } from '../worker/db/node-client';
import { createApp } from '../worker/app';
import { compressBody } from '../worker/lib/compress-dynamic';
import { refreshTrending } from '../worker/services/catalogue/trending';
import { benchDbFile, ensureCatalogue, ensureHeavyViews } from './catalogue';

const SIZES = (process.env.BENCH_SIZES ?? '20000,100000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 300);
/** BENCH_ONLY=home,search: measure only the endpoints whose names contain one of these words. */
const ONLY = process.env.BENCH_ONLY?.split(',');
/** View events of the home's heavy variant: a catalogue whose viewers have been busy for a month. */
const HEAVY_VIEWS = Number(process.env.BENCH_HEAVY_VIEWS ?? 1_000_000);

type Recorded = { kind: 'execute'; stmt: InStatement | string; args?: InArgs } | { kind: 'batch'; stmts: InStatement[] };

/** CPU time of this process in ms: immune to other work on a shared machine, unlike the wall clock. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** An app on a bench database whose client records what each request sends, to replay it directly. */
async function instrumentedApp(file: string) {
  const database = await openMigratedDatabase(`file:${file}`);
  const { client } = database;
  const state: { recording: Recorded[] | null } = { recording: null };
  const execute = client.execute.bind(client) as (stmt: InStatement | string, args?: InArgs) => ReturnType<typeof client.execute>;
  const batch = client.batch.bind(client);
  Object.assign(client, {
    execute: (stmt: InStatement | string, args?: InArgs) => {
      state.recording?.push({ kind: 'execute', stmt, args });
      return execute(stmt, args);
    },
    batch: (stmts: InStatement[], mode?: Parameters<typeof client.batch>[1]) => {
      state.recording?.push({ kind: 'batch', stmts });
      return batch(stmts, mode);
    },
  });
  const replay = async (calls: Recorded[]) => {
    for (const call of calls) {
      if (call.kind === 'batch') await batch(call.stmts, 'read');
      else await execute(call.stmt, call.args);
    }
  };
  // As the minute scheduler of a running host would have: trending windows start at this hour.
  await refreshTrending(database.db, Date.now());
  const config = loadConfig({ APP_ENV: 'test', PUBLIC_CACHE_SECONDS: '0' });
  const app = createApp({ db: database.db, config, now: Date.now, fetch: globalThis.fetch });
  return { app, state, execute, replay, close: () => client.close() };
}

async function measureSize(size: number) {
  const titles = await ensureCatalogue(size);
  const main = await instrumentedApp(benchDbFile(size));
  const heavy =
    !ONLY || ONLY.some((word) => 'home'.includes(word)) ? await instrumentedApp(await ensureHeavyViews(size, HEAVY_VIEWS)) : main;
  const { execute } = main;

  const slugs = (await execute(`select slug from films where id % ${Math.max(1, Math.floor(size / 500))} = 0 limit 500`)).rows.map((r) =>
    String(r.slug),
  );
  const listings = ['phimbo', 'phimle', 'phimhanhdong', 'han-quoc', 'phimtinhcam', 'trung-quoc'].flatMap((endpoint) =>
    Array.from(
      { length: 20 },
      (_, p) => `/api/product/product-${endpoint}?page=${p + 1}${p % 3 === 0 ? '&sort=views' : ''}${p % 4 === 0 ? '&year=2020' : ''}`,
    ),
  );
  // The filter bar inside a genre, a country or a category: a year, a type, both, a second facet; pages 1–3.
  const filtered = ['phimhanhdong', 'han-quoc', 'phimbo', 'phimtinhcam', 'trung-quoc', 'phimle'].flatMap((endpoint, e) =>
    Array.from({ length: 20 }, (_, p) => {
      const year = 2010 + ((p + e) % 17);
      const filter = [`year=${year}`, `type=${24 + (p % 2)}`, `year=${year}&type=24`, `country=han-quoc&year=${year}`][p % 4];
      return `/api/product/product-${endpoint}?page=${1 + (p % 3)}&${filter}${p % 5 === 0 ? '&sort=views' : ''}`;
    }),
  );
  // The filter bar's keyword inside a listing: a common word, a title's first two words, a short prefix.
  const keywords = ['phimbo', 'phimhanhdong', 'han-quoc'].flatMap((endpoint) =>
    titles.slice(0, 20).map((title, i) => {
      const words = fold(title).split(' ');
      const keyword = [words[0]!, words.slice(0, 2).join(' '), words[0]!.slice(0, 2)][i % 3]!;
      return `/api/product/product-${endpoint}?keyword=${encodeURIComponent(keyword)}${i % 4 === 0 ? '&sort=views' : ''}`;
    }),
  );
  const searches = titles.slice(0, 500).map((title, i) => {
    const phrase = title
      .split(' ')
      .slice(0, 1 + (i % 2))
      .join(' ');
    return `/api/product/search?q=${encodeURIComponent(i % 2 === 0 ? fold(phrase) : phrase)}&limit=5`;
  });
  const allEndpoints: [string, string[]][] = [
    ['floor: /api/health', ['/api/health']],
    ['home', ['/api/product/product-home']],
    [`home, ${HEAVY_VIEWS / 1e6}M view events`, ['heavy:/api/product/product-home']],
    ['listing page', listings],
    ['listing, filter bar', filtered],
    ['listing, keyword', keywords],
    ['film detail', slugs.map((s) => `/api/product/${s}`)],
    ['episode', slugs.map((s) => `/api/product/${s}/tap-1`)],
    ['search suggestions', searches],
  ];
  const endpoints = allEndpoints.filter(([name]) => !ONLY || ONLY.some((word) => name.includes(word)));

  const rows: { name: string; service: number; sql: number; statements: number }[] = [];
  for (const [name, paths] of endpoints) {
    const service: number[] = [];
    const sql: number[] = [];
    let statements = 0;
    const runs = name.startsWith('home') ? Math.min(RUNS, 60) : RUNS;
    for (let i = 0; i < runs + 20; i++) {
      const [on, path] = paths[i % paths.length]!.startsWith('heavy:')
        ? [heavy, paths[i % paths.length]!.slice('heavy:'.length)]
        : [main, paths[i % paths.length]!];
      const { app, state, replay } = on;
      // Once unmeasured, so the measured request and the replay both find SQLite's pages in its cache.
      await (await app.request(path)).arrayBuffer();
      state.recording = [];
      const started = cpuMs();
      const res = await app.request(path);
      await res.arrayBuffer();
      const took = cpuMs() - started;
      const calls = state.recording;
      state.recording = null;
      if (res.status !== 200) throw new Error(`${path} → ${res.status}`);
      const replayStarted = cpuMs();
      await replay(calls);
      const sqlTook = cpuMs() - replayStarted;
      if (i < 20) continue; // warm-up
      service.push(took);
      sql.push(sqlTook);
      statements = calls.reduce((n, c) => n + (c.kind === 'batch' ? c.stmts.length : 1), 0);
    }
    rows.push({ name, service: median(service), sql: median(sql), statements });
  }
  main.close();
  if (heavy !== main) heavy.close();
  return rows;
}

/** CPU per response of compressing one listing answer, the old way (hono/compress) and the host's way. */
async function measureCompression(body: Uint8Array<ArrayBuffer>) {
  const time = async (fn: () => unknown | Promise<unknown>) => {
    const runs: number[] = [];
    for (let i = 0; i < 220; i++) {
      const started = cpuMs();
      await fn();
      if (i >= 20) runs.push(cpuMs() - started);
    }
    return median(runs);
  };
  const stream = (format: 'gzip') => new Response(new Response(body).body!.pipeThrough(new CompressionStream(format))).arrayBuffer();
  return [
    {
      name: 'gzip via CompressionStream (hono/compress, before)',
      ms: await time(() => stream('gzip')),
      bytes: (await stream('gzip')).byteLength,
    },
    {
      name: 'brotli 4, one sync call (after, browsers)',
      ms: await time(() => compressBody(body, 'br')),
      bytes: compressBody(body, 'br').byteLength,
    },
    {
      name: 'gzip 4, one sync call (after, no br)',
      ms: await time(() => compressBody(body, 'gzip')),
      bytes: compressBody(body, 'gzip').byteLength,
    },
  ];
}

const results = new Map<number, Awaited<ReturnType<typeof measureSize>>>();
for (const size of SIZES) results.set(size, await measureSize(size));

console.log(`\nUncached service CPU time in-process (median of ${RUNS} requests) vs the same SQL run directly`);
const last = SIZES[SIZES.length - 1]!;
const growth = SIZES.length > 1 ? `   ${`service ${last / 1000}k/${SIZES[0]! / 1000}k`.padEnd(18)}` : '';
console.log(
  `${'endpoint'.padEnd(26)}${SIZES.map((s) => `   ${`${s / 1000}k: service · SQL · ratio`.padEnd(34)}`).join('')}${growth}  statements`,
);
const names = results.get(SIZES[0]!)!.map((r) => r.name);
for (const name of names) {
  const bySize = SIZES.map((size) => results.get(size)!.find((x) => x.name === name)!);
  const cells = bySize.map(
    (r) => `   ${`${r.service.toFixed(2)} ms · ${r.sql.toFixed(2)} ms · ${(r.service / r.sql).toFixed(1)}×`.padEnd(34)}`,
  );
  const ratio = SIZES.length > 1 ? `   ${`${(bySize[bySize.length - 1]!.service / bySize[0]!.service).toFixed(2)}×`.padEnd(18)}` : '';
  console.log(`${name.padEnd(26)}${cells.join('')}${ratio}  ${bySize[0]!.statements}`);
}

// Compression of a listing answer (the first listing page at the first size), beside its service time.
if (!ONLY || ONLY.some((word) => 'listing'.includes(word))) {
  const database = await openMigratedDatabase(`file:${benchDbFile(SIZES[0]!)}`);
  const app = createApp({
    db: database.db,
    config: loadConfig({ APP_ENV: 'test', PUBLIC_CACHE_SECONDS: '0' }),
    now: Date.now,
    fetch: globalThis.fetch,
  });
  const body = new Uint8Array(await (await app.request('/api/product/product-phimbo')).arrayBuffer());
  database.client.close();
  const listing = results.get(SIZES[0]!)!.find((r) => r.name === 'listing page') ?? { service: Number.NaN };
  console.log(`\nCompressing a listing answer (${(body.byteLength / 1024).toFixed(1)} KB), CPU per response (median of 200):`);
  for (const r of await measureCompression(body)) {
    console.log(
      `  ${r.name.padEnd(52)} ${r.ms.toFixed(3)} ms  ${String(r.bytes).padStart(6)} bytes  ${((100 * r.ms) / listing.service).toFixed(0)} % of the listing's service time`,
    );
  }
}
