// Backups that restore: a backup taken while writes go on, restored into a fresh folder, holds every write
// acknowledged before it began, passes integrity, and brings the secrets back; restore refuses a running
// server, a copy whose checksum does not match and a wrong passphrase, and changes nothing when it refuses.
import { createClient } from '@libsql/client';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../worker/config';
import { backupDatabase, checkDatabaseFile } from '../../worker/db/backup';
import { type NodeDatabase, openDatabase, openMigratedDatabase } from '../../worker/db/node-client';
import { restoreBackup } from '../../worker/db/restore';
import { startNodeServer } from '../../worker/node';
import { insertFilm } from '../helpers/auth';

const PASSPHRASE = 'mot-cau-rat-dai-de-nho';
const opened: NodeDatabase[] = [];
afterEach(() => {
  for (const database of opened.splice(0)) database.client.close();
});

async function liveSite() {
  const dir = mkdtempSync(join(tmpdir(), 'live-site-'));
  const file = join(dir, 'phimviet.db');
  const database = await openMigratedDatabase(`file:${file}`);
  opened.push(database);
  const secretsFile = join(dir, 'secrets.json');
  writeFileSync(secretsFile, `${JSON.stringify({ JWT_SECRET: 'a'.repeat(43), PARTY_SECRET: 'b'.repeat(43) })}\n`, { mode: 0o600 });
  return { dir, file, database, secretsFile };
}

async function slugs(file: string): Promise<Set<string>> {
  const client = createClient({ url: `file:${file}` });
  try {
    return new Set((await client.execute('select slug from films')).rows.map((row) => String(row.slug)));
  } finally {
    client.close();
  }
}

describe('npm run backup, then npm run restore', () => {
  it('keeps every write acknowledged before the backup, with integrity and the secrets, while writes go on', async () => {
    const site = await liveSite();
    const acknowledged: { slug: string; at: number }[] = [];
    let writing = true;
    let n = 0;
    const writer = (async () => {
      while (writing) {
        const slug = `phim-${n++}`;
        await insertFilm(site.database.db, slug);
        acknowledged.push({ slug, at: performance.now() });
        // Let the backup's own connection run between writes, as two processes would.
        await new Promise((tick) => setImmediate(tick));
      }
    })();
    while (acknowledged.length < 50) await new Promise((tick) => setTimeout(tick, 5));

    // `npm run backup` opens its own connection to the live file.
    const backupClient = openDatabase(`file:${site.file}`);
    const began = performance.now();
    const backup = await backupDatabase({
      client: backupClient.client,
      dir: join(site.dir, 'backups'),
      secrets: { file: site.secretsFile, passphrase: PASSPHRASE },
    });
    backupClient.client.close();
    // Writes went on after it too.
    const after = acknowledged.length;
    while (acknowledged.length < after + 20) await new Promise((tick) => setTimeout(tick, 5));
    writing = false;
    await writer;
    const before = acknowledged.filter((write) => write.at < began).map((write) => write.slug);
    expect(before.length).toBeGreaterThanOrEqual(50);
    expect(readFileSync(backup.secretsFile!, 'utf8')).not.toContain('a'.repeat(43));

    // A fresh folder on another machine: no database there yet.
    const fresh = mkdtempSync(join(tmpdir(), 'restored-site-'));
    const target = join(fresh, 'phimviet.db');
    const result = await restoreBackup({
      backup: backup.file,
      databaseFile: target,
      secretsFile: join(fresh, 'secrets.json'),
      passphrase: PASSPHRASE,
    });
    expect(result).toEqual({ secretsRestored: true });
    const restored = await slugs(target);
    expect(before.filter((slug) => !restored.has(slug))).toEqual([]);
    expect(await checkDatabaseFile(target)).toEqual([]);
    expect(readFileSync(join(fresh, 'secrets.json'), 'utf8')).toBe(readFileSync(site.secretsFile, 'utf8'));
  });

  it('keeps the current database aside and runs the post-restore steps on the restored one', async () => {
    const site = await liveSite();
    await insertFilm(site.database.db, 'truoc-sao-luu');
    const backup = await backupDatabase({
      client: site.database.client,
      dir: join(site.dir, 'backups'),
      secrets: { file: site.secretsFile, passphrase: PASSPHRASE },
    });
    await insertFilm(site.database.db, 'sau-sao-luu');
    site.database.client.close();
    opened.length = 0;

    const seen: { restored: string[]; previous: string[] }[] = [];
    const result = await restoreBackup({
      backup: backup.file,
      databaseFile: site.file,
      secretsFile: site.secretsFile,
      passphrase: PASSPHRASE,
      steps: [
        {
          name: 'đọc cả hai',
          run: async (restored, previous) => {
            const slugsOf = async (database: NodeDatabase | null) =>
              ((await database?.client.execute('select slug from films order by slug'))?.rows ?? []).map((row) => String(row.slug));
            seen.push({ restored: await slugsOf(restored), previous: await slugsOf(previous) });
          },
        },
      ],
    });
    expect(seen).toEqual([{ restored: ['truoc-sao-luu'], previous: ['sau-sao-luu', 'truoc-sao-luu'] }]);
    expect(await slugs(site.file)).toEqual(new Set(['truoc-sao-luu']));
    expect(await slugs(result.keptAside!)).toEqual(new Set(['sau-sao-luu', 'truoc-sao-luu']));
  });

  it('refuses while the server runs, a copy whose checksum differs and a wrong passphrase, changing nothing', async () => {
    const site = await liveSite();
    await insertFilm(site.database.db, 'dang-phuc-vu');
    const backup = await backupDatabase({
      client: site.database.client,
      dir: join(site.dir, 'backups'),
      secrets: { file: site.secretsFile, passphrase: PASSPHRASE },
    });
    const restore = (overrides: Partial<Parameters<typeof restoreBackup>[0]> = {}) =>
      restoreBackup({ backup: backup.file, databaseFile: site.file, secretsFile: site.secretsFile, passphrase: PASSPHRASE, ...overrides });

    const server = await startNodeServer({ port: 0, config: loadConfig({ APP_ENV: 'test' }), database: site.database });
    await expect(restore()).rejects.toThrow(/Máy chủ \(pid \d+\) đang chạy/);
    await server.close();
    site.database.client.close();
    opened.length = 0;

    await expect(restore({ passphrase: 'khong-phai-cau-nay' })).rejects.toThrow(/sai BACKUP_PASSPHRASE/);
    await expect(restore({ passphrase: undefined })).rejects.toThrow(/đặt BACKUP_PASSPHRASE/);
    const tampered = join(site.dir, 'tampered');
    mkdirSync(tampered);
    const copy = join(tampered, 'phimviet-copy.db');
    writeFileSync(copy, readFileSync(backup.file));
    writeFileSync(`${copy}.sha256`, readFileSync(`${backup.file}.sha256`));
    appendFileSync(copy, Buffer.alloc(4096, 1));
    await expect(restore({ backup: copy })).rejects.toThrow(/bị hỏng: sha256/);
    expect(existsSync(`${site.file}.server`)).toBe(false);
    expect(await slugs(site.file)).toEqual(new Set(['dang-phuc-vu']));
    expect(JSON.parse(readFileSync(site.secretsFile, 'utf8')).JWT_SECRET).toBe('a'.repeat(43));
  });
});
