import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'turso',
  schema: './worker/db/schema.ts',
  out: './drizzle',
  // Named by time, not by position: the journal skips 0006, so index prefixes collide with existing files (and
  // drizzle-kit then overwrites their snapshot), and branches that each add a migration never share a name.
  migrations: { prefix: 'timestamp' },
  dbCredentials: {
    url: process.env.DATABASE_URL ?? 'file:data/phimviet.db',
    authToken: process.env.DATABASE_AUTH_TOKEN,
  },
});
