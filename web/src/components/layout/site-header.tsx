import { Link, useRouterState } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { CATEGORIES, COUNTRIES, GENRES } from '../../../../worker/schemas/taxonomy';
import { SearchBox } from '../../features/search/components/search-box';
import { AccountLinks } from './account-links';
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

export function SiteHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  useEffect(() => setMenuOpen(false), [pathname]);

  return (
    <header className="site-header">
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
          onClick={() => setMenuOpen((o) => !o)}
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
          </ul>
          <div className="nav-account">
            <AccountLinks />
          </div>
        </nav>
        <div className="header-search">
          <SearchBox />
        </div>
      </div>
    </header>
  );
}
