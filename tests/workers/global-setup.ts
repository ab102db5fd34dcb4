// Node side of the workers project: one Hrana (libSQL over HTTP) server on a free loopback port, backed by
// a freshly migrated file; its URL and token reach the Worker as DATABASE_URL / DATABASE_AUTH_TOKEN
// bindings (tests/workers/vitest.config.ts). See docs/decisions/0300-libsql-server-in-tests.md.
import type { TestProject } from 'vitest/node';
import { resolve } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startHranaServer } from '../helpers/hrana-server';
import { startMailCatcher } from '../../demo/mail-catcher';
import { buildSsrEntry } from '../helpers/ssr-build';

declare module 'vitest' {
  export interface ProvidedContext {
    hranaUrl: string;
    hranaToken: string;
    /** SMTP_URL of the Worker: a real SMTP server (the demo's catcher) the Worker reaches over cloudflare:sockets. */
    smtpUrl: string;
    /** Its inbox as JSON (GET {mailApi}/mail/api/messages?to=), for the tests inside workerd. */
    mailApi: string;
  }
}

export default async function setup(project: TestProject) {
  // The Worker imports the first-page renderer from worker/ssr/dist (worker/index.ts): built from the
  // current source where `npm run build` puts it, so tests/workers/ssr.test.ts renders what is checked in.
  await buildSsrEntry(resolve(import.meta.dirname, '../../worker/ssr/dist'));
  const token = 'workers-test-token';
  const server = await startHranaServer({ authToken: token });
  project.provide('hranaUrl', server.url);
  project.provide('hranaToken', token);
  const catcher = await startMailCatcher();
  const inbox = createServer((req, res) => {
    if (!catcher.handle(req, res, new URL(req.url ?? '/', 'http://inbox'))) res.writeHead(404).end();
  });
  await new Promise<void>((done) => inbox.listen(0, '127.0.0.1', () => done()));
  project.provide('smtpUrl', catcher.smtpUrl);
  project.provide('mailApi', `http://127.0.0.1:${(inbox.address() as AddressInfo).port}`);
  return async () => {
    await server.close();
    await catcher.close();
    await new Promise<void>((done) => inbox.close(() => done()));
  };
}
