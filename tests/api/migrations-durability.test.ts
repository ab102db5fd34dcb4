// Starting on a database: a migration that fails midway changes nothing and the previous build still serves;
// a dangling reference stops the start and names the rows; pending migrations are preceded by a snapshot;
// the file database runs WAL with synchronous = FULL, and a database that cannot run WAL does not start.
import { createClient } from '@libsql/client';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../worker/app';
import { loadConfig } from '../../worker/config';
import { checkDatabaseFile } from '../../worker/db/backup';
import { applyDurability, MIGRATIONS_DIR, type NodeDatabase, openMigratedDatabase } from '../../worker/db/node-client';
import { createUser, insertFilm } from '../helpers/auth';

const opened: NodeDatabase[] = [];
afterEach(() => {
  for (const database of opened.splice(0)) database.client.close();
});

async function open(file: string, options: Parameters<typeof openMigratedDatabase>[2] = {}) {
  const database = await openMigratedDatabase(`file:${file}`, undefined, options);
  opened.push(database);
  return database;
}

/** What a failed migration must leave alone: the schema's text, the applied migrations, every table's row count. */
async function state(file: string) {
  const client = createClient({ url: `file:${file}` });
  try {
    const schema = await client.execute('select type, name, sql from sqlite_schema order by type, name');
    const applied = await client.execute('select hash, created_at from __drizzle_migrations order by id');
    const counts: Record<string, number> = {};
    for (const row of schema.rows.filter((r) => r.type === 'table' && !String(r.name).startsWith('sqlite_'))) {
      const { rows } = await client.execute(`select count(*) as n from "${String(row.name)}"`);
      counts[String(row.name)] = Number(rows[0]?.n);
    }
    const films = await client.execute('select id, slug, title from films order by id');
    return {
      schema: schema.rows.map((r) => `${r.type} ${r.name} ${r.sql}`),
      applied: applied.rows.map((r) => `${r.hash} ${r.created_at}`),
      counts,
      films: films.rows.map((r) => `${r.id} ${r.slug} ${r.title}`),
    };
  } finally {
    client.close();
  }
}

/** A copy of drizzle/ with extra migrations after the last one (the next build's folder). */
function nextBuildMigrations(extra: { tag: string; sql: string }[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'next-build-drizzle-'));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalFile = join(dir, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as {
    entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
  };
  for (const { tag, sql } of extra) {
    const last = journal.entries.at(-1)!;
    journal.entries.push({ idx: last.idx + 1, version: last.version, when: last.when + 1000, tag, breakpoints: true });
    writeFileSync(join(dir, `${tag}.sql`), sql);
  }
  writeFileSync(journalFile, JSON.stringify(journal, null, 2));
  return dir;
}

describe('a migration that fails midway', () => {
  it('leaves the schema, the migration table and the rows as they were, and the previous build serves', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'failing-migration-'));
    const file = join(dir, 'phimviet.db');
    const current = await open(file);
    await insertFilm(current.db, 'mat-biec', 'Mắt Biếc');
    await insertFilm(current.db, 'hai-phuong', 'Hai Phượng');
    await createUser(current.db, { email: 'khach@example.com' });
    current.client.close();
    opened.length = 0;
    const before = await state(file);

    // Two pending migrations: the first sound, the second failing at its third statement after changing rows.
    const next = nextBuildMigrations([
      { tag: '20990101000000_sound', sql: 'CREATE TABLE `kept_notes` (`id` integer PRIMARY KEY);' },
      {
        tag: '20990101000001_fails',
        sql: [
          'ALTER TABLE `films` ADD `subtitle` text;',
          "UPDATE `films` SET `title` = 'đổi tên';",
          'INSERT INTO `no_such_table` (`id`) VALUES (1);',
          'CREATE TABLE `never` (`id` integer);',
        ].join('\n--> statement-breakpoint\n'),
      },
    ]);
    await expect(
      openMigratedDatabase(`file:${file}`, undefined, { migrationsFolder: next, backupDir: join(dir, 'backups') }),
    ).rejects.toThrow(/no_such_table/);
    expect(await state(file)).toEqual(before);
    // The snapshot taken before the attempt is whole.
    const snapshots = readdirSync(join(dir, 'backups')).filter((name) => name.endsWith('-pre-migrate.db'));
    expect(snapshots).toHaveLength(1);
    expect(await checkDatabaseFile(join(dir, 'backups', snapshots[0]!))).toEqual([]);

    // The previous build (today's migrations) starts on the same file and answers.
    const previous = await open(file);
    const app = createApp({ db: previous.db, config: loadConfig({ APP_ENV: 'test' }), now: Date.now, fetch: globalThis.fetch });
    expect(await (await app.request('/api/health')).json()).toEqual({ ok: true, db: 'ok' });
    const film = await app.request('/api/product/mat-biec');
    expect(film.status).toBe(200);
    expect(JSON.stringify(await film.json())).toContain('Mắt Biếc');
  });
});

describe('starting on a database', () => {
  it('stops when a reference dangles after migrating, naming the rows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dangling-'));
    const file = join(dir, 'phimviet.db');
    const database = await open(file);
    const filmId = await insertFilm(database.db, 'mat-biec');
    const user = await createUser(database.db);
    await database.client.execute('PRAGMA foreign_keys = OFF');
    await database.client.execute({ sql: 'insert into ratings (user_id, film_id, stars) values (?, ?, 5)', args: [user.id, filmId] });
    await database.client.execute({ sql: 'delete from films where id = ?', args: [filmId] });
    database.client.close();
    opened.length = 0;
    await expect(openMigratedDatabase(`file:${file}`)).rejects.toThrow(/1 tham chiếu hỏng.*ratings dòng \d+ → films/);
  });

  it('runs WAL with synchronous = FULL on a file database', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'durable-'));
    const { client } = await open(join(dir, 'phimviet.db'));
    expect((await client.execute('PRAGMA journal_mode')).rows[0]?.journal_mode).toBe('wal');
    // 2 = FULL: the WAL is synced at every commit, before the caller hears the answer.
    expect(Number((await client.execute('PRAGMA synchronous')).rows[0]?.synchronous)).toBe(2);
  });

  it('refuses a database that cannot run WAL, saying so', async () => {
    // An in-memory database has no WAL: its journal stays "memory", as one on a filesystem without shared memory would stay "delete".
    const client = createClient({ url: ':memory:' });
    await expect(applyDurability(client)).rejects.toThrow(/không chạy ở chế độ WAL \(journal_mode = memory\)/);
    client.close();
  });

  it('takes no snapshot when nothing is pending or the database is new', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'no-snapshot-'));
    const file = join(dir, 'phimviet.db');
    (await open(file, { backupDir: join(dir, 'backups') })).client.close();
    opened.length = 0;
    await open(file, { backupDir: join(dir, 'backups') });
    expect(existsSync(join(dir, 'backups'))).toBe(false);
  });
});
