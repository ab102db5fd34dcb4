import { createFileRoute } from '@tanstack/react-router';
import { AddFilmPage } from '../../../features/admin/components/add-film-page';
import { requireAdminArea } from '../../../features/admin/guard';

export const Route = createFileRoute('/admin/products/add_phim')({
  beforeLoad: requireAdminArea('adminOrVip2'),
  component: AddFilmPage,
});
