// `npm run backup`: a verified copy of the live database (the site may keep serving) in BACKUP_DIR
// (data/backups by default), with data/secrets.json sealed beside it under BACKUP_PASSPHRASE.
// docs/operations.md says how to run it daily and copy it off the machine.
import { existsSync } from 'node:fs';
import { backupDatabase, defaultBackupDir } from '../worker/db/backup';
import { DEFAULT_DATABASE_URL, databaseFileOf, openDatabase } from '../worker/db/node-client';
import { LOCAL_SECRETS_FILE } from '../worker/local-secrets';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const file = databaseFileOf(url);
  if (!file) throw new Error(`${url} không phải tệp cục bộ: Turso tự sao lưu, xem docs/operations.md (khôi phục theo thời điểm).`);
  if (!existsSync(file)) throw new Error(`Không có cơ sở dữ liệu ${file}`);
  const secretsFile = process.env.SECRETS_FILE ?? LOCAL_SECRETS_FILE;
  const passphrase = process.env.BACKUP_PASSPHRASE;
  // Without its secrets a restored site signs everyone out, cannot open pending mails and loses every push
  // subscription: no backup is made without them (docs/decisions/1061-backups-that-restore.md).
  if (existsSync(secretsFile) && !passphrase) {
    throw new Error(`Đặt BACKUP_PASSPHRASE (ít nhất 12 ký tự) để sao lưu cả ${secretsFile} (mã hóa AES-256-GCM).`);
  }
  if (passphrase !== undefined && passphrase.length < 12) throw new Error('BACKUP_PASSPHRASE phải dài ít nhất 12 ký tự.');
  const started = performance.now();
  // Its own connection in its own process: a WAL reader, so the server keeps writing meanwhile.
  const { client } = openDatabase(url);
  try {
    const result = await backupDatabase({
      client,
      dir: defaultBackupDir(file),
      ...(passphrase && existsSync(secretsFile) ? { secrets: { file: secretsFile, passphrase } } : {}),
    });
    const ms = Math.round(performance.now() - started);
    console.log(`• ${result.file} (${(result.bytes / 1e6).toFixed(1)} MB, sha256 ${result.sha256.slice(0, 12)}…, ${ms} ms)`);
    if (result.secretsFile) console.log(`• ${result.secretsFile} (bí mật, đã mã hóa)`);
    else console.log('• Không có data/secrets.json: các bí mật nằm trong biến môi trường, hãy giữ chúng ở nơi khác.');
  } finally {
    client.close();
  }
}

main().catch((err: unknown) => {
  console.error(`Sao lưu thất bại: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
