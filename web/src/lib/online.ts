import { useEffect, useSyncExternalStore } from 'react';

function subscribe(cb: () => void) {
  window.addEventListener('online', cb);
  window.addEventListener('offline', cb);
  return () => {
    window.removeEventListener('online', cb);
    window.removeEventListener('offline', cb);
  };
}

/** navigator.onLine as React state. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

/**
 * Whether what the page shows offline came from the device's cache: a good API answer that arrives
 * while the browser is offline can only be the service worker's saved copy (api-client notes them; a
 * failed call changes nothing on screen); going offline clears it (the page on screen came from the
 * network), and the offline page ("not saved on this device") overrides it while it is up. The offline
 * banner claims saved content only then.
 */
const state = { fromCache: false, offlinePages: 0 };
const cacheListeners = new Set<() => void>();

function update(change: Partial<typeof state>): void {
  Object.assign(state, change);
  for (const l of cacheListeners) l();
}

/** api-client: a good API answer just arrived; offline, it is the worker's saved copy. */
export function noteApiAnswer(): void {
  if (typeof navigator === 'undefined' || navigator.onLine !== false || state.fromCache) return;
  update({ fromCache: true });
}

/** While the offline page is mounted, nothing saved is on screen. */
export function useOfflinePageShown(): void {
  useEffect(() => {
    update({ offlinePages: state.offlinePages + 1 });
    return () => update({ offlinePages: state.offlinePages - 1 });
  }, []);
}

function subscribeCache(cb: () => void) {
  const onOffline = () => update({ fromCache: false });
  window.addEventListener('offline', onOffline);
  cacheListeners.add(cb);
  return () => {
    window.removeEventListener('offline', onOffline);
    cacheListeners.delete(cb);
  };
}

export function useShowingSavedContent(): boolean {
  return useSyncExternalStore(
    subscribeCache,
    () => state.fromCache && state.offlinePages === 0,
    () => false,
  );
}
