import { createFileRoute } from '@tanstack/react-router';
import { AdminLayout } from '../features/admin/components/admin-layout';
import { requireAdminArea } from '../features/admin/guard';

export const Route = createFileRoute('/admin')({
  beforeLoad: requireAdminArea('any'),
  component: AdminLayout,
});
