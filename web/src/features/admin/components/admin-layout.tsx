import { Link, Outlet } from '@tanstack/react-router';
import { useSession } from '../../../lib/session';
import { ADMIN_NAV, canUse } from '../access';
import './admin.css';

/** The back office: no public header, a sidebar of only the pages the viewer may open. */
export function AdminLayout() {
  const session = useSession();
  const items = ADMIN_NAV.filter((item) => canUse(session, item.area));
  return (
    <div className="admin-shell">
      <aside className="admin-sidebar">
        <Link to="/" className="admin-brand">
          PhimViet <span>Quản trị</span>
        </Link>
        <nav aria-label="Quản trị">
          <ul>
            {items.map((item) => (
              <li key={item.to} className={item.sub ? 'admin-nav-sub' : undefined}>
                <Link
                  to={item.to}
                  className="admin-nav-link"
                  activeProps={{ className: 'active', 'aria-current': 'page' }}
                  activeOptions={{ exact: true }}
                >
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="admin-viewer">
          <span className="muted">{session?.email}</span>
          <Link to="/" className="btn btn-ghost btn-sm">
            Về trang xem phim
          </Link>
        </div>
      </aside>
      <div className="admin-main">
        <Outlet />
      </div>
    </div>
  );
}

/** A page's title row. */
export function AdminHeading({ title, children }: { title: string; children?: React.ReactNode }) {
  return (
    <header className="admin-heading">
      <h1>{title}</h1>
      {children && <div className="admin-heading-actions">{children}</div>}
    </header>
  );
}
