import { createFileRoute } from '@tanstack/react-router';
import { SourcesPage } from '../../features/admin/components/sources-page';
import { requireAdminArea } from '../../features/admin/guard';

export const Route = createFileRoute('/admin/nguon-phim')({
  beforeLoad: requireAdminArea('adminOnly'),
  component: SourcesPage,
});
