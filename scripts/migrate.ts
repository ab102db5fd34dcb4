// `npm run db:migrate`: applies pending migrations and the fixed taxonomy to DATABASE_URL
// (a local file by default, or Turso: DATABASE_URL=libsql://… DATABASE_AUTH_TOKEN=…). Idempotent.
import { DEFAULT_DATABASE_URL, openMigratedDatabase } from '../worker/db/node-client';

const url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
const started = performance.now();
const database = await openMigratedDatabase(url, process.env.DATABASE_AUTH_TOKEN);
const { rows } = await database.client.execute('select count(*) as n from __drizzle_migrations');
console.log(`${url}: ${rows[0]?.n} migrations applied, up to date (${Math.round(performance.now() - started)} ms)`);
database.client.close();
