// Node-only: consistent copies of the file database (`npm run backup`, the snapshot before migrations) and
// the local secrets sealed beside them (docs/decisions/1061-backups-that-restore.md).
import { createClient, type Client } from '@libsql/client';
import { createCipheriv, createDecipheriv, createHash, randomBytes, scryptSync } from 'node:crypto';
import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** BACKUP_DIR when set, else `backups/` beside the database file (data/backups for the default database). */
export function defaultBackupDir(databaseFile: string, env: Record<string, string | undefined> = process.env): string {
  return resolve(env.BACKUP_DIR || join(dirname(databaseFile), 'backups'));
}

/** fsync a file or a directory (a rename is durable once its directory is synced). */
export function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes `content` to `file` atomically: a temporary name, fsync, rename, fsync of the folder. */
export function writeFileAtomic(file: string, content: string | Buffer, mode = 0o600): void {
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, content, { mode });
  fsyncPath(tmp);
  renameSync(tmp, file);
  fsyncPath(dirname(file));
}

export function sha256File(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** `PRAGMA integrity_check` and `foreign_key_check` on a database file opened on its own; the problems found, none when sound. */
export async function checkDatabaseFile(file: string): Promise<string[]> {
  const client = createClient({ url: `file:${file}` });
  try {
    const integrity = await client.execute('PRAGMA integrity_check');
    const problems = integrity.rows.map((row) => String(Object.values(row)[0])).filter((line) => line !== 'ok');
    const dangling = await client.execute('PRAGMA foreign_key_check');
    for (const row of dangling.rows)
      problems.push(`tham chiếu hỏng: ${String(row.table)} dòng ${String(row.rowid)} → ${String(row.parent)}`);
    return problems;
  } catch (err) {
    return [err instanceof Error ? err.message : String(err)];
  } finally {
    client.close();
  }
}

// The secrets file sealed with a key drawn from a passphrase: scrypt (N = 2^15, r = 8, p = 1), AES-256-GCM.
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

interface SealedSecrets {
  v: 1;
  kdf: 'scrypt';
  N: number;
  r: number;
  p: number;
  salt: string;
  iv: string;
  tag: string;
  data: string;
}

export function sealSecrets(plain: Buffer, passphrase: string): string {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const key = scryptSync(passphrase, salt, 32, SCRYPT);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  const sealed: SealedSecrets = {
    v: 1,
    kdf: 'scrypt',
    N: SCRYPT.N,
    r: SCRYPT.r,
    p: SCRYPT.p,
    salt: salt.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
  return `${JSON.stringify(sealed)}\n`;
}

/** The plain secrets, or an error saying the passphrase is wrong (GCM's tag does not verify) or the file is not ours. */
export function openSealedSecrets(sealedText: string, passphrase: string): Buffer {
  const sealed = JSON.parse(sealedText) as SealedSecrets;
  if (sealed.v !== 1 || sealed.kdf !== 'scrypt') throw new Error('Tệp bí mật sao lưu không đúng định dạng');
  const key = scryptSync(passphrase, Buffer.from(sealed.salt, 'base64'), 32, {
    N: sealed.N,
    r: sealed.r,
    p: sealed.p,
    maxmem: SCRYPT.maxmem,
  });
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]);
  } catch {
    throw new Error('Không mở được tệp bí mật sao lưu: sai BACKUP_PASSPHRASE hoặc tệp đã bị sửa');
  }
}

/** The companion files of a backup `x.db`: `x.db.sha256` and `x.secrets.enc`. */
export const checksumFileOf = (backup: string) => `${backup}.sha256`;
export const secretsFileOf = (backup: string) => backup.replace(/\.db$/, '.secrets.enc');

export interface BackupOptions {
  /** A connection to the live database (its own process for `npm run backup`: WAL readers never block the writer). */
  client: Client;
  dir: string;
  /** The database's name in the backup's (phimviet by default). */
  name?: string;
  /** Appended to the name: `pre-migrate` for the snapshot before migrations. */
  label?: string;
  /** data/secrets.json, sealed beside the copy with `passphrase`. */
  secrets?: { file: string; passphrase: string };
  now?: Date;
}

export interface BackupResult {
  file: string;
  sha256: string;
  bytes: number;
  secretsFile?: string;
}

/**
 * `VACUUM INTO` a temporary file (a consistent snapshot of the live database), fsync, integrity and
 * foreign-key checks on the copy, sha256 written beside it, then an atomic rename to a timestamped name.
 * A copy that fails a check is removed and the error names the problems.
 */
export async function backupDatabase(options: BackupOptions): Promise<BackupResult> {
  const dir = resolve(options.dir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, '-');
  const base = `${options.name ?? 'phimviet'}-${stamp}${options.label ? `-${options.label}` : ''}`;
  const file = join(dir, `${base}.db`);
  if (existsSync(file)) throw new Error(`Bản sao lưu ${file} đã có`);
  const tmp = join(dir, `.${base}.db.tmp`);
  rmSync(tmp, { force: true });
  try {
    await options.client.execute({ sql: 'VACUUM INTO ?', args: [tmp] });
    // Members' data: readable by this user alone, as data/secrets.json is.
    chmodSync(tmp, 0o600);
    // VACUUM INTO does not sync its output: without this a power cut right after could leave a torn copy.
    fsyncPath(tmp);
    const problems = await checkDatabaseFile(tmp);
    if (problems.length > 0) throw new Error(`Bản sao lưu không đạt kiểm tra: ${problems.slice(0, 10).join('; ')}`);
    const sha256 = createHash('sha256').update(readFileSync(tmp)).digest('hex');
    const bytes = readFileSync(tmp).byteLength;
    let secretsFile: string | undefined;
    if (options.secrets && existsSync(options.secrets.file)) {
      secretsFile = secretsFileOf(file);
      writeFileAtomic(secretsFile, sealSecrets(readFileSync(options.secrets.file), options.secrets.passphrase));
    }
    writeFileAtomic(checksumFileOf(file), `${sha256}  ${basename(file)}\n`, 0o644);
    renameSync(tmp, file);
    fsyncPath(dir);
    return { file, sha256, bytes, ...(secretsFile ? { secretsFile } : {}) };
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Checks a backup before it is used: its sha256 against the file beside it, then integrity and foreign keys. */
export async function verifyBackup(file: string): Promise<void> {
  const sumFile = checksumFileOf(file);
  if (!existsSync(file)) throw new Error(`Không có tệp sao lưu ${file}`);
  if (!existsSync(sumFile)) throw new Error(`Thiếu tệp kiểm tra ${sumFile}: không khôi phục một bản không kiểm được`);
  const expected = readFileSync(sumFile, 'utf8').trim().split(/\s+/)[0];
  const actual = sha256File(file);
  if (expected !== actual) throw new Error(`Bản sao lưu ${basename(file)} bị hỏng: sha256 ${actual} khác ${expected}`);
  const problems = await checkDatabaseFile(file);
  if (problems.length > 0) throw new Error(`Bản sao lưu ${basename(file)} không đạt kiểm tra: ${problems.slice(0, 10).join('; ')}`);
}
