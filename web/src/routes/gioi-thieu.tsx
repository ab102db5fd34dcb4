import { createFileRoute } from '@tanstack/react-router';
import { SitePageView } from '../features/pages/components/site-page';

export const Route = createFileRoute('/gioi-thieu')({
  component: () => <SitePageView slug="gioi-thieu" />,
});
