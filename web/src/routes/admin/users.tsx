import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { validatePagedSearch } from '../../features/admin/admin-search';
import { UsersPage } from '../../features/admin/components/users-page';
import { requireAdminArea } from '../../features/admin/guard';

export const Route = createFileRoute('/admin/users')({
  beforeLoad: requireAdminArea('adminOnly'),
  validateSearch: validatePagedSearch,
  component: function UsersRoute() {
    const { page, q } = Route.useSearch();
    const navigate = Route.useNavigate();
    const onSearch = useCallback((search: { page?: number; q?: string }) => void navigate({ search, replace: true }), [navigate]);
    return <UsersPage page={page ?? 1} q={q ?? ''} onSearch={onSearch} />;
  },
});
