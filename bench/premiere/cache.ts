// `npm run bench -- premiere cache [--before /path/to/checkout]`: a release on premiere night (issue 38 §2).
// On the bench catalogue (BENCH_FILMS films, 2,000 by default; bench/catalogue.ts), the Node host of this checkout
// (and, with --before, of another checkout run the same way: before/after):
//   (a) warms a mix of 80 pages of 40 films (film and watch pages) and 6 list pages, releases a new episode of
//       another film F through the film writer, and counts how much of the mix is still answered from the cache;
//   (b) right after the release, 500 concurrent anonymous GETs of F's new watch page: statuses, p50/p95, X-Cache
//       and the renders they made (the host's renderer counted by bench/premiere/cache-host.ts);
//   floor: the same 500 concurrent GETs of a static file the same host serves.
// Loopback only; the host is a child process stopped at the end; each side works on its own copy of the database.
import { type ChildProcess, fork } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { schema } from '../../worker/db/client';
import { REPO_ROOT } from '../../worker/node';
import { upsertFilm } from '../../worker/services/films/film-writer';
import { benchDbFile, ensureCatalogue } from '../catalogue';

const FILMS = Number(process.env.BENCH_FILMS ?? 2_000);
const CROWD = Number(process.env.BENCH_CACHE_CROWD ?? 500);
/** Long enough that the warmed mix is still fresh when it is asked again after the release. */
const CACHE_SECONDS = 120;
const LISTS = ['/', '/phim-bo', '/phim-le', '/phim-shows', '/the-loai/hanh-dong', '/the-loai/tinh-cam'];

function argValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

interface Host {
  base: string;
  /** Renders so far, and the host process's CPU time (ms). */
  renders: () => Promise<{ renders: number; cpuMs: number }>;
  stop: () => void;
}

