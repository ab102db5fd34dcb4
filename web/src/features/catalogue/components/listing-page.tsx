import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Breadcrumb } from '../../../components/film/breadcrumb';
import { FilmGrid } from '../../../components/film/film-grid';
import { Pagination } from '../../../components/film/pagination';
import { OfflinePage } from '../../../components/layout/offline-page';
import { isNetworkError } from '../../../lib/api-client';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { listingQuery, sidebarQuery } from '../api/catalogue-queries';
import type { ListingInfo } from '../listing-scope';
import { listingStructuredData } from '../structured-data';
import type { ListingSearch } from '../listing-search';
import { FilterBar } from './filter-bar';
import { HomeSidebar } from './home-sidebar';

/** A genre, country or category listing. */
export function ListingPage({ info, search }: { info: ListingInfo; search: ListingSearch }) {
  const navigate = useNavigate();
  const page = search.page ?? 1;
  const year = new Date().getFullYear();
  const { data, error, isPending, isFetching, isPlaceholderData, refetch } = useQuery({
    ...listingQuery(info.endpoint, search),
    placeholderData: keepPreviousData,
  });
  const canonicalPath = page > 1 ? `${info.path}?page=${page}` : info.path;
  usePageMeta({
    title: `${info.heading}${page > 1 ? ` - Trang ${page}` : ''} | ${SITE_SUFFIX}`,
    description: `Xem ${info.heading} hay nhất ${year} Vietsub, thuyết minh chất lượng cao, cập nhật liên tục tại PhimViet.`,
    canonicalPath,
    structuredData: data
      ? (origin) =>
          listingStructuredData(
            origin,
            { name: info.heading, path: canonicalPath },
            data.data,
            (data.pagination.page - 1) * data.pagination.pageSize + 1,
          )
      : undefined,
  });
  // The sidebar's own lists, not the whole home, asked once the page runs: the host renders the sidebar's
  // boxes without them (their lists mount when scrolled to), so the page it sends carries only its films.
  const sidebar = useQuery(sidebarQuery());
  const { page: _page, ...filters } = search;

  return (
    <div className="container listing">
      <Breadcrumb crumbs={[<span key="name">{info.heading}</span>]} />
      <h1 className="page-heading">{info.heading}</h1>
      <div className="layout-with-sidebar">
        <div className="layout-main">
          <FilterBar
            key={JSON.stringify(filters)}
            applied={filters}
            onApply={(next) => void navigate({ to: '.', search: { ...next, page: undefined } as never })}
          />
          <div className="listing-results" aria-busy={isFetching}>
            {isPending ? (
              <p className="loading-text" role="status">
                Loadding...
              </p>
            ) : error && !data ? (
              isNetworkError(error) ? (
                <OfflinePage onRetry={() => void refetch()} />
              ) : (
                <p className="muted" role="alert">
                  Error: {error.message}
                </p>
              )
            ) : data && data.data.length === 0 ? (
              <p className="muted empty" role="status">
                Không có phim nào phù hợp với bộ lọc.
              </p>
            ) : data ? (
              <>
                {isPlaceholderData && (
                  <p className="loading-text loading-overlay" role="status">
                    Loadding...
                  </p>
                )}
                <p className="result-count muted">{data.pagination.totalItems} phim</p>
                <FilmGrid films={data.data} priorityCount={4} headingLevel={2} />
                <Pagination
                  page={data.pagination.page}
                  totalPages={data.pagination.totalPages}
                  renderLink={(p, props) => (
                    <Link to="." search={{ ...search, page: p > 1 ? p : undefined } as never} activeOptions={{ exact: true }} {...props} />
                  )}
                />
              </>
            ) : null}
          </div>
        </div>
        <HomeSidebar data={sidebar.data} />
      </div>
    </div>
  );
}
