import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { NotFoundPage } from '../components/layout/not-found-page';
import { OfflineBanner } from '../components/layout/offline-banner';
import { SiteFooter } from '../components/layout/site-footer';
import { SiteHeader } from '../components/layout/site-header';
import { AccountLinks } from '../features/auth/components/account-links';
import { SearchBox } from '../features/search/components/search-box';
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
  return (
    <>
      <a href="#main" className="skip-link">
        Bỏ qua tới nội dung chính
      </a>
      <OfflineBanner />
      <SiteHeader account={<AccountLinks />} search={<SearchBox />} />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <SiteFooter />
      <AppToaster />
    </>
  );
}
