import { Link } from '@tanstack/react-router';
import type { ReactElement } from 'react';
import { SITE_NAME } from '../../lib/page-meta';

/** Home icon, site name, then '>' before each crumb (each carries its own key); the last one is the page. */
export function Breadcrumb({ crumbs }: { crumbs: ReactElement[] }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumb">
      <ol>
        <li>
          <Link to="/">
            <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" fill="currentColor">
              <path d="M12 3 2 12h3v8h6v-6h2v6h6v-8h3z" />
            </svg>
            <span>{SITE_NAME}</span>
          </Link>
        </li>
        {crumbs.map((crumb, i) => (
          <li key={crumb.key} aria-current={i === crumbs.length - 1 ? 'page' : undefined}>
            <span className="breadcrumb-sep" aria-hidden="true">
              &gt;
            </span>
            {crumb}
          </li>
        ))}
      </ol>
    </nav>
  );
}
