// The real Node API host (worker/node.ts) on a bench's file database, beside its partykit dev, for the premiere
// benches that post or read through the API (posting.ts, catchup.ts, bench/live.ts). Loopback only; stop() ends what it started.
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort, stopChild } from '../../party/dev-server';

const ROOT = resolve(import.meta.dirname, '../..');

export interface ApiHost {
  /** http://127.0.0.1:port */
  url: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/** Starts the host and waits (at most 30 s, then stops it and throws) until GET /api/health answers. BENCH_API_PROF=1: its CPU profile goes to /tmp/prof. */
export async function startApiHost(options: {
  dbFile: string;
  jwtSecret: string;
  partyUrl: string;
  partySecret: string;
}): Promise<ApiHost> {
  const port = await freePort();
  const child = spawn(
    resolve(ROOT, 'node_modules/.bin/tsx'),
    [...(process.env.BENCH_API_PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []), 'worker/node.ts'],
    {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: `file:${options.dbFile}`,
        APP_ENV: 'test',
        JWT_SECRET: options.jwtSecret,
        PARTYKIT_HOST: options.partyUrl,
        PARTY_SECRET: options.partySecret,
      },
    },
  );
  const url = `http://127.0.0.1:${port}`;
  const stop = () => stopChild(child);
  for (let i = 0; i < 150; i++) {
    if (
      await fetch(`${url}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, child, stop };
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error('API did not start');
}
