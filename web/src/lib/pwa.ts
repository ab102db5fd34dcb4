import { toast } from './toast';

/**
 * Registers the service worker (production builds only) and announces new versions with a sonner
 * prompt; accepting activates the waiting worker and reloads the page.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  void import('virtual:pwa-register').then(({ registerSW }) => {
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
  });
}
