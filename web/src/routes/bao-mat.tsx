import { createFileRoute } from '@tanstack/react-router';
import { PrivacyDetails } from '../features/pages/components/privacy-details';
import { SitePageView } from '../features/pages/components/site-page';

export const Route = createFileRoute('/bao-mat')({
  component: () => (
    <SitePageView slug="bao-mat">
      <PrivacyDetails />
    </SitePageView>
  ),
});
