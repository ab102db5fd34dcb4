// The names a downloaded episode is kept under (decision 0960): its cache and its synthetic URLs. No
// dependencies: the player's engine (offline-loader.ts) reads them without loading the downloads store.

export const OFFLINE_PREFIX = '/offline-media/';
export const CACHE_PREFIX = 'pv-dl-v1:';

export const downloadId = (slug: string, episode: number) => `${slug}~${episode}`;
export const cacheNameOf = (id: string) => `${CACHE_PREFIX}${id}`;
/** The synthetic URL of a stored file (absolute, this origin): `offlineUrl(id, 'index.m3u8')`. */
export const offlineUrl = (id: string, path: string) => `${location.origin}${OFFLINE_PREFIX}${encodeURIComponent(id)}/${path}`;
/** The episode id of a synthetic URL, or undefined for any other URL. */
export function offlineIdOf(url: string): string | undefined {
  const at = url.indexOf(OFFLINE_PREFIX);
  if (at < 0) return undefined;
  const rest = url.slice(at + OFFLINE_PREFIX.length);
  const slash = rest.indexOf('/');
  return slash < 0 ? undefined : decodeURIComponent(rest.slice(0, slash));
}
