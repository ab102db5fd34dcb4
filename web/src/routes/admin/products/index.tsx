import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { validatePagedSearch } from '../../../features/admin/admin-search';
import { ProductsPage } from '../../../features/admin/components/products-page';
import { requireAdminArea } from '../../../features/admin/guard';

export const Route = createFileRoute('/admin/products/')({
  beforeLoad: requireAdminArea('adminOnly'),
  validateSearch: validatePagedSearch,
  component: function ProductsRoute() {
    const { page, q } = Route.useSearch();
    const navigate = Route.useNavigate();
    const onSearch = useCallback((search: { page?: number; q?: string }) => void navigate({ search, replace: true }), [navigate]);
    return <ProductsPage page={page ?? 1} q={q ?? ''} onSearch={onSearch} />;
  },
});
