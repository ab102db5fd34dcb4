import { Pagination } from '../../../components/film/pagination';

/** The lists' pager: '< previous', 5 page links in range, 'next >', as buttons (no reload). */
export function AdminPager({
  pagination: { page, totalPages, totalItems },
  onPage,
}: {
  /** The list answer's pagination, as every paged admin endpoint returns it. */
  pagination: { page: number; totalPages: number; totalItems: number };
  onPage: (page: number) => void;
}) {
  return (
    <div className="admin-pager">
      <span className="muted">
        {totalItems} mục · trang {Math.min(page, Math.max(totalPages, 1))}/{Math.max(totalPages, 1)}
      </span>
      <Pagination
        page={page}
        totalPages={totalPages}
        renderLink={(p, { children, ...props }) => (
          <button type="button" {...props} onClick={() => onPage(p)}>
            {children}
          </button>
        )}
      />
    </div>
  );
}
