// Node-only: file/:memory:/http libSQL client plus migrations (never imported by the Worker bundle).
import { createClient, type Client } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { backupDatabase, defaultBackupDir } from './backup';
import { schema, type Db } from './client';
import { seedTaxonomy } from './taxonomy-seed';
import { keepPreparedStatements } from './statement-cache';

/** The embedded database of `npm start`, `npm run crawl` and `npm run db:migrate` when DATABASE_URL is unset. */
export const DEFAULT_DATABASE_URL = 'file:data/phimviet.db';

export const MIGRATIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../drizzle');

export interface NodeDatabase {
  db: Db;
  client: Client;
  /** The database file's absolute path, for a file database (not :memory:, not a remote one). */
  file?: string;
}

/** The file a `file:` URL names, resolved; undefined for :memory: and remote databases. */
export function databaseFileOf(url: string): string | undefined {
  if (!url.startsWith('file:')) return undefined;
  const path = url.slice('file:'.length).split('?')[0] ?? '';
  return path && path !== ':memory:' ? resolve(path) : undefined;
}

export function openDatabase(url: string, authToken?: string): NodeDatabase {
  const file = databaseFileOf(url);
  if (file) mkdirSync(dirname(file), { recursive: true });
  // A file database gets one connection: PRAGMAs (foreign_keys, synchronous) are per connection, SQLite
  // runs one writer at a time anyway, and its calls block Node's loop regardless. timeout is SQLite's
  // busy timeout, for another process (npm run crawl) writing the same file.
  const local = url.startsWith('file:') || url === ':memory:';
  // The local client prepares each statement on each call: keep them (statement-cache.ts).
  if (local) keepPreparedStatements();
  const client = createClient({ url, authToken, timeout: 5000, ...(local ? { concurrency: 1 } : {}) });
  return { client, db: drizzle(client, { schema }), ...(file ? { file } : {}) };
}

/**
 * A file database's durability settings (docs/decisions/1060-nothing-acknowledged-is-lost.md): WAL, or the
 * start fails (a rollback journal would block readers during every write and the crash reasoning below
 * would not hold), and synchronous = FULL, so a commit answered to a caller (a VNPay IPN answered `00`) is
 * on the disk before the answer, surviving a power cut as well as a process crash.
 */
export async function applyDurability(client: Client): Promise<void> {
  const { rows } = await client.execute('PRAGMA journal_mode = WAL');
  const mode = String(rows[0]?.journal_mode ?? Object.values(rows[0] ?? {})[0] ?? '').toLowerCase();
  if (mode !== 'wal') {
    throw new Error(
      `Cơ sở dữ liệu không chạy ở chế độ WAL (journal_mode = ${mode || 'không rõ'}): dừng khởi động. ` +
        'Kiểm tra quyền ghi thư mục chứa tệp (SQLite cần tạo tệp -wal và -shm bên cạnh) và hệ tệp (WAL không chạy trên ổ mạng).',
    );
  }
  await client.execute('PRAGMA synchronous = FULL');
}

/** `PRAGMA foreign_key_check` as readable lines ("comments row 12 → films (constraint 0)"); empty when every reference holds. */
export async function danglingReferences(client: Client): Promise<string[]> {
  const { rows } = await client.execute('PRAGMA foreign_key_check');
  return rows.map((row) => `${String(row.table)} dòng ${String(row.rowid)} → ${String(row.parent)} (ràng buộc ${String(row.fkid)})`);
}

/** How many journal entries the database has not applied yet, as drizzle's migrator decides (newer than the last applied). */
export async function pendingMigrations(client: Client, migrationsFolder = MIGRATIONS_DIR): Promise<number> {
  const table = await client.execute("select 1 from sqlite_schema where type = 'table' and name = '__drizzle_migrations'");
  const migrations = readMigrationFiles({ migrationsFolder });
  if (table.rows.length === 0) return migrations.length;
  const { rows } = await client.execute('select created_at from __drizzle_migrations order by created_at desc limit 1');
  const last = rows[0] ? Number(rows[0].created_at) : undefined;
  return migrations.filter((m) => last === undefined || last < m.folderMillis).length;
}

export interface MigrateOptions {
  migrationsFolder?: string;
  /** Where the snapshot taken before pending migrations goes: BACKUP_DIR, else `backups/` beside the database. */
  backupDir?: string;
  /** No snapshot before migrating (a database just restored from a backup). */
  skipSnapshot?: boolean;
}

/**
 * Applies pending migrations and the fixed taxonomy rows; idempotent, safe on every start. Pending migrations
 * run in one transaction (libSQL's migrate: BEGIN … COMMIT, ROLLBACK on any error), so a failing one leaves
 * the schema, `__drizzle_migrations` and the rows as they were. An existing file database is first copied
 * into the backups folder (`…-pre-migrate.db`). After migrating, any dangling reference stops the start.
 */
export async function migrateDatabase(database: NodeDatabase, options: MigrateOptions = {}): Promise<void> {
  const { db, client, file } = database;
  const migrationsFolder = options.migrationsFolder ?? MIGRATIONS_DIR;
  if (file) await applyDurability(client);
  await client.execute('PRAGMA foreign_keys = ON');
  if (file && !options.skipSnapshot && existsSync(file) && statSync(file).size > 0) {
    const hasTable = await client.execute("select 1 from sqlite_schema where type = 'table' and name = '__drizzle_migrations'");
    if (hasTable.rows.length > 0 && (await pendingMigrations(client, migrationsFolder)) > 0) {
      await backupDatabase({ client, dir: options.backupDir ?? defaultBackupDir(file), label: 'pre-migrate' });
    }
  }
  await migrate(db, { migrationsFolder });
  const dangling = await danglingReferences(client);
  if (dangling.length > 0) {
    const shown = dangling.slice(0, 20).join('; ');
    throw new Error(
      `Cơ sở dữ liệu có ${dangling.length} tham chiếu hỏng (PRAGMA foreign_key_check): ${shown}${dangling.length > 20 ? '; …' : ''}. Dừng khởi động.`,
    );
  }
  await seedTaxonomy(db);
}

/** Opens and migrates; for entry points and tests. */
export async function openMigratedDatabase(url: string, authToken?: string, options: MigrateOptions = {}): Promise<NodeDatabase> {
  const database = openDatabase(url, authToken);
  try {
    await migrateDatabase(database, options);
  } catch (err) {
    database.client.close();
    throw err;
  }
  return database;
}
