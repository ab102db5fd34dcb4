// Node-only (never imported by the rooms): runs `partykit dev` for npm start, the live integration test
// and bench/live.ts. Offline-safe flags; the room's PARTY_SECRET travels in a private config file, never on
// the command line, where every local user could read it in the process list.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface PartyKitDev {
  /** e.g. http://127.0.0.1:41999: the API's PARTYKIT_HOST. */
  url: string;
  /** host:port, for partysocket's `host`. */
  host: string;
  /** What the dev server has printed so far (only with `capture`; empty otherwise). */
  output: () => string;
  /** The dev server's process id: it leads its own process group, which workerd joins (benches read its CPU). */
  pid: number;
  stop: () => Promise<void>;
}

/**
 * The repo's partykit.json with the room's secret in `vars`, written to a directory only this user can
 * read (mkdtemp is 0700, the file 0600); `partykit dev --config` reads vars from it. Paths are absolute so
 * the file works from anywhere. `remove()` deletes it.
 */
export function writePartyKitConfig(secret: string, codeRoot = REPO_ROOT): { path: string; remove: () => void } {
  const config = JSON.parse(readFileSync(resolve(REPO_ROOT, 'partykit.json'), 'utf8')) as {
    main: string;
    parties?: Record<string, string>;
    vars?: Record<string, string>;
  };
  const dir = mkdtempSync(join(tmpdir(), 'phimviet-partykit-'));
  const path = join(dir, 'partykit.json');
  const parties = Object.fromEntries(Object.entries(config.parties ?? {}).map(([name, file]) => [name, resolve(codeRoot, file)]));
  writeFileSync(
    path,
    JSON.stringify({ ...config, main: resolve(codeRoot, config.main), parties, vars: { ...config.vars, PARTY_SECRET: secret } }),
    { mode: 0o600 },
  );
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The arguments of `partykit dev` for this repo, wherever it is started (npm start and npm run dev,
 * the live tests, bench/live.ts): offline-safe (no Cloudflare cf fetch, no hotkeys on a non-TTY), with the
 * config file that holds the room's shared secret (writePartyKitConfig). No secret is ever an argument.
 */
export function partyKitDevArgs(options: { port: number | string; configPath: string; live?: boolean }): string[] {
  return [
    'dev',
    '--config',
    options.configPath,
    '--port',
    String(options.port),
    '--disable-request-cf-fetch',
    '--no-hotkeys',
    ...(options.live ? ['--live'] : []),
  ];
}

/** A port nobody listens on right now (loopback). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

/** Stops a detached child and its process group (SIGTERM, SIGKILL after 5 s); resolves once it has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  // The child leads its own process group (detached), so this reaches workerd and esbuild too.
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    child.kill('SIGTERM');
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 5000);
  await exited;
  clearTimeout(timer);
}

/** Starts `partykit dev` on a free (or given) port and resolves once the comments party answers. */
export async function startPartyKitDev(options: {
  secret: string;
  port?: number;
  timeoutMs?: number;
  /** Print the dev server's output here (inherit), keep it for `output()` (capture), or drop it (default). */
  log?: boolean | 'capture';
  /** Where the rooms' code is (default: this checkout); a bench runs an older version extracted with git archive. */
  codeRoot?: string;
}): Promise<PartyKitDev> {
  const port = options.port ?? (await freePort());
  const config = writePartyKitConfig(options.secret, options.codeRoot);
  const child = spawn(resolve(REPO_ROOT, 'node_modules/.bin/partykit'), partyKitDevArgs({ port, configPath: config.path }), {
    cwd: REPO_ROOT,
    detached: true,
    stdio: options.log === 'capture' ? ['ignore', 'pipe', 'pipe'] : options.log ? 'inherit' : 'ignore',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`partykit dev exited with ${child.exitCode}`);
      // GET on a room is answered 405 by party/comments.ts: the room is built and serving.
      const status = await fetch(`${url}/parties/comments/ready-check`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 405) break;
      if (Date.now() > deadline) throw new Error(`partykit dev did not become ready on ${url}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (err) {
    await stopChild(child);
    config.remove();
    throw err;
  }
  return {
    url,
    host: `127.0.0.1:${port}`,
    output: () => printed,
    pid: child.pid!,
    stop: async () => {
      await stopChild(child);
      config.remove();
    },
  };
}
