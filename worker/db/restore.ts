// Node-only: `npm run restore <file>` (docs/decisions/1061-backups-that-restore.md).
import { createClient } from '@libsql/client';
import { copyFileSync, existsSync, linkSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { fsyncPath, openSealedSecrets, secretsFileOf, verifyBackup, writeFileAtomic } from './backup';
import { type NodeDatabase, openDatabase, openMigratedDatabase } from './node-client';
import { serverHolding } from './server-lock';

/**
 * A step run after a restore, once the restored database is migrated: `restored` is the database now in
 * place, `previous` the one kept aside (read it, never write it), null when there was none. Re-applying the
 * erasures recorded after the backup is such a step; the composition root registers them with
 * registerPostRestoreStep (worker/db/post-restore-steps.ts), so this file imports no feature.
 */
export type PostRestoreStep = (restored: NodeDatabase, previous: NodeDatabase | null) => Promise<void>;

export interface RestoreOptions {
  backup: string;
  databaseFile: string;
  /** data/secrets.json: replaced by the backup's sealed copy when it has one. */
  secretsFile: string;
  passphrase?: string;
  steps?: readonly { name: string; run: PostRestoreStep }[];
  now?: Date;
  log?: (line: string) => void;
}

export interface RestoreResult {
  /** Where the database in place before the restore was kept (`<db>.pre-restore-<time>`), if there was one. */
  keptAside?: string;
  secretsRestored: boolean;
}

/**
 * Refuses while a server holds the database; verifies the backup (sha256, integrity, foreign keys) and opens
 * its sealed secrets before touching anything; keeps the current file aside (hard link, its WAL checkpointed
 * into it first); swaps the verified copy in with one rename; migrates; runs the post-restore steps.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const log = options.log ?? (() => undefined);
  const { databaseFile: target, backup } = options;
  const holder = serverHolding(target);
  if (holder) throw new Error(`Máy chủ (pid ${holder}) đang chạy trên ${target}: dừng máy chủ rồi khôi phục.`);

  await verifyBackup(backup);
  log(`• ${backup}: sha256, integrity_check và foreign_key_check đạt`);
  const sealed = secretsFileOf(backup);
  let secrets: Buffer | undefined;
  if (existsSync(sealed)) {
    if (!options.passphrase) throw new Error(`Bản sao lưu có tệp bí mật (${sealed}): đặt BACKUP_PASSPHRASE để khôi phục cả nó.`);
    secrets = openSealedSecrets(readFileSync(sealed, 'utf8'), options.passphrase);
  }

  const stamp = (options.now ?? new Date()).toISOString().replace(/[:.]/g, '-');
  let keptAside: string | undefined;
  if (existsSync(target)) {
    // The current file's committed transactions may still sit in its WAL: fold them in, so the file kept
    // aside is whole on its own and no stale -wal is left to be replayed onto the restored copy.
    const current = createClient({ url: `file:${target}` });
    try {
      await current.execute('PRAGMA wal_checkpoint(TRUNCATE)');
    } finally {
      current.close();
    }
    keptAside = `${target}.pre-restore-${stamp}`;
    linkSync(target, keptAside);
  }
  for (const suffix of ['-wal', '-shm']) rmSync(`${target}${suffix}`, { force: true });

  const incoming = `${target}.restore-tmp`;
  copyFileSync(backup, incoming);
  fsyncPath(incoming);
  renameSync(incoming, target);
  fsyncPath(dirname(target));
  log(`• Đã thay ${target}${keptAside ? ` (bản cũ giữ ở ${keptAside})` : ''}`);

  if (secrets) {
    if (existsSync(options.secretsFile)) renameSync(options.secretsFile, `${options.secretsFile}.pre-restore-${stamp}`);
    writeFileAtomic(options.secretsFile, secrets);
    log(`• Đã khôi phục ${options.secretsFile}`);
  }

  // No snapshot of the copy just restored: it is a backup already.
  const restored = await openMigratedDatabase(`file:${target}`, undefined, { skipSnapshot: true });
  const previous = keptAside ? openDatabase(`file:${keptAside}`) : null;
  try {
    for (const step of options.steps ?? []) {
      await step.run(restored, previous);
      log(`• ${step.name}: xong`);
    }
  } finally {
    previous?.client.close();
    restored.client.close();
  }
  return { ...(keptAside ? { keptAside } : {}), secretsRestored: Boolean(secrets) };
}
