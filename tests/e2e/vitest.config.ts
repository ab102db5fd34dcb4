import { defineConfig } from 'vitest/config';

/**
 * Browser tests: playwright-core drives Debian Chromium against the built app served by the real
 * product (scripts/start.ts on a temporary database and free ports). One server for the whole run,
 * files one after another (they share it), so the suite stays well under five minutes.
 */
export default defineConfig({
  test: {
    name: 'e2e',
    root: new URL('../..', import.meta.url).pathname,
    include: ['tests/e2e/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['tests/e2e/global-setup.ts'],
    fileParallelism: false,
    // One worker for the whole run, its modules (playwright-core, the helpers) loaded once, not once a file: about
    // 1 s a file of 37. Each file still launches its own browser and keeps its state in its own module.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    teardownTimeout: 30_000,
    retry: 0,
  },
});
