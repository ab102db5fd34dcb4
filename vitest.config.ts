import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'api', include: ['tests/api/**/*.test.ts'], environment: 'node', testTimeout: 20_000, hookTimeout: 30_000 } },
      // worker/index.ts inside workerd (@cloudflare/vitest-pool-workers); its own file, as the pool plugin
      // and the Hrana server global setup belong to that project only.
      'tests/workers/vitest.config.ts',
    ],
  },
});
