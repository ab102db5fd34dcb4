import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ADMIN_TEXTS, type DeletedFilm } from '../../../../../worker/schemas/admin';
import { formatDateTime } from '../../../lib/format';
import { usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { messageOf } from '../api/admin-request';
import { deletedFilmsQuery, restoreFilm } from '../api/films-api';
import { RefreshButton } from './admin-controls';
import { AdminHeading } from './admin-layout';
import { AdminPager } from './admin-pager';

/**
 * /admin/products/deleted (admin): films an admin deleted. Crawls never bring them back
 * (docs/decisions/0700-deleted-films-stay-deleted.md); "Khôi phục" puts one back with its episodes.
 */
export function DeletedFilmsPage() {
  usePageMeta({ title: 'Phim đã xóa | Quản trị', robots: 'noindex' });
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const list = useQuery(deletedFilmsQuery(page));
  const restore = useMutation({
    mutationFn: (film: DeletedFilm) => restoreFilm(film.id),
    onSuccess: (res, film) => {
      toast.success(`${res.message}: ${film.title}`);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'deleted-films'] });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'films'] });
    },
    onError: (error) => toast.error('Không khôi phục được phim', { description: messageOf(error) }),
  });
  return (
    <section>
      <AdminHeading title="Phim đã xóa">
        <RefreshButton query={list} />
        <Link to="/admin/products" className="btn btn-ghost btn-sm">
          Danh sách phim
        </Link>
      </AdminHeading>
      <p className="muted" style={{ marginBottom: 12 }}>
        Phim đã xóa không bị thu thập lại (kể cả thu thập theo lịch) cho tới khi được khôi phục.
      </p>
      {list.isError && (
        <p className="field-error" role="alert">
          {messageOf(list.error)}
        </p>
      )}
      <div className="admin-table-wrap">
        <table className="admin-table" aria-label="Phim đã xóa">
          <thead>
            <tr>
              <th>Tên phim</th>
              <th>Nguồn</th>
              <th>Người xóa</th>
              <th>Xóa lúc</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.data?.data.map((f) => (
              <tr key={f.id}>
                <td>
                  {f.title} <span className="muted">({f.slug})</span>
                </td>
                <td>{f.fromCrawl ? 'Thu thập' : 'Thêm tay'}</td>
                <td>{f.deletedBy?.email ?? '—'}</td>
                <td>{formatDateTime(f.deletedAt)}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn-primary btn-sm"
                    disabled={restore.isPending}
                    aria-label={`${ADMIN_TEXTS.restore} ${f.title}`}
                    onClick={() => restore.mutate(f)}
                  >
                    {ADMIN_TEXTS.restore}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data?.data.length === 0 && <p className="admin-empty">Chưa có phim nào bị xóa.</p>}
        {list.isPending && <p className="admin-empty">Loading...</p>}
      </div>
      {list.data && <AdminPager pagination={list.data.pagination} onPage={setPage} />}
    </section>
  );
}
