// Node side of the workers project: one Hrana (libSQL over HTTP) server on a free loopback port, backed by
// a freshly migrated file; its URL and token reach the Worker as DATABASE_URL / DATABASE_AUTH_TOKEN
// bindings (tests/workers/vitest.config.ts). See docs/decisions/0300-libsql-server-in-tests.md.
import type { TestProject } from 'vitest/node';
import { resolve } from 'node:path';
import { startHranaServer } from '../helpers/hrana-server';
import { buildSsrEntry } from '../helpers/ssr-build';

declare module 'vitest' {
  export interface ProvidedContext {
    hranaUrl: string;
    hranaToken: string;
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
  return async () => {
    await server.close();
  };
}
