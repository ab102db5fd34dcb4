import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ADMIN_TEXTS, type AuditEntry } from '../../../../../worker/schemas/admin';
import { formatDateTime } from '../../../lib/format';
import { usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { messageOf } from '../api/admin-request';
import { auditQuery, undoAuditEntry } from '../api/site-api';
import { AdminHeading } from './admin-layout';
import { AdminPager } from './admin-pager';

/** The actions the API records (worker/services/admin), exact names: the API filters by equality. */
const ACTIONS: [string, string][] = [
  ['user.roles', 'Đổi vai trò'],
  ['user.permissions', 'Đổi quyền VIP'],
  ['user.reset_password', 'Đặt lại mật khẩu'],
  ['film.create', 'Thêm phim'],
  ['film.update', 'Sửa phim'],
  ['film.delete', 'Xoá phim'],
  ['film.vip1', 'Đổi VIP1 của phim'],
  ['film.restore', 'Khôi phục phim'],
  ['episode.create', 'Thêm tập'],
  ['episode.update', 'Sửa tập'],
  ['episode.delete', 'Xoá tập'],
  ['crawl.start', 'Thu thập ngay'],
  ['schedule.create', 'Đặt lịch thu thập'],
  ['schedule.delete', 'Xoá lịch thu thập'],
  ['error_report.resolve', 'Xử lý báo lỗi'],
  ['settings.update', 'Đổi cài đặt'],
  ['page.update', 'Sửa trang thông tin'],
  ['privacy_request.acknowledge', 'Xác nhận yêu cầu dữ liệu'],
  ['privacy_request.done', 'Xử lý xong yêu cầu dữ liệu'],
  ['order.confirm', 'Xác nhận chuyển khoản'],
  ['order.bank_confirm', 'Ngân hàng xác nhận chuyển khoản'],
  ['bank_transaction.attach', 'Gắn giao dịch vào đơn'],
  ['bank_transaction.dismiss', 'Bỏ qua giao dịch'],
  ['film.merge', 'Gộp phim'],
  ['merge.dismiss', 'Bỏ qua gợi ý gộp phim'],
  ['source.create', 'Thêm nguồn phim'],
  ['source.update', 'Sửa nguồn phim'],
  ['segment.update', 'Sửa đoạn giới thiệu'],
];

const show = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value.length > 160 ? `${value.slice(0, 160)}…` : value;
  if (Array.isArray(value)) return value.map(show).join(', ') || '—';
  if (typeof value === 'boolean') return value ? 'có' : 'không';
  // A merge's record is long (every row it moved): the start of it, the rest kept for its undo.
  return typeof value === 'object' ? show(JSON.stringify(value)) : String(value);
};

/** What an entry changed, one line per field: before → after (a creation or deletion lists its fields). */
function Changes({ entry }: { entry: AuditEntry }) {
  if (entry.changes.length === 0) return <span className="muted">Không đổi gì</span>;
  return (
    <ul className="audit-changes">
      {entry.changes.map((c) => (
        <li key={c.field}>
          {c.field !== 'value' && <strong>{c.field}: </strong>}
          <del>{show(c.before)}</del> → <ins>{show(c.after)}</ins>
        </li>
      ))}
    </ul>
  );
}

/** /admin/audit (admin): every admin write, newest first, filtered by action ('film.delete', 'user.roles', …). */
export function AuditPage() {
  usePageMeta({ title: 'Nhật ký quản trị | Quản trị', robots: 'noindex' });
  const [page, setPage] = useState(1);
  const [action, setAction] = useState('');
  const audit = useQuery(auditQuery(page, action));
  const data = audit.data;
  const queryClient = useQueryClient();
  const undo = useMutation({
    mutationFn: (entry: AuditEntry) => undoAuditEntry(entry.id),
    onSuccess: (res) => {
      toast.success(res.message);
      // An undo can change anything an entry names: the log and every back-office list read again.
      void queryClient.invalidateQueries({ queryKey: ['admin'] });
    },
    onError: (error) => toast.error('Không hoàn tác được', { description: messageOf(error) }),
  });
  return (
    <section>
      <AdminHeading title="Nhật ký quản trị" />
      <div className="admin-toolbar">
        <select
          className="admin-select"
          aria-label="Lọc theo thao tác"
          value={action}
          onChange={(e) => {
            setAction(e.target.value);
            setPage(1);
          }}
        >
          <option value="">Mọi thao tác</option>
          {ACTIONS.map(([value, label]) => (
            <option key={value} value={value}>
              {label} ({value})
            </option>
          ))}
        </select>
        {audit.isFetching && <span className="muted">Loading...</span>}
      </div>
      {audit.isError && <p className="field-error">{messageOf(audit.error)}</p>}
      <div className="admin-table-wrap">
        <table className="admin-table">
          <thead>
            <tr>
              <th>Thời gian</th>
              <th>Người thực hiện</th>
              <th>Thao tác</th>
              <th>Đối tượng</th>
              <th>Thay đổi (trước → sau)</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {data?.data.map((e) => (
              <tr key={e.id}>
                <td>{formatDateTime(e.createdAt)}</td>
                <td>{e.actor.email}</td>
                <td>
                  <code>{e.action}</code>
                </td>
                <td style={{ overflowWrap: 'anywhere' }}>{e.target}</td>
                <td className="audit-value">
                  <Changes entry={e} />
                </td>
                <td>
                  {e.undoable && (
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      disabled={undo.isPending}
                      aria-label={`${ADMIN_TEXTS.undo} ${e.action} ${e.target}`}
                      onClick={() => {
                        if (window.confirm(`${ADMIN_TEXTS.undo} "${e.action}" trên ${e.target}?`)) undo.mutate(e);
                      }}
                    >
                      {ADMIN_TEXTS.undo}
                    </button>
                  )}
                  {e.undoneAt !== null && <span className="muted">Đã hoàn tác {formatDateTime(e.undoneAt)}</span>}
                  {e.undoOf !== null && <span className="muted">Hoàn tác mục #{e.undoOf}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {data?.data.length === 0 && <p className="admin-empty">Chưa có thao tác nào.</p>}
        {!data && audit.isPending && <p className="admin-empty">Loading...</p>}
      </div>
      {data && <AdminPager pagination={data.pagination} onPage={setPage} />}
    </section>
  );
}
