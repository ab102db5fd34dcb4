import { queryOptions } from '@tanstack/react-query';
import type { Permission, Role } from '../../../../../worker/schemas/admin';
import { api } from '../../../lib/api-client';
import { adminCall } from './admin-request';

export interface UsersSearch {
  page: number;
  q: string;
}

/** GET /api/getalluser?page=&q= (server-side search by email or name, paged). */
export const usersQuery = ({ page, q }: UsersSearch) =>
  queryOptions({
    queryKey: ['admin', 'users', page, q],
    queryFn: () => adminCall((headers) => api.api.getalluser.$get({ query: { page: String(page), q: q || undefined } }, { headers })),
    placeholderData: (previous) => previous,
  });

/** POST /api/update_roles { id_user_update, edited_roles }. */
export const updateRole = (id: number, role: Role) =>
  adminCall((headers) => api.api.update_roles.$post({ json: { id_user_update: id, edited_roles: role } }, { headers }));

/** POST /api/update_permissions { id_user_update, edited_Permissions } (the whole new set). */
export const updatePermissions = (id: number, permissions: Permission[]) =>
  adminCall((headers) => api.api.update_permissions.$post({ json: { id_user_update: id, edited_Permissions: permissions } }, { headers }));

/** POST /api/admin/users/{id}/reset-password: a temporary password, shown once. */
export const resetPassword = (id: number) =>
  adminCall((headers) => api.api.admin.users[':id']['reset-password'].$post({ param: { id: String(id) } }, { headers }));
