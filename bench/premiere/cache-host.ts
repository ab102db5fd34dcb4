// The Node host of one checkout (CACHE_ROOT: this one, or `--before <path>`'s), built as worker/node.ts
// startNodeServer builds it (the same root, admission and timeouts), with one difference for the bench: the
// renderer is wrapped to count its renders, and the count (with the process's CPU time) is asked over the IPC channel. Production code counts
// nothing. Started by bench/premiere/cache.ts as a child process on loopback; it stops when its parent does.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getRequestListener } from '@hono/node-server';

const root = process.env.CACHE_ROOT;
if (!root || !process.send) throw new Error('cache-host: run by bench/premiere/cache.ts (CACHE_ROOT, IPC)');
const from = <T>(path: string) => import(pathToFileURL(resolve(root, path)).href) as Promise<T>;

type Any = Record<string, (...args: never[]) => unknown> & Record<string, unknown>;
const node = (await from<Any>('worker/node.ts')) as Any & { SSR_ENTRY: string; WEB_DIST: string };
const { openMigratedDatabase } = (await from<Any>('worker/db/node-client.ts')) as unknown as {
  openMigratedDatabase: (url: string) => Promise<{ db: unknown; client: { close: () => void } }>;
};
const { loadConfig } = (await from<Any>('worker/config.ts')) as unknown as {
  loadConfig: (env: Record<string, unknown>) => Record<string, unknown>;
};
const { withAdmission, DEFAULT_ADMISSION } = (await from<Any>('worker/lib/admission.ts')) as unknown as {
  withAdmission: (listener: unknown, options: unknown) => Parameters<typeof createServer>[0];
  DEFAULT_ADMISSION: unknown;
};
const { setClientAddressOnRaw } = (await from<Any>('worker/lib/client-ip.ts')) as unknown as {
  setClientAddressOnRaw: (incoming: unknown, trust: boolean) => void;
};
const { hostErrorResponse } = (await from<Any>('worker/lib/host-errors.ts')) as unknown as { hostErrorResponse: never };

const config = loadConfig(process.env);
const database = await openMigratedDatabase(process.env.DATABASE_URL!);
const deps = { db: database.db, config, now: Date.now, fetch: globalThis.fetch };

let renders = 0;
type Entry = { renderPage: (...args: unknown[]) => Promise<unknown> };
const loadEntry = async () => {
  const entry = (await import(pathToFileURL(node.SSR_ENTRY).href)) as Entry;
  return {
    ...entry,
    renderPage: (...args: unknown[]) => {
      renders++;
      return entry.renderPage(...args);
    },
  };
};
const hono = (node.createNodeRoot as (...args: unknown[]) => { fetch: never })(deps, undefined, node.WEB_DIST, loadEntry);
const listener = getRequestListener(hono.fetch, { errorHandler: hostErrorResponse });
const server = createServer(
  withAdmission((incoming: unknown, outgoing: unknown) => {
    setClientAddressOnRaw(incoming, false);
    return (listener as (a: unknown, b: unknown) => unknown)(incoming, outgoing);
  }, DEFAULT_ADMISSION),
);
server.headersTimeout = 20_000;
server.requestTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
process.on('message', (message) => {
  // The host's own CPU (ms, user + system) with the count: what the crowd cost it, whatever the machine's load.
  const cpu = process.cpuUsage();
  if (message === 'renders') process.send!({ renders, cpuMs: (cpu.user + cpu.system) / 1000 });
});
process.on('disconnect', () => process.exit(0));
