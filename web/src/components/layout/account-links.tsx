import { toast } from '../../lib/toast';
import { hasVip2, isAdmin, signOut, useSession } from '../../lib/session';

/**
 * The header's session-dependent links (SPEC.md §2.1). The pages behind them arrive with the
 * "Accounts" and "VIP" issues, so these are plain links for now (full page loads; the 404 page
 * answers until those routes exist).
 */
export function AccountLinks() {
  const session = useSession();
  if (!session) {
    return (
      <a href="/dang-nhap" className="btn btn-primary btn-sm header-login">
        Đăng nhập
      </a>
    );
  }
  const logout = () => {
    if (!window.confirm('Bạn có chắc chắn muốn đăng xuất?')) return;
    signOut();
    toast.success('Bạn đã đăng xuất thành công!');
  };
  return (
    <div className="account-links">
      {(isAdmin(session) || hasVip2(session)) && (
        <a href="/admin/dashboard" className="nav-link">
          Quản trị
        </a>
      )}
      {session.roles.includes('user') && (
        <a href="/dang-ky-goi-vip" className="nav-link nav-link-vip">
          Đăng ký VIP
        </a>
      )}
      <a href="/account" className="nav-link" title="Thông tin tài khoản">
        {session.name}
      </a>
      <button type="button" className="btn btn-ghost btn-sm" onClick={logout}>
        Đăng xuất
      </button>
    </div>
  );
}
