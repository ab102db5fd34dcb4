import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type AdminPrivacyRequest,
  PRIVACY_REQUEST_KIND_TEXT,
  PRIVACY_REQUEST_STATUS_TEXT,
  SETTLE_DAYS,
} from '../../../../../worker/schemas/privacy-texts';
import { formatDateTime } from '../../../lib/format';
import { usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { messageOf } from '../api/admin-request';
import { eraseMemberNow, pendingDeletionsQuery, privacyRequestsQuery, setPrivacyRequestStatus } from '../api/privacy-api';
import { AdminHeading } from './admin-layout';

/** A date that has passed while the step it is for is still undone shows as late. */
function Due({ at, open }: { at: number; open: boolean }) {
  const late = open && at < Date.now();
  return (
    <span className={late ? 'badge badge-bad' : undefined}>
      {formatDateTime(at)}
      {late ? ' (quá hạn)' : ''}
    </span>
  );
}

/**
 * Members who asked to delete their account and wait out the grace period: when each will be erased, and "Xóa
 * ngay" for one who asks by phone (confirmed first; audited without naming the person, docs/decisions/1041).
 */
function PendingDeletions() {
  const queryClient = useQueryClient();
  const pending = useQuery(pendingDeletionsQuery());
  const erase = useMutation({
    mutationFn: (userId: number) => eraseMemberNow(userId),
    onSuccess: (answer) => {
      toast.success(answer.message);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'account-deletions'] });
    },
    onError: (error) => toast.error('Không xóa được tài khoản', { description: messageOf(error) }),
  });
  const rows = pending.data?.data ?? [];
  return (
    <section aria-labelledby="pending-deletions">
      <h2 id="pending-deletions" className="section-title">
        Tài khoản chờ xóa{pending.data ? ` (${rows.length})` : ''}
      </h2>
      {pending.isError && <p className="field-error">{messageOf(pending.error)}</p>}
      <div className="admin-table-wrap">
        <table className="admin-table">
          <thead>
            <tr>
              <th>Email</th>
              <th>Tên</th>
              <th>Yêu cầu lúc</th>
              <th>Xóa vào</th>
              <th>Bình luận</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.userId} data-testid={`pending-deletion-${r.userId}`}>
                <td>{r.email}</td>
                <td>{r.name}</td>
                <td>{formatDateTime(r.requestedAt)}</td>
                <td>{formatDateTime(r.dueAt)}</td>
                <td>{r.comments === 'delete' ? 'Xóa' : 'Ẩn danh'}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn-danger btn-sm"
                    disabled={erase.isPending}
                    onClick={() => {
                      if (window.confirm(`Xóa ngay tài khoản ${r.email}? Không thể hoàn tác.`)) erase.mutate(r.userId);
                    }}
                  >
                    Xóa ngay
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {pending.data && rows.length === 0 && <p className="admin-empty">Không có tài khoản nào chờ xóa.</p>}
        {pending.isPending && <p className="admin-empty">Loading...</p>}
      </div>
    </section>
  );
}

/**
 * /admin/yeu-cau-du-lieu (admin): the requests sent from the privacy page (correct, restrict, object, withdraw
 * consent), each with its acknowledgement date (2 working days) and its legal deadline; "Xác nhận" and
 * "Đã xử lý" move it on, each step audited (docs/decisions/1052).
 */
export function PrivacyRequestsPage() {
  usePageMeta({ title: 'Yêu cầu dữ liệu cá nhân | Quản trị', robots: 'noindex' });
  const queryClient = useQueryClient();
  const requests = useQuery(privacyRequestsQuery());
  const step = useMutation({
    mutationFn: ({ id, status }: { id: number; status: 'acknowledged' | 'done' }) => setPrivacyRequestStatus(id, status),
    onSuccess: () => {
      toast.success('Đã cập nhật yêu cầu');
      void queryClient.invalidateQueries({ queryKey: ['admin', 'privacy-requests'] });
    },
    onError: (error) => toast.error('Không cập nhật được yêu cầu', { description: messageOf(error) }),
  });
  const rows: AdminPrivacyRequest[] = requests.data?.data ?? [];
  const open = rows.filter((r) => r.status !== 'done').length;

  return (
    <section>
      <AdminHeading title={`Yêu cầu dữ liệu cá nhân${requests.data ? ` (${open} chưa xong)` : ''}`} />
      <p className="muted">
        Xác nhận đã nhận trong 2 ngày làm việc; xử lý trong {SETTLE_DAYS} ngày (Nghị định 356/2025/NĐ-CP). Tải dữ liệu do thành viên tự làm;
        tài khoản chờ xóa ở cuối trang.
      </p>
      {requests.isError && <p className="field-error">{messageOf(requests.error)}</p>}
      <div className="admin-table-wrap">
        <table className="admin-table">
          <thead>
            <tr>
              <th>Gửi lúc</th>
              <th>Email</th>
              <th>Loại</th>
              <th>Nội dung</th>
              <th>Xác nhận trước</th>
              <th>Hạn xử lý</th>
              <th>Trạng thái</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-testid={`privacy-request-${r.id}`}>
                <td>{formatDateTime(r.createdAt)}</td>
                <td>
                  {r.email}
                  {r.userId === null ? ' (chưa đăng nhập)' : ''}
                </td>
                <td>{PRIVACY_REQUEST_KIND_TEXT[r.kind]}</td>
                <td style={{ maxWidth: 320, whiteSpace: 'pre-wrap' }}>{r.message}</td>
                <td>
                  <Due at={r.acknowledgeBy} open={r.status === 'new'} />
                </td>
                <td>
                  <Due at={r.dueAt} open={r.status !== 'done'} />
                </td>
                <td>
                  <span className="badge">{PRIVACY_REQUEST_STATUS_TEXT[r.status]}</span>{' '}
                  {r.status === 'new' && (
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      disabled={step.isPending}
                      onClick={() => step.mutate({ id: r.id, status: 'acknowledged' })}
                    >
                      Xác nhận đã nhận
                    </button>
                  )}
                  {r.status !== 'done' && (
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      disabled={step.isPending}
                      onClick={() => step.mutate({ id: r.id, status: 'done' })}
                    >
                      Đã xử lý
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {requests.data && rows.length === 0 && <p className="admin-empty">Chưa có yêu cầu nào.</p>}
        {requests.isPending && <p className="admin-empty">Loading...</p>}
      </div>
      <PendingDeletions />
    </section>
  );
}
