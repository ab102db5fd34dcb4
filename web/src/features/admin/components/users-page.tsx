import { useMutation, useQuery } from '@tanstack/react-query';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useEffect, useState } from 'react';
import { ADMIN_TEXTS, type AdminUser, type Permission, type Role } from '../../../../../worker/schemas/admin';
import { formatDateTime } from '../../../lib/format';
import { usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { useDebounced } from '../../../lib/use-debounced';
import { messageOf } from '../api/admin-request';
import { resetPassword, updatePermissions, updateRole, usersQuery } from '../api/users-api';
import { AdminHeading } from './admin-layout';
import { AdminPager } from './admin-pager';
import { DataTable } from './data-table';
import { usePatchListRow } from '../patch-list-rows';

const ROLE_LABEL: Record<Role, string> = { user: 'Thành viên (user)', admin: 'Quản trị viên (admin)' };
const column = createColumnHelper<AdminUser>();

/** /admin/users (admin): search and paging on the server, role and VIP permissions saved on change. */
export function UsersPage({ page, q, onSearch }: { page: number; q: string; onSearch: (search: { page?: number; q?: string }) => void }) {
  usePageMeta({ title: 'Người dùng | Quản trị', robots: 'noindex' });
  const [text, setText] = useState(q);
  const debounced = useDebounced(text, 300);
  useEffect(() => {
    if (debounced.trim() !== q) onSearch({ q: debounced.trim() || undefined, page: undefined });
  }, [debounced, q, onSearch]);

  const users = useQuery(usersQuery({ page, q }));
  useEffect(() => {
    if (users.isError) toast.error(ADMIN_TEXTS.fetchUsersFailed);
  }, [users.isError]);

  const patchUser = usePatchListRow<AdminUser, number>(['admin', 'users'], (u) => u.id);
  const [temporary, setTemporary] = useState<{ email: string; password: string } | null>(null);

  const roleMutation = useMutation({
    mutationFn: ({ user, role }: { user: AdminUser; role: Role }) => updateRole(user.id, role),
    onSuccess: (res, { user, role }) => {
      patchUser(user.id, () => res.user);
      toast.success(`Đã cập nhật vai trò của ${user.email} thành ${role}`);
    },
    onError: (error, { user }) => {
      patchUser(user.id, (u) => ({ ...u, roles: user.roles }));
      toast.error(ADMIN_TEXTS.updateRoleFailed, { description: messageOf(error) });
    },
  });

  const permissionMutation = useMutation({
    mutationFn: ({ user, permissions }: { user: AdminUser; permissions: Permission[] }) => updatePermissions(user.id, permissions),
    onSuccess: (res, { user, permissions }) => {
      patchUser(user.id, () => res.user);
      toast.success(`Đã cập nhật quyền của ${user.email}: ${permissions.length ? permissions.join(', ') : 'không có'}`);
    },
    onError: (error, { user }) => {
      patchUser(user.id, (u) => ({ ...u, permissions: user.permissions }));
      toast.error(ADMIN_TEXTS.updatePermissionsFailed, { description: messageOf(error) });
    },
  });

  const resetMutation = useMutation({
    mutationFn: (user: AdminUser) => resetPassword(user.id),
    onSuccess: (res, user) => setTemporary({ email: user.email, password: res.temporaryPassword }),
    onError: (error) => toast.error('Không đặt lại được mật khẩu', { description: messageOf(error) }),
  });

  const togglePermission = (user: AdminUser, permission: Permission, on: boolean) => {
    const next = (on ? [...new Set([...user.permissions, permission])] : user.permissions.filter((p) => p !== permission)).sort();
    // Shown at once (in the same event as the click), put back if the save fails.
    patchUser(user.id, (u) => ({ ...u, permissions: next }));
    permissionMutation.mutate({ user, permissions: next });
  };

  const columns = [
    column.accessor('id', { header: 'ID', cell: (c) => c.getValue() }),
    column.accessor('email', { header: 'Email' }),
    column.accessor('username', { header: 'Tên' }),
    column.accessor('created', { header: 'Ngày tạo', cell: (c) => formatDateTime(c.getValue()) }),
    column.display({
      id: 'role',
      header: 'Vai trò',
      cell: ({ row: { original: user } }) => (
        <select
          className="admin-select"
          aria-label={`Vai trò của ${user.email}`}
          value={user.roles.includes('admin') ? 'admin' : 'user'}
          onChange={(e) => {
            const role = e.target.value === 'admin' ? 'admin' : 'user';
            patchUser(user.id, (u) => ({ ...u, roles: [role] }));
            roleMutation.mutate({ user, role });
          }}
        >
          {(['user', 'admin'] as const).map((r) => (
            <option key={r} value={r}>
              {ROLE_LABEL[r]}
            </option>
          ))}
        </select>
      ),
    }),
    ...(['VIP1', 'VIP2'] as const).map((permission) =>
      column.display({
        id: permission,
        header: permission,
        cell: ({ row: { original: user } }) => (
          <input
            type="checkbox"
            aria-label={`${permission} của ${user.email}`}
            checked={user.permissions.includes(permission)}
            onChange={(e) => togglePermission(user, permission, e.target.checked)}
          />
        ),
      }),
    ),
    column.accessor('subscriptions', {
      header: 'Gói đã mua',
      cell: (c) =>
        c.getValue().length
          ? c
              .getValue()
              .map((s) => `${s.plan} đến ${new Date(s.expiresAt).toLocaleDateString('vi-VN')}`)
              .join(', ')
          : '—',
    }),
    column.display({
      id: 'actions',
      header: '',
      cell: ({ row: { original: user } }) => (
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          disabled={resetMutation.isPending}
          onClick={() => {
            if (window.confirm(`Đặt lại mật khẩu của ${user.email}? Mọi phiên đăng nhập của người này sẽ bị đăng xuất.`)) {
              resetMutation.mutate(user);
            }
          }}
        >
          Đặt lại mật khẩu
        </button>
      ),
    }),
  ];

  const data = users.data;
  const table = useReactTable({
    data: data?.data ?? [],
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (u) => String(u.id),
    manualPagination: true,
    pageCount: data?.pagination.totalPages ?? -1,
  });

  return (
    <section>
      <AdminHeading title="Người dùng" />
      <div className="admin-toolbar">
        <input
          type="search"
          className="admin-input admin-search"
          placeholder="Tìm theo email hoặc tên…"
          aria-label="Tìm người dùng"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        {users.isFetching && <span className="muted">Loading...</span>}
      </div>
      {temporary && (
        <div className="admin-card" role="status">
          <p>
            Mật khẩu tạm thời của <strong>{temporary.email}</strong> (chỉ hiện một lần):{' '}
            <code className="temp-password">{temporary.password}</code>
          </p>
          <button type="button" className="btn btn-ghost btn-sm" style={{ marginTop: 10 }} onClick={() => setTemporary(null)}>
            Đã ghi lại, ẩn đi
          </button>
        </div>
      )}
      {users.isError && !data ? (
        <p className="field-error" role="alert">
          {ADMIN_TEXTS.fetchUsersFailed}
        </p>
      ) : (
        <div className="admin-table-wrap">
          <DataTable table={table} />
          {data && data.data.length === 0 && <p className="admin-empty">Không có người dùng nào.</p>}
          {!data && users.isPending && <p className="admin-empty">Loading...</p>}
        </div>
      )}
      {data && <AdminPager pagination={data.pagination} onPage={(p) => onSearch({ q: q || undefined, page: p })} />}
    </section>
  );
}
