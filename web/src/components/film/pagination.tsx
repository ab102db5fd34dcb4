import type { ReactNode } from 'react';

export const PAGE_LINKS = 5;

/** Page numbers to show: a window of PAGE_LINKS around the current page, with breaks beyond. */
export function pageWindow(page: number, totalPages: number): { pages: number[]; breakBefore: boolean; breakAfter: boolean } {
  const half = Math.floor(PAGE_LINKS / 2);
  let start = Math.max(1, page - half);
  const end = Math.min(totalPages, start + PAGE_LINKS - 1);
  start = Math.max(1, end - PAGE_LINKS + 1);
  const pages: number[] = [];
  for (let p = start; p <= end; p++) pages.push(p);
  return { pages, breakBefore: start > 1, breakAfter: end < totalPages };
}

interface PaginationProps {
  page: number;
  totalPages: number;
  /** Renders a real link to a page (so crawlers and middle-click work). */
  renderLink: (
    page: number,
    props: { className: string; children: ReactNode; 'aria-label'?: string; 'aria-current'?: 'page'; rel?: string },
  ) => ReactNode;
}

/** Listing pagination: '< previous', five page links, a break label '...', 'next >'. */
export function Pagination({ page, totalPages, renderLink }: PaginationProps) {
  if (totalPages <= 1) return null;
  const { pages, breakBefore, breakAfter } = pageWindow(page, totalPages);
  return (
    <nav className="pagination" aria-label="Phân trang">
      <ul>
        <li>
          {page > 1 ? (
            renderLink(page - 1, { className: 'page-link', children: '< previous', rel: 'prev' })
          ) : (
            <span className="page-link disabled" aria-disabled="true">
              &lt; previous
            </span>
          )}
        </li>
        {breakBefore && (
          <li>
            {renderLink(Math.max(1, page - PAGE_LINKS), {
              className: 'page-link page-break',
              children: '...',
              'aria-label': `Lùi ${PAGE_LINKS} trang`,
            })}
          </li>
        )}
        {pages.map((p) => (
          <li key={p}>
            {renderLink(p, {
              className: `page-link ${p === page ? 'active' : ''}`,
              children: p,
              'aria-label': `Trang ${p}`,
              'aria-current': p === page ? 'page' : undefined,
            })}
          </li>
        ))}
        {breakAfter && (
          <li>
            {renderLink(Math.min(totalPages, page + PAGE_LINKS), {
              className: 'page-link page-break',
              children: '...',
              'aria-label': `Tới ${PAGE_LINKS} trang`,
            })}
          </li>
        )}
        <li>
          {page < totalPages ? (
            renderLink(page + 1, { className: 'page-link', children: 'next >', rel: 'next' })
          ) : (
            <span className="page-link disabled" aria-disabled="true">
              next &gt;
            </span>
          )}
        </li>
      </ul>
    </nav>
  );
}
