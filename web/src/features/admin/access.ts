import type { Session } from '../../lib/session';

/**
 * The two access levels of the product (admin; admin or VIP2), as ADMIN_ACCESS of worker/schemas/admin.ts states them (the
 * API enforces them; the guard and the sidebar only mirror them). Restated here because the route
 * guards run in the entry chunk, and that module brings zod with it (see listing-search.ts of the
 * catalogue feature on why zod stays out of the entry).
 */
const ADMIN_ACCESS = {
  adminOnly: { roles: ['admin'], permissions: [] },
  adminOrVip2: { roles: ['admin'], permissions: ['VIP2'] },
} satisfies Record<string, { roles: string[]; permissions: string[] }>;

export type AdminArea = keyof typeof ADMIN_ACCESS;

/** The route guard: admitted when holding any listed role or any listed permission. */
export function canUse(session: Session | null, area: AdminArea): boolean {
  if (!session) return false;
  const { roles, permissions }: { roles: string[]; permissions: string[] } = ADMIN_ACCESS[area];
  return session.roles.some((r) => roles.includes(r)) || session.permissions.some((p) => permissions.includes(p));
}

/** Anyone who may open at least one admin page. */
export const canEnterAdmin = (session: Session | null) => canUse(session, 'adminOnly') || canUse(session, 'adminOrVip2');

export type AdminPath =
  | '/admin/dashboard'
  | '/admin/users'
  | '/admin/products'
  | '/admin/products/add_phim'
  | '/admin/products/add_episode'
  | '/admin/products/deleted'
  | '/admin/auto_crawlphim'
  | '/admin/nguon-phim'
  | '/admin/gop-phim'
  | '/admin/orders'
  | '/admin/error-reports'
  | '/admin/yeu-cau-du-lieu'
  | '/admin/analytics'
  | '/admin/settings'
  | '/admin/audit'
  | '/admin/binh-luan';

export interface AdminNavItem {
  to: AdminPath;
  label: string;
  area: AdminArea;
  /** Shown indented under the item before it (the add-film / add-episode submenu). */
  sub?: boolean;
}

/** The sidebar, in order; each item shows only to those who may open it. */
export const ADMIN_NAV: readonly AdminNavItem[] = [
  { to: '/admin/dashboard', label: 'Tổng quan', area: 'adminOrVip2' },
  { to: '/admin/users', label: 'Người dùng', area: 'adminOnly' },
  { to: '/admin/products', label: 'Phim', area: 'adminOnly' },
  { to: '/admin/products/add_phim', label: 'Thêm phim', area: 'adminOrVip2', sub: true },
  { to: '/admin/products/add_episode', label: 'Thêm tập phim', area: 'adminOrVip2', sub: true },
  { to: '/admin/products/deleted', label: 'Phim đã xóa', area: 'adminOnly', sub: true },
  { to: '/admin/auto_crawlphim', label: 'Thu thập tự động', area: 'adminOnly' },
  { to: '/admin/nguon-phim', label: 'Nguồn phim', area: 'adminOnly', sub: true },
  { to: '/admin/gop-phim', label: 'Gộp phim', area: 'adminOnly', sub: true },
  { to: '/admin/orders', label: 'Đơn hàng', area: 'adminOnly' },
  { to: '/admin/error-reports', label: 'Báo lỗi', area: 'adminOnly' },
  { to: '/admin/yeu-cau-du-lieu', label: 'Yêu cầu dữ liệu', area: 'adminOnly' },
  // Comment moderation (issue 33): a VIP2 uploader sees the threads of their own films.
  { to: '/admin/binh-luan', label: 'Bình luận', area: 'adminOrVip2' },
  { to: '/admin/analytics', label: 'Thống kê', area: 'adminOnly' },
  { to: '/admin/settings', label: 'Cài đặt', area: 'adminOnly' },
  { to: '/admin/audit', label: 'Nhật ký', area: 'adminOnly' },
];
