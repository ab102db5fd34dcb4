import { Link, useRouterState } from '@tanstack/react-router';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { CATEGORIES, COUNTRIES, GENRES } from '../../../../worker/schemas/taxonomy';
import { Logo } from './logo';
import { NavDropdown, type NavEntry } from './nav-dropdown';

const genreEntries: NavEntry[] = GENRES.map((g) => ({ label: g.name, link: { to: '/the-loai/$slug', params: { slug: g.slug } } }));
const countryEntries: NavEntry[] = COUNTRIES.filter((c) => c.inHeader).map((c) => ({
  label: c.name,
  link: { to: '/$slug', params: { slug: c.slug } },
}));
const categoryEntries: NavEntry[] = [
  ...CATEGORIES.map((c) => ({ label: c.name, link: { to: `/${c.slug}` } as NavEntry['link'] })),
  { label: 'Hoạt Hình', link: { to: '/the-loai/$slug', params: { slug: 'hoat-hinh' } } },
  { label: 'Vietsub', link: { to: '/' } },
];

/** The header frame; the account links and the search box come from the features (composed in routes/__root.tsx). */
export function SiteHeader({ account, search }: { account: ReactNode; search: ReactNode }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  // The menu is open for the page it was opened on: navigating closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const menuOpen = openOn === pathname;
  const header = useRef<HTMLElement>(null);
  // The header's height as --header-bottom (it wraps to two rows on a phone and grows with the open menu):
  // toasts sit below it (lib/toast.tsx), never over the menu button.
  useEffect(() => {
    const el = header.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement.style;
    const observer = new ResizeObserver(() => root.setProperty('--header-bottom', `${Math.ceil(el.getBoundingClientRect().height)}px`));
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.removeProperty('--header-bottom');
    };
  }, []);

  return (
    <header className="site-header" ref={header}>
      <div className="container header-row">
        <Link to="/" className="logo" aria-label="PhimViet - Trang chủ">
          <Logo />
        </Link>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="site-nav"
          aria-label={menuOpen ? 'Đóng menu' : 'Mở menu'}
          onClick={() => setOpenOn(menuOpen ? null : pathname)}
        >
          <span aria-hidden="true" />
          <span aria-hidden="true" />
          <span aria-hidden="true" />
        </button>
        <nav id="site-nav" className={`site-nav ${menuOpen ? 'open' : ''}`} aria-label="Danh mục chính">
          <ul className="nav-list">
            <li className="nav-item">
              <Link to="/" className="nav-link" activeOptions={{ exact: true }}>
                Trang chủ
              </Link>
            </li>
            <NavDropdown label="Thể loại" entries={genreEntries} />
            <NavDropdown label="Quốc gia" entries={countryEntries} columns={3} />
            <NavDropdown label="Danh mục" entries={categoryEntries} columns={1} />
            <li className="nav-item">
              <Link to="/lich-chieu" className="nav-link">
                Lịch chiếu
              </Link>
            </li>
            <li className="nav-item">
              <Link to="/tai-ve" className="nav-link">
                Phim đã tải
              </Link>
            </li>
          </ul>
          <div className="nav-account">{account}</div>
        </nav>
        <div className="header-search">{search}</div>
      </div>
    </header>
  );
}
