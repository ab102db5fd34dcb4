// The 'workers' project: worker/index.ts inside workerd (@cloudflare/vitest-pool-workers, vitest 4 plugin
// API). Bindings come from the real wrangler.toml (vars, assets settings, compatibility date), with the
// database pointed at the Hrana test server started by global-setup.ts and a fixture assets directory
// instead of web/dist, so no web build is needed.
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// No network beyond npm on these machines: no metrics, no request.cf download.
process.env.WRANGLER_SEND_METRICS ??= 'false';
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';

const root = fileURLToPath(new URL('../..', import.meta.url));
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  plugins: [
    cloudflareTest(({ inject }) => ({
      main: here('../../worker/index.ts'),
      wrangler: { configPath: here('../../wrangler.toml') },
      miniflare: {
        assets: { directory: here('./fixtures/assets') },
        bindings: {
          DATABASE_URL: inject('hranaUrl'),
          DATABASE_AUTH_TOKEN: inject('hranaToken'),
          // Mail over SMTP from workerd (worker-mailer on cloudflare:sockets) to a server of the test's own.
          SMTP_URL: inject('smtpUrl'),
          MAIL_API: inject('mailApi'),
          // Secrets of the production config (APP_ENV = "production" comes from wrangler.toml).
          JWT_SECRET: 'workers-test-jwt-secret-0123456789abcdefghij',
          PARTY_SECRET: 'workers-test-party-secret',
          // A Web Push VAPID pair drawn for these tests only.
          VAPID_PUBLIC_KEY: 'BLTJyBAlhlK9KxBLQpF6DeNQvF5I9cXkI0NJxX6DAfoD217UP0UrJ-3PpfGOzMOhpGuTpRWDaHhGx2E8rQuzNhg',
          VAPID_PRIVATE_KEY: '8JWvSMuuFsfAcQvyokWBopbpJRsSgZQRYuuehov4SAg',
        },
      },
    })),
  ],
  test: {
    name: 'workers',
    root,
    include: ['tests/workers/**/*.test.ts'],
    globalSetup: [here('./global-setup.ts')],
    // Each isolated file would start its own workerd and re-import the whole app (~3x slower). The files
    // share one database anyway and use unique rows, so they share runtimes.
    isolate: false,
    // One file at a time: they share the database, and one file's catalogue write raises the version another
    // file's cache test is reading. So a group of its own, run after the unit and API tests (vitest runs
    // projects of different worker counts in separate groups).
    fileParallelism: false,
    sequence: { groupOrder: 1 },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // obscenity (the comment filter's matcher) ships CommonJS behind an ESM wrapper whose default import workerd's
    // module loader leaves undefined: bundled into one ES module first, as wrangler's esbuild does for a deploy.
    deps: { optimizer: { ssr: { enabled: true, include: ['obscenity'] } } },
  },
});
