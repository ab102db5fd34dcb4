import { Link } from '@tanstack/react-router';
import { hasVip2, isAdmin, useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { LOGGED_OUT, LOGOUT_CONFIRM, logout } from '../api/auth-api';

/**
 * The header's session-dependent links: /dang-nhap signed out; /account and logout
 * for everyone signed in; /admin/dashboard for role admin or permission VIP2; /dang-ky-goi-vip for
 * role user. The admin and VIP pages arrive with later issues, so those two are plain links.
 */
export function AccountLinks() {
  const session = useSession();
  if (!session) {
    return (
      <div className="account-links">
        <LibraryLink />
        <Link to="/dang-nhap" className="btn btn-primary btn-sm header-login">
          Đăng nhập
        </Link>
      </div>
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
      <LibraryLink />
      <Link to="/account" className="nav-link account-name" title="Thông tin tài khoản">
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="currentColor">
          <path d="M12 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zm0 2c-4.4 0-8 2.2-8 5v3h16v-3c0-2.8-3.6-5-8-5z" />
        </svg>
        <span className="account-name-text">{session.name}</span>
      </Link>
      <button type="button" className="btn btn-ghost btn-sm" onClick={onLogout}>
        Đăng xuất
      </button>
    </div>
  );
}

/** "Tủ phim": the viewer's list (a visitor's is kept on the device). */
function LibraryLink() {
  return (
    <Link to="/tu-phim" className="nav-link nav-link-library" title="Tủ phim">
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="currentColor">
        <path d="M12 21s-7.5-4.6-9.6-9.3C.9 8.1 3.2 4 7 4c2 0 3.6 1.1 5 3 1.4-1.9 3-3 5-3 3.8 0 6.1 4.1 4.6 7.7C19.5 16.4 12 21 12 21z" />
      </svg>
      <span>Tủ phim</span>
    </Link>
  );
}
