import { AdminTabs } from './admin-controls';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { ErrorReportsResponse } from '../../../../../worker/schemas/admin';
import { formatDateTime } from '../../../lib/format';
import { usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { messageOf } from '../api/admin-request';
import { errorReportsQuery, type ReportState, resolveErrorReport } from '../api/site-api';
import { AdminHeading } from './admin-layout';
import { AdminPager } from './admin-pager';

const REASONS: Record<string, string> = {
  'khong-phat-duoc': 'Không phát được',
  'sai-tap': 'Sai tập',
  'am-thanh': 'Lỗi âm thanh',
  'phu-de': 'Lỗi phụ đề',
  khac: 'Khác',
  'server-loi': 'Server lỗi (tự động chuyển)',
};
const STATES: { key: ReportState; label: string }[] = [
  { key: 'open', label: 'Chưa xử lý' },
  { key: 'resolved', label: 'Đã xử lý' },
  { key: 'all', label: 'Tất cả' },
];

/** /admin/error-reports (admin): what viewers reported from the watch page; marked resolved in place. */
export function ErrorReportsPage() {
  usePageMeta({ title: 'Báo lỗi | Quản trị', robots: 'noindex' });
  const queryClient = useQueryClient();
  const [state, setState] = useState<ReportState>('open');
  const [page, setPage] = useState(1);
  const reports = useQuery(errorReportsQuery(page, state));

  const resolve = useMutation({
    mutationFn: (id: number) => resolveErrorReport(id),
    onSuccess: (_res, id) => {
      const now = Date.now();
      queryClient.setQueriesData<ErrorReportsResponse>(
        { queryKey: ['admin', 'error-reports'] },
        (old) => old && { ...old, data: old.data.map((r) => (r.id === id ? { ...r, resolvedAt: now } : r)) },
      );
      toast.success('Đã đánh dấu đã xử lý');
      void queryClient.invalidateQueries({ queryKey: ['admin', 'error-reports'] });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'stats'] });
    },
    onError: (error) => toast.error('Không cập nhật được báo lỗi', { description: messageOf(error) }),
  });

  const data = reports.data;
  return (
    <section>
      <AdminHeading title={`Báo lỗi${data ? ` (${data.open} chưa xử lý)` : ''}`} />
      <AdminTabs
        label="Trạng thái"
        options={STATES}
        value={state}
        onChange={(key) => {
          setState(key);
          setPage(1);
        }}
      />
      {reports.isError && <p className="field-error">{messageOf(reports.error)}</p>}
      <div className="admin-table-wrap">
        <table className="admin-table">
          <thead>
            <tr>
              <th>Thời gian</th>
              <th>Phim</th>
              <th>Tập / máy chủ</th>
              <th>Lý do</th>
              <th>Nội dung</th>
              <th>Người báo</th>
              <th>Trạng thái</th>
            </tr>
          </thead>
          <tbody>
            {data?.data.map((r) => (
              <tr key={r.id}>
                <td>{formatDateTime(r.createdAt)}</td>
                <td>
                  <Link to="/$slug" params={{ slug: r.film.slug }}>
                    {r.film.title}
                  </Link>
                </td>
                <td>{[r.episode ? `Tập ${r.episode}` : '', r.server_name ?? ''].filter(Boolean).join(' · ') || '—'}</td>
                <td>{REASONS[r.reason] ?? r.reason}</td>
                <td style={{ maxWidth: 320 }}>{r.message || '—'}</td>
                <td>{r.reason === 'server-loi' ? 'Trình phát' : (r.user?.username ?? 'Khách')}</td>
                <td>
                  {r.resolvedAt ? (
                    <span className="badge badge-ok">đã xử lý</span>
                  ) : (
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      disabled={resolve.isPending}
                      onClick={() => resolve.mutate(r.id)}
                    >
                      Đánh dấu đã xử lý
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {data?.data.length === 0 && <p className="admin-empty">Không có báo lỗi nào.</p>}
        {!data && reports.isPending && <p className="admin-empty">Loading...</p>}
      </div>
      {data && <AdminPager pagination={data.pagination} onPage={setPage} />}
    </section>
  );
}
