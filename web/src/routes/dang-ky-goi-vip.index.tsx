import { createFileRoute } from '@tanstack/react-router';
import { PlansPage } from '../features/vip/components/plans-page';

export const Route = createFileRoute('/dang-ky-goi-vip/')({
  component: PlansPage,
});
