import { createFileRoute } from '@tanstack/react-router';
import { PrivacyRequestsPage } from '../../features/admin/components/privacy-requests-page';
import { requireAdminArea } from '../../features/admin/guard';

export const Route = createFileRoute('/admin/yeu-cau-du-lieu')({
  beforeLoad: requireAdminArea('adminOnly'),
  component: PrivacyRequestsPage,
});
