// Node-only: file/:memory:/http libSQL client plus migrations (never imported by the Worker bundle).
import { createClient, type Client } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { schema, type Db } from './client';
import { seedTaxonomy } from './taxonomy-seed';

/** The embedded database of `npm start`, `npm run crawl` and `npm run db:migrate` when DATABASE_URL is unset. */
export const DEFAULT_DATABASE_URL = 'file:data/phimviet.db';

export const MIGRATIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../drizzle');

export interface NodeDatabase {
  db: Db;
  client: Client;
}

export function openDatabase(url: string, authToken?: string): NodeDatabase {
  if (url.startsWith('file:')) {
    const path = url.slice('file:'.length);
    if (path && path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  }
  // A file database gets one connection: PRAGMAs (foreign_keys, synchronous) are per connection, SQLite
  // runs one writer at a time anyway, and its calls block Node's loop regardless. timeout is SQLite's
  // busy timeout, for another process (npm run crawl) writing the same file.
  const local = url.startsWith('file:') || url === ':memory:';
  const client = createClient({ url, authToken, timeout: 5000, ...(local ? { concurrency: 1 } : {}) });
  return { client, db: drizzle(client, { schema }) };
}

/** Applies pending migrations and the fixed taxonomy rows; idempotent, safe on every start. */
export async function migrateDatabase({ db, client }: NodeDatabase): Promise<void> {
  if (client.protocol === 'file') {
    // WAL lets the crawler write while the server reads; foreign keys make cascades real.
    await client.execute('PRAGMA journal_mode = WAL').catch(() => undefined);
    // NORMAL is safe under WAL (a crash keeps the database consistent) and skips an fsync per commit.
    await client.execute('PRAGMA synchronous = NORMAL');
  }
  await client.execute('PRAGMA foreign_keys = ON');
  await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  await seedTaxonomy(db);
}

/** Opens and migrates; for entry points and tests. */
export async function openMigratedDatabase(url: string, authToken?: string): Promise<NodeDatabase> {
  const database = openDatabase(url, authToken);
  await migrateDatabase(database);
  return database;
}
