import { Link } from '@tanstack/react-router';
import { LOGGED_OUT, LOGOUT_CONFIRM, logout } from '../../features/auth/api/auth-api';
import { toast } from '../../lib/toast';
import { hasVip2, isAdmin, useSession } from '../../lib/session';

/**
 * The header's session-dependent links (SPEC.md §2.1): /dang-nhap signed out; /account and logout
 * for everyone signed in; /admin/dashboard for role admin or permission VIP2; /dang-ky-goi-vip for
 * role user. The admin and VIP pages arrive with later issues, so those two are plain links.
 */
export function AccountLinks() {
  const session = useSession();
  if (!session) {
    return (
      <Link to="/dang-nhap" className="btn btn-primary btn-sm header-login">
        Đăng nhập
      </Link>
    );
  }
  const onLogout = () => {
    if (!window.confirm(LOGOUT_CONFIRM)) return;
    logout();
    toast.success(LOGGED_OUT);
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
      <Link to="/account" className="nav-link" title="Thông tin tài khoản">
        {session.name}
      </Link>
      <button type="button" className="btn btn-ghost btn-sm" onClick={onLogout}>
        Đăng xuất
      </button>
    </div>
  );
}
