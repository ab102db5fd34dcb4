import { createFileRoute } from '@tanstack/react-router';
import { MergePage } from '../../features/admin/components/merge-page';
import { requireAdminArea } from '../../features/admin/guard';

export const Route = createFileRoute('/admin/gop-phim')({
  beforeLoad: requireAdminArea('adminOnly'),
  component: MergePage,
});
