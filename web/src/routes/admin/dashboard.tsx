import { createFileRoute } from '@tanstack/react-router';
import { DashboardPage } from '../../features/admin/components/dashboard-page';
import { requireAdminArea } from '../../features/admin/guard';

export const Route = createFileRoute('/admin/dashboard')({
  beforeLoad: requireAdminArea('adminOrVip2'),
  component: DashboardPage,
});
