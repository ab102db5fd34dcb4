import { createFileRoute } from '@tanstack/react-router';
import { ModerationPage } from '../../features/admin/components/moderation-page';
import { requireAdminArea } from '../../features/admin/guard';

export const Route = createFileRoute('/admin/binh-luan')({
  beforeLoad: requireAdminArea('adminOrVip2'),
  component: ModerationPage,
});
