import { createFileRoute } from '@tanstack/react-router';
import { AuditPage } from '../../features/admin/components/audit-page';
import { requireAdminArea } from '../../features/admin/guard';

export const Route = createFileRoute('/admin/audit')({
  beforeLoad: requireAdminArea('adminOnly'),
  component: AuditPage,
});
