import { api, unwrap } from '../../lib/api-client';
import { authedCall } from '../../lib/auth-request';
import { listDownloads } from '../../lib/downloads/store';
import type { WatchEntry } from '../../lib/watch-history';
import { signOut } from '../../lib/session';
import type { RequestDeletionInput } from '../../../../worker/schemas/account-data';

/** POST /api/account/deletion: every device (this one too) is signed out by the API; this tab follows. */
export async function requestDeletion(input: RequestDeletionInput): Promise<string> {
  const result = await unwrap(authedCall((headers) => api.api.account.deletion.$post({ json: input }, { headers })));
  signOut();
  return result.message;
}

/** "Khôi phục tài khoản". */
export async function restoreAccount(): Promise<string> {
  return (await unwrap(authedCall((headers) => api.api.account.deletion.$delete(undefined, { headers })))).message;
}

/** "Xóa ngay": erased now; the tab signs out. */
export async function eraseNow(): Promise<string> {
  const result = await unwrap(authedCall((headers) => api.api.account.deletion.now.$post(undefined, { headers })));
  signOut();
  return result.message;
}

/**
 * "Tải dữ liệu của tôi": the account's file from the API (docs/export-format.md) plus what only this device holds
 * (its local watch history and its downloads list), saved as one JSON file.
 */
export async function downloadMyData(localHistory: WatchEntry[]): Promise<void> {
  const res = await authedCall((headers) => api.api.account.export.$get(undefined, { headers }));
  const file = (await unwrap(Promise.resolve(res))) as Record<string, unknown>;
  const downloads = await listDownloads().catch(() => []);
  const thisDevice = {
    watchHistory: localHistory,
    downloads: downloads.map((d) => ({
      film: d.slug,
      title: d.filmTitle,
      episode: d.episode,
      state: d.state,
      bytes: d.bytes,
      createdAt: d.createdAt,
    })),
  };
  const blob = new Blob([JSON.stringify({ ...file, thisDevice }, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `phimviet-du-lieu-${new Date().toISOString().slice(0, 10)}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
