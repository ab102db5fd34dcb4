// Loaded on every page once it is idle (routes/__root.tsx): continues downloads that a closed tab, a reload or
// a lost network left unfinished. It reads the downloads database only when it exists, and loads the
// downloader (with the playlist parser) only when something is left to do.
import { DB_NAME, downloadsSupported, listDownloads, onDownloadsChanged } from '../../../lib/downloads/store';

async function unfinished(): Promise<boolean> {
  if (!downloadsSupported()) return false;
  const dbs = await indexedDB.databases?.().catch(() => undefined);
  if (dbs && !dbs.some((d) => d.name === DB_NAME)) return false;
  return (await listDownloads()).some((r) => r.state === 'queued' || r.state === 'downloading');
}

async function resume(): Promise<void> {
  if (await unfinished().catch(() => false)) (await import('./downloader')).kick();
}

let started = false;
/**
 * Now, when the network returns, and whenever another tab queues something: this tab then waits in line for
 * the downloader's lock, so closing the tab that downloads hands the queue to another open tab at once.
 */
export function resumeDownloads(): void {
  if (started) return;
  started = true;
  void resume();
  window.addEventListener('online', () => void resume());
  let pending: number | undefined;
  onDownloadsChanged(() => {
    if (pending !== undefined) return;
    pending = window.setTimeout(() => {
      pending = undefined;
      void resume();
    }, 1000);
  });
}
