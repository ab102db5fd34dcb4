import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRouter, RouterProvider } from '@tanstack/react-router';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { FullScreenSpinner } from './components/layout/full-screen-spinner';
import { NotFoundPage } from './components/layout/not-found-page';
import { RouteError } from './components/layout/route-error';
import { ApiError, isNetworkError } from './lib/api-client';
import { initAnalytics } from './lib/analytics';
import { onSessionExpired } from './lib/auth-request';
import { getSession, useSession } from './lib/session';
import { markFirstRender } from './lib/first-load';
import { prefetchFirstPage } from './app/boot-prefetch';
import { registerServiceWorker } from './lib/pwa';
import { routeTree } from './routeTree.gen';
import './styles/global.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      gcTime: 10 * 60_000,
      // 'offlineFirst' still calls fetch when the browser says it is offline, so the service
      // worker can answer from its cache; the default 'online' mode would just pause.
      networkMode: 'offlineFirst',
      refetchOnWindowFocus: false,
      retry: (count, error) => count < 2 && !isNetworkError(error) && !(error instanceof ApiError && error.status < 500),
    },
    mutations: { networkMode: 'offlineFirst' },
  },
});

prefetchFirstPage(queryClient, window.location);

const router = createRouter({
  routeTree,
  context: { queryClient, auth: getSession() },
  defaultPreload: 'intent',
  // Query owns freshness; the router always asks it.
  defaultPreloadStaleTime: 0,
  defaultPendingComponent: FullScreenSpinner,
  defaultPendingMs: 400,
  defaultErrorComponent: RouteError,
  defaultNotFoundComponent: NotFoundPage,
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

onSessionExpired(() => void router.navigate({ to: '/dang-nhap' }));

/** The router context follows the session: guards (beforeLoad) read `context.auth`. */
function App() {
  const auth = useSession();
  return <RouterProvider router={router} context={{ auth }} />;
}

// First page: resolve the route, its code and its data, then render once (lib/first-load.ts).
// A transition render yields to the browser every few ms instead of one long task.
void router
  .load()
  .catch(() => undefined)
  .then(() => {
    const root = createRoot(document.getElementById('root')!);
    startTransition(() =>
      root.render(
        <StrictMode>
          <QueryClientProvider client={queryClient}>
            <App />
          </QueryClientProvider>
        </StrictMode>,
      ),
    );
    markFirstRender();
  });

window.addEventListener('load', () => {
  initAnalytics();
  // The worker's precache download must not compete with the first page's own requests.
  const w = window as Window & { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number };
  const later = () => setTimeout(registerServiceWorker, 2000);
  if (w.requestIdleCallback) w.requestIdleCallback(later, { timeout: 5000 });
  else later();
});
