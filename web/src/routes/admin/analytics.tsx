import { createFileRoute } from '@tanstack/react-router';
import { AnalyticsPage } from '../../features/admin/components/analytics-page';
import { requireAdminArea } from '../../features/admin/guard';

export const Route = createFileRoute('/admin/analytics')({
  beforeLoad: requireAdminArea('adminOnly'),
  component: AnalyticsPage,
});
