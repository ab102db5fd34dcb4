// `npm run restore <file>`: puts a backup made by `npm run backup` in place of the database, with its
// secrets (BACKUP_PASSPHRASE), once the server is stopped. The current file is kept aside.
import { resolve } from 'node:path';
import { DEFAULT_DATABASE_URL, databaseFileOf } from '../worker/db/node-client';
import { loadConfig } from '../worker/config';
import { postRestoreSteps, registerPostRestoreStep } from '../worker/db/post-restore-steps';
import { localSecrets } from '../worker/local-secrets';
import { reapplyErasures } from '../worker/services/account/erasure';
import { duties } from '../worker/wiring';
import { restoreBackup } from '../worker/db/restore';
import { LOCAL_SECRETS_FILE } from '../worker/local-secrets';

// Accounts erased after the backup was taken (their records are in the database kept aside) are erased again, with
// the restored secrets (the address hashes are keyed by JWT_SECRET).
registerPostRestoreStep('erasures', async (restored, previous) => {
  const config = loadConfig({ ...process.env, ...localSecrets(process.env, process.env.SECRETS_FILE ?? LOCAL_SECRETS_FILE) });
  const n = await reapplyErasures(restored.db, config, duties.erase, Date.now(), previous?.db);
  if (n > 0) console.log(`Đã xóa lại ${n} tài khoản bị xóa sau lần sao lưu.`);
});

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
