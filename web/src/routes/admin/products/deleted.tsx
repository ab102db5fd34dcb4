import { createFileRoute } from '@tanstack/react-router';
import { DeletedFilmsPage } from '../../../features/admin/components/deleted-films-page';
import { requireAdminArea } from '../../../features/admin/guard';

export const Route = createFileRoute('/admin/products/deleted')({
  beforeLoad: requireAdminArea('adminOnly'),
  component: DeletedFilmsPage,
});
