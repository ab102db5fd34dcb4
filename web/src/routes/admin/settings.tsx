import { createFileRoute } from '@tanstack/react-router';
import { SettingsPage } from '../../features/admin/components/settings-page';
import { requireAdminArea } from '../../features/admin/guard';

export const Route = createFileRoute('/admin/settings')({
  beforeLoad: requireAdminArea('adminOnly'),
  component: SettingsPage,
});
