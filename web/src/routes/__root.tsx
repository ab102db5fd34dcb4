import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { NotFoundPage } from '../components/layout/not-found-page';
import { OfflineBanner } from '../components/layout/offline-banner';
import { SiteFooter } from '../components/layout/site-footer';
import { SiteHeader } from '../components/layout/site-header';
import { AccountLinks } from '../features/auth/components/account-links';
import { PendingDeletionNotice } from '../features/account-data/components/pending-deletion-notice';
import { SearchBox } from '../features/search/components/search-box';
import { ConsentPrompt } from '../features/pages/components/consent-prompt';
import { WatchlistSlugsProvider } from '../lib/library';
import type { Session } from '../lib/session';
import { AppToaster } from '../lib/toast';

export interface RouterContext {
  queryClient: QueryClient;
  /** The signed-in viewer ({ token, id, email, name, roles, permissions }) or null. */
  auth: Session | null;
}

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFoundPage,
});

function RootLayout() {
  // The back office (/admin/*) has its own layout and no public header or footer.
  const publicChrome = useRouterState({ select: (s) => !s.matches.some((m) => m.routeId === '/admin') });
  useResumeDownloads();
  return (
    <>
      <a href="#main" className="skip-link">
        Bỏ qua tới nội dung chính
      </a>
      <OfflineBanner />
      {publicChrome && <PendingDeletionNotice />}
      {publicChrome && <SiteHeader account={<AccountLinks />} search={<SearchBox />} />}
      <main id="main" tabIndex={-1}>
        {/* The hearts on the public pages' cards read the list once for the page. */}
        {publicChrome ? (
          <WatchlistSlugsProvider>
            <Outlet />
          </WatchlistSlugsProvider>
        ) : (
          <Outlet />
        )}
      </main>
      {publicChrome && <SiteFooter />}
      {/* A new privacy policy version: asked once of a signed-in member (docs/decisions/1050). */}
      {publicChrome && <ConsentPrompt />}
      <AppToaster />
    </>
  );
}

/** Unfinished downloads continue once the first page is idle (issue 26); the code loads only then. */
function useResumeDownloads(): void {
  useEffect(() => {
    const start = () => void import('../features/downloads/engine/auto-resume').then((m) => m.resumeDownloads()).catch(() => undefined);
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(start, { timeout: 5000 });
      return () => window.cancelIdleCallback(id);
    }
    const t = window.setTimeout(start, 2000);
    return () => window.clearTimeout(t);
  }, []);
}
