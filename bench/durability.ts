// `npm run bench -- durability` (issue 39 §4–5):
//  1. the cost of synchronous = FULL against NORMAL: small commits (a progress upsert each, as the player's
//     writes are) on two file databases in the same run, in alternating blocks so the machine's load falls on both;
//  2. `npm run backup` (the real script, its own process) of a ~100 MB database while the host serves reads:
//     its time, and the requests' p95 during it against their idle p95 (the goal: ≤ 30 s and ≤ 2×).
// BENCH_BACKUP_MB sets the database's size (100 by default). Loopback only; everything stops by itself.
import type { Client } from '@libsql/client';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../party/dev-server';
import { openMigratedDatabase } from '../worker/db/node-client';
import { REPO_ROOT } from '../worker/node';
import { startBenchServer } from './server';

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
};
const dir = mkdtempSync(join(tmpdir(), 'bench-durability-'));

async function prepare(name: string): Promise<Client> {
  const { client } = await openMigratedDatabase(`file:${join(dir, name)}`);
  await client.execute(
    "insert into users (email, username, password_hash, roles, permissions) values ('a@example.com', 'A', 'x', 'user', '')",
  );
  await client.execute("insert into films (slug, title, category_id) values ('phim', 'Phim', 24)");
  return client;
}

async function syncCost(): Promise<void> {
  const BLOCK = Number(process.env.BENCH_SYNC_BLOCK ?? 200);
  const BLOCKS = Number(process.env.BENCH_SYNC_BLOCKS ?? 6);
  const normal = await prepare('normal.db');
  await normal.execute('PRAGMA synchronous = NORMAL');
  const full = await prepare('full.db');
  const mode = async (client: Client) => Number((await client.execute('PRAGMA synchronous')).rows[0]?.synchronous);
  console.log(`synchronous: ${await mode(normal)} (NORMAL) vs ${await mode(full)} (FULL); load ${load()}`);
  const times: Record<'NORMAL' | 'FULL', number[]> = { NORMAL: [], FULL: [] };
  let episode = 0;
  for (let block = 0; block < BLOCKS; block++) {
    for (const [name, client] of (block % 2
      ? [
          ['FULL', full],
          ['NORMAL', normal],
        ]
      : [
          ['NORMAL', normal],
          ['FULL', full],
        ]) as ['NORMAL' | 'FULL', Client][]) {
      for (let i = 0; i < BLOCK; i++) {
        episode++;
        const t0 = performance.now();
        await client.execute({
          sql: `insert into watch_progress (user_id, film_id, episode, position, duration, updated_at) values (1, 1, ?, ?, 2400, ?)
                on conflict (user_id, film_id, episode) do update set position = excluded.position, updated_at = excluded.updated_at`,
          args: [episode % 500, episode, Date.now()],
        });
        times[name].push(performance.now() - t0);
      }
    }
  }
  for (const name of ['NORMAL', 'FULL'] as const) {
    const list = times[name];
    const total = list.reduce((a, b) => a + b, 0);
    console.log(
      `  ${name.padEnd(6)} ${list.length} commits: ${Math.round((list.length / total) * 1000)} commits/s, p50 ${pct(list, 0.5).toFixed(2)} ms, p99 ${pct(list, 0.99).toFixed(2)} ms`,
    );
  }
  console.log(`  load after: ${load()}`);
  normal.close();
  full.close();
}

async function backupWhileServing(): Promise<void> {
  const MB = Number(process.env.BENCH_BACKUP_MB ?? 100);
  const file = join(dir, 'site.db');
  const client = await prepare('site.db');
  // 2,000 films, and ~500 bytes per comment spread over them: MB × 2,000 rows, in one statement per 20,000.
  await client.execute(`with recursive n(i) as (select 2 union all select i + 1 from n where i < 2000)
    insert into films (slug, title, category_id) select 'phim-' || i, 'Phim ' || i, 24 from n`);
  for (let done = 0; done < MB * 2000; done += 20_000) {
    await client.execute(`with recursive n(i) as (select 1 union all select i + 1 from n where i < 20000)
      insert into comments (film_id, user_id, body, status, created_at) select 1 + (i % 2000), 1, hex(randomblob(240)), 'visible', ${Date.now()} from n`);
  }
  await client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
  client.close();
  const size = statSync(file).size;
  const port = await freePort();
  const server = await startBenchServer({ dbFile: file, port, cacheSeconds: 0 });
  try {
    // Four callers reading the film's page and its first comments, as visitors would, for `ms`.
    const measure = async (until: () => boolean) => {
      const latencies: number[] = [];
      const paths = [
        '/api/product/phim-17',
        '/api/product/phim-17/comments',
        '/api/product/phim-1234',
        '/api/product/phim-1234/comments',
        '/api/health',
      ];
      await Promise.all(
        [0, 1, 2, 3].map(async (caller) => {
          for (let i = caller; until(); i++) {
            const t0 = performance.now();
            const res = await fetch(`${server.base}${paths[i % paths.length]}`);
            await res.arrayBuffer();
            latencies.push(performance.now() - t0);
          }
        }),
      );
      return latencies;
    };
    const warm = performance.now() + 2000;
    await measure(() => performance.now() < warm);
    const idleEnd = performance.now() + 10_000;
    const idle = await measure(() => performance.now() < idleEnd);
    const loadIdle = load();
    let running = true;
    const t0 = performance.now();
    const backup = new Promise<{ code: number | null; out: string }>((done) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/backup.ts'], {
        cwd: REPO_ROOT,
        env: { ...process.env, DATABASE_URL: `file:${file}`, BACKUP_DIR: join(dir, 'backups'), SECRETS_FILE: join(dir, 'none.json') },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      child.once('exit', (code) => done({ code, out }));
    });
    const during = measure(() => running);
    const result = await backup;
    const wall = performance.now() - t0;
    running = false;
    const busy = await during;
    console.log(`\nnpm run backup of ${(size / 1e6).toFixed(0)} MB while serving (exit ${result.code}): ${result.out.trim()}`);
    console.log(`  process wall time ${(wall / 1000).toFixed(1)} s (with tsx's start); goal ≤ 30 s`);
    const idleP95 = pct(idle, 0.95);
    const busyP95 = pct(busy, 0.95);
    console.log(`  requests idle: ${idle.length}, p50 ${pct(idle, 0.5).toFixed(1)} ms, p95 ${idleP95.toFixed(1)} ms (load ${loadIdle})`);
    console.log(
      `  during backup: ${busy.length}, p50 ${pct(busy, 0.5).toFixed(1)} ms, p95 ${busyP95.toFixed(1)} ms = ${(busyP95 / idleP95).toFixed(2)}× idle (goal ≤ 2×; load ${load()})`,
    );
  } finally {
    server.stop();
  }
}

await syncCost();
await backupWhileServing();
rmSync(dir, { recursive: true, force: true });
