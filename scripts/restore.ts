// `npm run restore <file>`: puts a backup made by `npm run backup` in place of the database, with its
// secrets (BACKUP_PASSPHRASE), once the server is stopped. The current file is kept aside.
import { resolve } from 'node:path';
import { DEFAULT_DATABASE_URL, databaseFileOf } from '../worker/db/node-client';
import { postRestoreSteps } from '../worker/db/post-restore-steps';
import { restoreBackup } from '../worker/db/restore';
import { LOCAL_SECRETS_FILE } from '../worker/local-secrets';

async function main(): Promise<void> {
  const backup = process.argv[2];
  if (!backup) throw new Error('Cách dùng: npm run restore <tệp .db trong thư mục sao lưu>');
  const url = process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const file = databaseFileOf(url);
  if (!file) throw new Error(`${url} không phải tệp cục bộ: khôi phục Turso theo thời điểm, xem docs/operations.md.`);
  const result = await restoreBackup({
    backup: resolve(backup),
    databaseFile: file,
    secretsFile: process.env.SECRETS_FILE ?? LOCAL_SECRETS_FILE,
    passphrase: process.env.BACKUP_PASSPHRASE,
    steps: postRestoreSteps(),
    log: (line) => console.log(line),
  });
  console.log(`Đã khôi phục ${file}${result.secretsRestored ? ' và các bí mật' : ''}.`);
}

main().catch((err: unknown) => {
  console.error(`Khôi phục thất bại: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