async function startHost(root: string, dbFile: string): Promise<Host> {
  const child: ChildProcess = fork(resolve(REPO_ROOT, 'bench/premiere/cache-host.ts'), [], {
    cwd: root,
    execArgv: ['--max-old-space-size=256', '--import', 'tsx'],
    env: {
      ...process.env,
      CACHE_ROOT: root,
      DATABASE_URL: `file:${dbFile}`,
      APP_ENV: 'test',
      PUBLIC_CACHE_SECONDS: String(CACHE_SECONDS),
      JWT_SECRET: 'bench-only-secret-0123456789abcdef-0123',
      PARTY_SECRET: 'bench-only-party-secret',
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error('cache host did not start in 60 s')), 60_000);
    child.once('message', (m) => {
      clearTimeout(timer);
      resolvePort((m as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`cache host exited (${code})`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    renders: () =>
      new Promise((answer) => {
        child.once('message', (m) => answer(m as { renders: number; cpuMs: number }));
        child.send('renders');
      }),
    stop: () => child.kill('SIGTERM'),
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** `count` GETs of one URL at once; each timed from its start to its whole body. */
async function crowd(url: string, count: number) {
  const results = await Promise.all(
    Array.from({ length: count }, async () => {
      const started = performance.now();
      try {
        const res = await fetch(url);
        const body = await res.arrayBuffer();
        return { status: res.status, cache: res.headers.get('x-cache') ?? '-', ms: performance.now() - started, bytes: body.byteLength };
      } catch {
        return { status: 0, cache: 'error', ms: performance.now() - started, bytes: 0 };
      }
    }),
  );
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const tally = (key: 'status' | 'cache') =>
    Object.entries(
      results.reduce<Record<string, number>>((acc, r) => {
        acc[String(r[key])] = (acc[String(r[key])] ?? 0) + 1;
        return acc;
      }, {}),
    )
      .map(([k, n]) => `${k}×${n}`)
      .join(' ');
  return {
    ok: results.every((r) => r.status === 200),
    statuses: tally('status'),
    caches: tally('cache'),
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    max: ms.at(-1)!,
  };
}

async function xCache(base: string, path: string): Promise<string> {
  const res = await fetch(base + path);
  await res.arrayBuffer();
  return `${res.status}:${res.headers.get('x-cache') ?? '-'}`;
}

async function side(label: string, root: string, sourceDb: string) {
  const dbFile = resolve(REPO_ROOT, `data/bench-cache-${label}.db`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(dbFile + suffix, { force: true });
  copyFileSync(sourceDb, dbFile);
  const client = createClient({ url: `file:${dbFile}` });
  const db = drizzle(client, { schema });
  const host = await startHost(root, dbFile);
  try {
    // F: a series with episodes; the mix: the next 40 films with episodes.
    const rows = (
      await client.execute(
        `select f.id, f.slug, max(e.episode) as last from films f join episodes e on e.film_id = f.id group by f.id order by f.id limit 41`,
      )
    ).rows.map((r) => ({ id: Number(r.id), slug: String(r.slug), last: Number(r.last) }));
    const [released, ...others] = rows;
    if (!released || others.length < 40) throw new Error('the bench catalogue has too few films with episodes');
    const films = others.flatMap((f) => [`/${f.slug}`, `/xem-phim/${f.slug}/tap-1`]);
    const mix = [...films, ...LISTS];
    let warmMisses = 0;
    for (const path of mix) if ((await xCache(host.base, path)).endsWith('miss')) warmMisses++;
    const warm = await Promise.all(mix.map((path) => xCache(host.base, path)));
    const warmHits = warm.filter((c) => c === '200:hit').length;

    // The release: F's episodes plus a new one, through the film writer, as a crawl or an admin edit writes it.
    const film = (await client.execute({ sql: 'select title, category_id from films where id = ?', args: [released.id] })).rows[0]!;
    const episodes = (
      await client.execute({
        sql: 'select server_name, episode, name, m3u8_url, embed_url from episodes where film_id = ?',
        args: [released.id],
      })
    ).rows.map((e) => ({
      serverName: String(e.server_name),
      episode: Number(e.episode),
      name: String(e.name ?? ''),
      m3u8Url: String(e.m3u8_url ?? ''),
      embedUrl: String(e.embed_url ?? ''),
    }));
    const next = released.last + 1;
    const servers = [...new Set(episodes.map((e) => e.serverName))];
    const renderedBefore = await host.renders();
    const written = performance.now();
    await upsertFilm(db, {
      id: released.id,
      title: String(film.title),
      categoryId: Number(film.category_id) as 24,
      episodeCountText: `Tập ${next}`,
      episodes: [
        ...episodes,
        ...servers.map((serverName) => ({
          serverName,
          episode: next,
          name: `Tập ${next}`,
          m3u8Url: `https://cdn.example.com/${released.slug}/${next}/index.m3u8`,
          embedUrl: '',
        })),
      ],
    });
    const writeMs = performance.now() - written;
    // A write request through the host makes it read the versions at once (as after an admin's release through
    // its API), instead of within PUBLIC_CACHE_SECONDS as for another process's write.
    await (
      await fetch(`${host.base}/api/product/update_view`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: released.slug }),
      })
    ).arrayBuffer();

    // (b) the crowd at the new episode, right after the release.
    const watch = `/xem-phim/${released.slug}/tap-${next}`;
    const crowdStart = await host.renders();
    const premiere = await crowd(host.base + watch, CROWD);
    const renderedAfter = await host.renders();
    const renders = renderedAfter.renders - renderedBefore.renders;
    const crowdCpu = renderedAfter.cpuMs - crowdStart.cpuMs;

    // (a) the mix after the release.
    const after = await Promise.all(mix.map((path) => xCache(host.base, path)));
    const filmHits = after.slice(0, films.length).filter((c) => c === '200:hit').length;
    const listHits = after.slice(films.length).filter((c) => c === '200:hit').length;
    const own = await Promise.all([`/${released.slug}`, `/xem-phim/${released.slug}/tap-1`].map((p) => xCache(host.base, p)));

    // Floor: the same crowd at a static file of the same host.
    const floorBefore = await host.renders();
    const floor = await crowd(`${host.base}/icons/favicon-48.png`, CROWD);
    const floorCpu = (await host.renders()).cpuMs - floorBefore.cpuMs;

    console.log(`   [${label}] ${root}`);
    console.log(
      `     warm: ${mix.length} URLs (${films.length} pages of ${others.length} films + ${LISTS.length} lists), ${warmMisses} misses then ${warmHits} hits`,
    );
    console.log(`     release: film ${released.slug} episode ${next} written in ${writeMs.toFixed(0)} ms`);
    console.log(
      `     (a) after the release: other films' pages still hits ${filmHits}/${films.length} (${((100 * filmHits) / films.length).toFixed(1)} %), lists ${listHits}/${LISTS.length}; F's own pages ${own.join(' ')}`,
    );
    console.log(
      `     (b) ${CROWD} concurrent GETs of ${watch}: ${premiere.statuses}; X-Cache ${premiere.caches}; renders ${renders}; p50 ${premiere.p50.toFixed(0)} ms, p95 ${premiere.p95.toFixed(0)} ms, max ${premiere.max.toFixed(0)} ms; host CPU ${crowdCpu.toFixed(0)} ms (${(crowdCpu / CROWD).toFixed(2)} ms a request)`,
    );
    console.log(
      `     floor: ${CROWD} concurrent GETs of /icons/favicon-48.png: ${floor.statuses}; p50 ${floor.p50.toFixed(0)} ms, p95 ${floor.p95.toFixed(0)} ms, max ${floor.max.toFixed(0)} ms; host CPU ${floorCpu.toFixed(0)} ms (${(floorCpu / CROWD).toFixed(2)} ms a request)`,
    );
    console.log(
      `     load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    host.stop();
    client.close();
    await new Promise((r) => setTimeout(r, 300));
    for (const suffix of ['', '-wal', '-shm']) rmSync(dbFile + suffix, { force: true });
  }
}

export async function run(): Promise<void> {
  await ensureCatalogue(FILMS);
  const source = benchDbFile(FILMS);
  // Everything in the main file before it is copied.
  const checkpoint = createClient({ url: `file:${source}` });
  await checkpoint.execute('PRAGMA wal_checkpoint(TRUNCATE)');
  checkpoint.close();
  const before = argValue('--before') ?? process.env.BENCH_CACHE_BEFORE;
  console.log(
    `   ${FILMS} films; PUBLIC_CACHE_SECONDS=${CACHE_SECONDS}; goals: ≥ 95 % of other films' pages still hits, 1 render, all 200, p95 ≤ 1.5 s`,
  );
  if (before) {
    if (!existsSync(resolve(before, 'worker/ssr/dist/entry-server.js')))
      throw new Error(`${before}: no worker/ssr/dist (npm run build there)`);
    await side('before', resolve(before), source);
  }
  if (!existsSync(resolve(REPO_ROOT, 'worker/ssr/dist/entry-server.js')))
    throw new Error('npm run build first: the pages are rendered by the built renderer');
  await side('after', REPO_ROOT, source);
}
