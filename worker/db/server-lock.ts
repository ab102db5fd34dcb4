// Node-only: the file beside the database that says a server is using it (`phimviet.db.server`, its pid).
// `npm run restore` refuses while that process lives (docs/decisions/1061-backups-that-restore.md).
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

export const serverLockFileOf = (databaseFile: string) => `${databaseFile}.server`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of a live server holding the database, or undefined (no lock file, or a stale one a killed server left). */
export function serverHolding(databaseFile: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(serverLockFileOf(databaseFile), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : undefined;
}

/**
 * Marks the database as served by this process; the returned function (also run on exit) removes the mark if it
 * is still this process's. A mark left by another live process is taken over rather than refused: `npm run dev`
 * starts the next API process while the previous one may still be closing.
 */
export function holdServerLock(databaseFile: string): () => void {
  const file = serverLockFileOf(databaseFile);
  writeFileSync(file, `${process.pid}\n`, { mode: 0o644 });
  const release = () => {
    process.off('exit', release);
    try {
      if (Number(readFileSync(file, 'utf8').trim()) === process.pid) rmSync(file, { force: true });
    } catch {
      // Already gone.
    }
  };
  process.on('exit', release);
  return release;
}
