import { useQuery } from '@tanstack/react-query';
import { Link, useRouterState } from '@tanstack/react-router';
import { Breadcrumb } from '../../../components/film/breadcrumb';
import { FilmGrid } from '../../../components/film/film-grid';
import { Pagination } from '../../../components/film/pagination';
import { OfflinePage } from '../../../components/layout/offline-page';
import { isNetworkError } from '../../../lib/api-client';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { RESULTS_PAGE_SIZE, searchQuery } from '../api/search-queries';
import '../search-state';

/**
 * /tim-kiem/{q}: the results the header search handed over as navigation state when present; a
 * direct visit, a reload after the state went stale, or another page queries the API (shared links work).
 */
export function SearchResultsPage({ q, page }: { q: string; page: number }) {
  const query = q.trim();
  const handed = useRouterState({ select: (s) => s.location.state.search });
  const fromState = handed && handed.q === query && page === 1 ? handed : undefined;
  usePageMeta({
    title: `Tìm kiếm: ${query} | ${SITE_SUFFIX}`,
    description: `Kết quả tìm kiếm phim "${query}" tại PhimViet.`,
    canonicalPath: `/tim-kiem/${encodeURIComponent(query)}`,
    robots: 'noindex, follow',
  });
  const { data, error, isPending, refetch } = useQuery({
    ...searchQuery(query, RESULTS_PAGE_SIZE, page),
    enabled: query.length > 0,
    initialData: fromState?.results,
    initialDataUpdatedAt: fromState?.at,
  });

  return (
    <div className="container listing">
      <Breadcrumb crumbs={[<span key="s">Tìm kiếm</span>]} />
      <h1 className="page-heading">Kết quả tìm kiếm: “{query}”</h1>
      {query.length === 0 ? (
        <p className="muted">Nhập tên phim để tìm kiếm.</p>
      ) : isPending ? (
        <p className="loading-text" role="status">
          Loading...
        </p>
      ) : error && !data ? (
        isNetworkError(error) ? (
          <OfflinePage onRetry={() => void refetch()} />
        ) : (
          <p role="alert">Error: {error.message}</p>
        )
      ) : data && data.data.length === 0 ? (
        <div className="empty-results" role="status">
          <p>Không tìm thấy phim nào phù hợp với “{query}”.</p>
          <Link to="/" className="btn btn-ghost">
            Về trang chủ
          </Link>
        </div>
      ) : data ? (
        <>
          <p className="result-count muted">Tìm thấy {data.pagination.totalItems} phim</p>
          <FilmGrid films={data.data} priorityCount={4} headingLevel={2} />
          <Pagination
            page={data.pagination.page}
            totalPages={data.pagination.totalPages}
            renderLink={(p, props) => (
              <Link to="/tim-kiem/$q" params={{ q: query }} search={p > 1 ? { page: p } : {}} activeOptions={{ exact: true }} {...props} />
            )}
          />
        </>
      ) : null}
    </div>
  );
}
