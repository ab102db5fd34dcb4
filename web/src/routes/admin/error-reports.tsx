import { createFileRoute } from '@tanstack/react-router';
import { ErrorReportsPage } from '../../features/admin/components/error-reports-page';
import { requireAdminArea } from '../../features/admin/guard';

export const Route = createFileRoute('/admin/error-reports')({
  beforeLoad: requireAdminArea('adminOnly'),
  component: ErrorReportsPage,
});
