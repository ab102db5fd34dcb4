import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import type { ExternalToast } from 'sonner';

/**
 * sonner, loaded off the critical path: the Toaster mounts when the browser is idle or at the first
 * toast, whichever comes first, and toasts wait for it. Use `toast` from here, never from 'sonner'.
 */
const loadSonner = () => import('sonner');

let wanted = false;
const wantListeners = new Set<() => void>();
function want() {
  if (wanted) return;
  wanted = true;
  for (const l of wantListeners) l();
}

let markMounted: () => void = () => undefined;
const mounted = new Promise<void>((resolve) => {
  markMounted = resolve;
});

const BELOW_HEADER = 'calc(var(--header-bottom, var(--header-h)) + 8px)';

const LazyToaster = lazy(() =>
  loadSonner().then(({ Toaster }) => ({
    default: function ToasterMounted() {
      useEffect(() => markMounted(), []);
      // Top right, as the spec says, below the header (components/layout/site-header.tsx sets --header-bottom):
      // on a phone the menu button is in that corner, on a laptop the account links.
      return (
        <Toaster
          position="top-right"
          offset={{ top: BELOW_HEADER }}
          mobileOffset={{ top: BELOW_HEADER }}
          duration={5000}
          theme="dark"
          richColors
          closeButton
        />
      );
    },
  })),
);

/** Rendered once at the app root. */
export function AppToaster() {
  const isWanted = useSyncExternalStore(
    (cb) => {
      wantListeners.add(cb);
      return () => wantListeners.delete(cb);
    },
    () => wanted,
    () => false,
  );
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const w = window as Window & { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number };
    if (w.requestIdleCallback) w.requestIdleCallback(() => setIdle(true), { timeout: 4000 });
    else setTimeout(() => setIdle(true), 2000);
  }, []);
  if (!isWanted && !idle) return null;
  return (
    <Suspense fallback={null}>
      <LazyToaster />
    </Suspense>
  );
}

type Kind = 'message' | 'success' | 'error';

function show(kind: Kind, message: string, options?: ExternalToast) {
  want();
  void mounted.then(loadSonner).then(({ toast: t }) => (kind === 'message' ? t(message, options) : t[kind](message, options)));
}

export const toast = Object.assign((message: string, options?: ExternalToast) => show('message', message, options), {
  success: (message: string, options?: ExternalToast) => show('success', message, options),
  error: (message: string, options?: ExternalToast) => show('error', message, options),
});
