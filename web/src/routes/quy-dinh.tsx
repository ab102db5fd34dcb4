import { createFileRoute } from '@tanstack/react-router';
import { SitePageView } from '../features/pages/components/site-page';

export const Route = createFileRoute('/quy-dinh')({
  component: () => <SitePageView slug="quy-dinh" />,
});
