import { createFileRoute } from '@tanstack/react-router';
import { OrdersPage } from '../../features/admin/components/orders-page';
import { requireAdminArea } from '../../features/admin/guard';

export const Route = createFileRoute('/admin/orders')({
  beforeLoad: requireAdminArea('adminOnly'),
  component: OrdersPage,
});
