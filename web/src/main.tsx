// First: zod must be configured before any schema module is evaluated.
import './app/zod-jitless';
import { hydrate, onlineManager } from '@tanstack/react-query';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { prefetchFirstPage } from './app/boot-prefetch';
import { AppRoot, createAppRouter, createQueryClient, SSR_STATE_ID } from './app/router';
import { forgetBootResponses } from './lib/api-client';
import { initAnalytics } from './lib/analytics';
import { onSessionExpired, restoreRememberedSession } from './lib/auth-request';
import { markFirstRender } from './lib/first-load';
import { markFirstRouteLoaded } from './lib/first-route';
import { startLibrary } from './lib/library';
import { keepLandingPageOffline, registerServiceWorker } from './lib/pwa';
import { getSession } from './lib/session';
import './styles/global.css';

/** The query cache the host rendered this page with (worker/ssr/render.ts), when it rendered it. */
function serverState(): unknown {
  const script = document.getElementById(SSR_STATE_ID);
  if (!script?.textContent) return undefined;
  try {
    return JSON.parse(script.textContent);
  } catch {
    return undefined;
  }
}

/** Lets the browser run other work (input, paint) before the next step: `scheduler.yield()` where it exists. */
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The app starts in tasks of its own after this chunk is evaluated, each a few milliseconds: evaluating
 * the entry chunk is a long task already, and the start (the query cache, the router, the first route's
 * code and data) would make it longer (docs/decisions/0611).
 */
setTimeout(() => void start(), 0);

/**
 * The page carries the app's stylesheet inline (vite-plugins.ts inlineCss). A lazy chunk that imports the app's code
 * lists that stylesheet among its dependencies, and Vite's preload helper linked it again, unless a
 * `<link rel="stylesheet">` with its address is in the page: the film and watch pages fetched its 43 KB and applied it
 * a second time (a whole-document style recalculation, right after the tap on "Xem phim"). A disabled link says it is
 * in, and is never fetched. A page the host rendered carries only the rules its own markup uses (data-critical;
 * worker/ssr/critical-css.ts): there the link is the whole sheet, fetched now, before anything the app renders can
 * need a rule the page did not carry. Once it is in, the part goes: the same rules in the same order, applied twice,
 * made every later style recalculation (the watch page's, after "Xem phim") match each of them twice.
 */
function linkInlineStylesheets(): void {
  for (const style of document.querySelectorAll<HTMLStyleElement>('style[data-href]')) {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    const critical = style.dataset.critical !== undefined;
    link.disabled = !critical;
    if (critical) link.addEventListener('load', () => style.remove(), { once: true });
    link.href = style.dataset.href!;
    document.head.append(link);
  }
}

async function start() {
  linkInlineStylesheets();
  // A remembered session opened in a new tab or a relaunch: signed in before any guard or personal read
  // runs (the boot script's reads went out anonymous, so they are not reused).
  if (await restoreRememberedSession()) forgetBootResponses();
  // A page opened offline hears no 'offline' event: the query client must know, or it would not see the
  // network come back (its 'online' would change nothing) and nothing would refetch.
  onlineManager.setOnline(navigator.onLine);
  const queryClient = createQueryClient();
  const state = serverState();
  if (state) hydrate(queryClient, state);
  else prefetchFirstPage(queryClient, window.location);
  await nextTask();

  const session = getSession();
  const router = createAppRouter(queryClient, session);
  // The host renders the anonymous page; a signed-in viewer's page differs (their film detail, the header),
  // so it is rendered afresh over the server's HTML instead of hydrated.
  const hydrating = !!state && !session;
  // What router-core's own hydration sets: the route tree then renders without the top-level Suspense
  // boundary the server did not render either (node for node the same markup).
  if (hydrating) router.ssr = { manifest: undefined };
  onSessionExpired(() => void router.navigate({ to: '/dang-nhap' }));
  await nextTask();

  // First page: resolve the route, its code and its data (already in the cache when the host rendered
  // it), then render once (lib/first-load.ts). A transition render yields to the browser every few ms.
  await router.load().catch(() => undefined);
  markFirstRouteLoaded();
  const container = document.getElementById('root')!;
  const app = <AppRoot router={router} queryClient={queryClient} />;
  if (hydrating) startTransition(() => void hydrateRoot(container, app));
  else {
    const root = createRoot(container);
    startTransition(() => root.render(app));
  }
  markFirstRender();
  startLibrary(queryClient);

  // This module starts after the first paint (web/vite-plugins.ts startAfterPaint): the load event may be past.
  const afterLoad = () => startAfterLoad(() => void keepLandingPageOffline(queryClient));
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad);
}

function startAfterLoad(onFirstControl: () => void) {
  initAnalytics();
  // The worker's precache download must not compete with the first page's own requests.
  const w = window as Window & { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number };
  const later = () => setTimeout(() => registerServiceWorker(onFirstControl), 2000);
  if (w.requestIdleCallback) w.requestIdleCallback(later, { timeout: 5000 });
  else later();
}
