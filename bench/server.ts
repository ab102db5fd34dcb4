// The Node host as the benchmarks run it: one node process (no tsx wrapper, so its pid's RSS is the
// server's) on a bench catalogue, on loopback.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_ROOT } from '../worker/node';

/** Event-loop delay percentiles (ms) and the JS heap and external memory (MB) at the moment of asking. */
export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
  heapMb: number;
  /** The heap after a full collection: what the server really holds. */
  liveHeapMb: number;
  externalMb: number;
}

export interface BenchServer {
  base: string;
  pid: number;
  /** Resident memory of the server process, MB (Linux /proc). */
  rssMb: () => number;
  /** The server's event-loop delay (ms) since the previous call or the start (bench/loop-monitor.ts). */
  loopDelay: () => Promise<LoopDelay>;
  stop: () => void;
}

export async function startBenchServer(options: { dbFile: string; port: number; cacheSeconds: number }): Promise<BenchServer> {
  const loopFile = resolve(REPO_ROOT, `data/bench-loop-${options.port}.json`);
  // The heap limit `npm start` gives the host (package.json, decision 0610).
  const node = ['--max-old-space-size=256', '--expose-gc', '--import', 'tsx', '--import', './bench/loop-monitor.ts'];
  const child = spawn(process.execPath, [...node, 'worker/node.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(options.port),
      DATABASE_URL: `file:${options.dbFile}`,
      APP_ENV: 'test',
      PUBLIC_CACHE_SECONDS: String(options.cacheSeconds),
      BENCH_LOOP_FILE: loopFile,
      // Benchmarks never need the live-comment rooms or secrets kept across runs.
      JWT_SECRET: 'bench-only-secret-0123456789abcdef-0123',
      PARTY_SECRET: 'bench-only-party-secret',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${options.port}`;
  const stop = () => child.kill('SIGTERM');
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) {
        return {
          base,
          pid: child.pid!,
          stop,
          loopDelay: async () => {
            rmSync(loopFile, { force: true });
            child.kill('SIGUSR2');
            for (let i = 0; i < 100 && !existsSync(loopFile); i++) await new Promise((r) => setTimeout(r, 50));
            return JSON.parse(readFileSync(loopFile, 'utf8')) as LoopDelay;
          },
          rssMb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
        };
      }
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}
