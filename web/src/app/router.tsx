import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRouter, type RouterHistory, RouterProvider } from '@tanstack/react-router';
import { StrictMode, useEffect } from 'react';
import { FullScreenSpinner } from '../components/layout/full-screen-spinner';
import { NotFoundPage } from '../components/layout/not-found-page';
import { RouteError } from '../components/layout/route-error';
import { type PageMeta, ServerPageMeta } from '../lib/page-meta';
import { type Session, useSession } from '../lib/session';
import { routeTree } from '../routeTree.gen';

// In a module of its own so a test can build the app's query client without the route tree (tests/api/comments-reconnect-requests.test.ts).
export { createQueryClient } from './query-client';

export function createAppRouter(queryClient: QueryClient, auth: Session | null, history?: RouterHistory) {
  return createRouter({
    routeTree,
    history,
    context: { queryClient, auth },
    defaultPreload: 'intent',
    // Query owns freshness; the router always asks it.
    defaultPreloadStaleTime: 0,
    defaultPendingComponent: FullScreenSpinner,
    defaultPendingMs: 400,
    defaultErrorComponent: RouteError,
    defaultNotFoundComponent: NotFoundPage,
    // On the server it would render an inline script, which the CSP forbids; the browser restores scroll itself.
    scrollRestoration: !history,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}

/** The router context follows the session: guards (beforeLoad) read `context.auth`. */
function App({ router }: { router: AppRouter }) {
  const auth = useSession();
  return <RouterProvider router={router} context={{ auth }} />;
}

/**
 * Marks <html data-app-ready> once the app's first render is committed (hydrated or rendered): until then a
 * server-rendered page shows but does not respond (browser tests wait for it).
 */
function ReadyMark() {
  useEffect(() => {
    document.documentElement.dataset.appReady = '';
  }, []);
  return null;
}

/**
 * The whole tree, identical on both sides (hydration compares them node for node). `meta` collects the
 * page's title and description on the host (lib/page-meta.ts).
 */
export function AppRoot({ router, queryClient, meta = null }: { router: AppRouter; queryClient: QueryClient; meta?: PageMeta | null }) {
  return (
    <StrictMode>
      <ServerPageMeta.Provider value={meta}>
        <QueryClientProvider client={queryClient}>
          <App router={router} />
          <ReadyMark />
        </QueryClientProvider>
      </ServerPageMeta.Provider>
    </StrictMode>
  );
}

/** Routes a visitor lands on whose anonymous page the host renders (the rest render in the browser only). */
export const SERVER_RENDERED_ROUTES: ReadonlySet<string> = new Set([
  '__root__',
  '/',
  '/phim-bo',
  '/phim-le',
  '/phim-shows',
  '/phim-sap-chieu',
  '/$slug',
  '/the-loai/$slug',
  '/dien-vien/$slug',
  '/dao-dien/$slug',
  '/tim-kiem/$q',
  '/xem-phim/$slug/$episode',
]);

/** The id of the JSON script carrying the server's query cache (dehydrated) to the browser. */
export const SSR_STATE_ID = 'ssr-state';
