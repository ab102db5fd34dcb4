import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One worker per core (vitest's default leaves one core free: on a two-core machine the run was serial).
    // Most of an API test waits on a server, a socket or a timer, so both cores stay busy.
    maxWorkers: '100%',
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } },
      // The API files share each worker's module cache (isolate: false): each builds its own app and database from
      // the helpers, and importing the worker's graph afresh per file was half the run (import 185 s → 26 s).
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
          hookTimeout: 30_000,
          isolate: false,
        },
      },
      // worker/index.ts inside workerd (@cloudflare/vitest-pool-workers); its own file, as the pool plugin
      // and the Hrana server global setup belong to that project only.
      'tests/workers/vitest.config.ts',
    ],
  },
});
