import { createFileRoute } from '@tanstack/react-router';
import { SitePageView } from '../features/pages/components/site-page';

export const Route = createFileRoute('/dieu-khoan')({
  component: () => <SitePageView slug="dieu-khoan" />,
});
