import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort, stopChild } from '../../party/dev-server';

const ROOT = resolve(import.meta.dirname, '../..');

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The product's database file: each test file starts with the sign-in limits reset (helpers/browser.ts). */
    databaseFile: string;
    /** The product's own output (API, PartyKit, scheduler), for a failure to quote. */
    serverLog: string;
    /** The payment stand-ins of `npm start` (VNPay, MoMo and the bank page that posts SePay notifications). */
    paymentURL: string;
    /** The local inbox of `npm start` (the mail catcher's page on the stand-in port): every mail the product sent. */
    mailURL: string;
  }
}

async function waitFor(
  url: string,
  ok: (body: unknown) => boolean,
  timeoutMs: number,
  server: ChildProcess,
  anyStatus = false,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the product exited with ${server.exitCode} before ${url} answered`);
    try {
      const res = await fetch(url);
      if ((res.ok || anyStatus) && ok(await res.json())) return;
      last = `status ${res.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms (${last})`);
}

/** Starts the real product (API + built PWA + demo catalogue crawl) and hands its URL to the tests. */
export default async function setup(project: TestProject) {
  if (!existsSync('/usr/bin/chromium')) throw new Error('Debian Chromium is missing: apt-get install -y chromium');
  if (!existsSync(join(ROOT, 'web/dist/index.html'))) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('npm run build failed');
  }
  const dir = mkdtempSync(join(tmpdir(), 'phimviet-e2e-'));
  const [port, demoPort, partyPort, paymentPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const baseURL = `http://localhost:${port}`;
  // Its own PartyKit port (a developer's `npm start` keeps 1999); the Node host names it to the page.
  const partyURL = `http://127.0.0.1:${partyPort}`;
  const log = createWriteStream(join(dir, 'server.log'));
  const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: `file:${join(dir, 'e2e.db')}`,
      PUBLIC_URL: baseURL,
      DEMO_SOURCE_PORT: String(demoPort),
      CRAWL_SOURCES: `http://127.0.0.1:${demoPort}`,
      PARTYKIT_HOST: partyURL,
      // The VNPay/MoMo stand-ins (demo/payment-gateways.ts) on their own port.
      PAYMENT_STANDIN_PORT: String(paymentPort),
      APP_ENV: 'test',
      // The scheduler ticks every few seconds instead of every minute, so a scheduled crawl is seen done soon after it is due.
      SCHEDULER_TICK_MS: process.env.SCHEDULER_TICK_MS ?? '5000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);

  // scripts/start.ts leads its own process group (detached): stopping it reaches partykit and workerd too.
  const stop = () => stopChild(server);
  try {
    await waitFor(`${baseURL}/api/health`, (b) => (b as { ok?: boolean }).ok === true, 240_000, server);
    await waitFor(`${baseURL}/api/product?page=1`, (b) => ((b as { data?: unknown[] }).data?.length ?? 0) > 0, 120_000, server);
    // scripts/start.ts starts `partykit dev` after the API; a GET on a room answers 405 once it serves.
    await waitFor(
      `${partyURL}/parties/comments/ready-check`,
      (b) => (b as { error?: { code?: string } }).error?.code === 'method_not_allowed',
      120_000,
      server,
      true,
    );
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}; server log: ${join(dir, 'server.log')}`);
  }
  project.provide('baseURL', baseURL);
  project.provide('databaseFile', join(dir, 'e2e.db'));
  project.provide('serverLog', join(dir, 'server.log'));
  project.provide('paymentURL', `http://127.0.0.1:${paymentPort}`);
  project.provide('mailURL', `http://127.0.0.1:${paymentPort}/mail`);

  return async () => {
    await stop();
    if (!process.env.E2E_KEEP) rmSync(dir, { recursive: true, force: true });
  };
}
