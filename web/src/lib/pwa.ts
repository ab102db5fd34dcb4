import type { QueryClient } from '@tanstack/react-query';
import { toast } from './toast';

/**
 * Registers the service worker (production builds only) and announces new versions with a sonner
 * prompt; accepting activates the waiting worker and reloads the page. `onFirstControl` runs once when
 * a worker takes control of a page that had none (the visitor's first page).
 */
export function registerServiceWorker(onFirstControl?: () => void): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  if (onFirstControl && !navigator.serviceWorker.controller)
    navigator.serviceWorker.addEventListener('controllerchange', onFirstControl, { once: true });
  void import('virtual:pwa-register')
    .then(({ registerSW }) => {
      const updateSW = registerSW({
        immediate: true,
        onNeedRefresh() {
          toast('Đã có phiên bản mới của PhimViet.', {
            id: 'sw-update',
            duration: Infinity,
            action: { label: 'Tải lại', onClick: () => void updateSW(true) },
            cancel: { label: 'Để sau', onClick: () => undefined },
          });
        },
        onRegisterError(error: unknown) {
          console.warn('[pwa] service worker registration failed', error);
        },
      });
    })
    .catch((error: unknown) => {
      // The registration's own code could not be fetched (the network went away meanwhile): next page load.
      console.warn('[pwa] service worker registration skipped', error);
    });
}

/** Catalogue reads the worker keeps (web/pwa.config.ts), by query key. */
const CATALOGUE_QUERIES = new Set(['home', 'listing', 'sidebar', 'film', 'search']);
/** The worker's poster cache (web/pwa.config.ts). */
const POSTER_CACHE = 'posters';

/**
 * The page a visitor first lands on was read before any worker existed (or came inside the host's
 * HTML), so nothing of it is on the device. Once the worker controls the page, its catalogue reads are
 * asked again, through the worker, which keeps them, and its posters are put in the worker's poster
 * cache: the same page then opens offline. A signed-in viewer's film detail is personal and never kept.
 */
export async function keepLandingPageOffline(queryClient: QueryClient): Promise<void> {
  await queryClient
    .refetchQueries({
      type: 'active',
      predicate: ({ queryKey: [kind, , viewer] }) => CATALOGUE_QUERIES.has(String(kind)) && !(kind === 'film' && viewer),
    })
    .catch(() => undefined);
  if (!('caches' in window)) return;
  try {
    const cache = await caches.open(POSTER_CACHE);
    const urls = [...new Set(Array.from(document.images, (img) => img.currentSrc).filter((u) => /^https?:/.test(u)))].slice(0, 80);
    await Promise.all(
      urls.map(async (url) => {
        if (await cache.match(url)) return;
        const sameOrigin = new URL(url).origin === window.location.origin;
        const res = await fetch(url, { mode: sameOrigin ? 'same-origin' : 'no-cors' });
        if (res.ok || res.type === 'opaque') await cache.put(url, res);
      }),
    );
  } catch (error) {
    console.warn('[pwa] could not keep the posters of the first page', error);
  }
}
