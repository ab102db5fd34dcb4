import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { SessionExpiredError } from '../../../lib/auth-request';
import { formatDateTime } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { ACCOUNT_DATA_TEXTS, ERASURE_GRACE_DAYS, FRESH_SIGN_IN_MINUTES } from '../../../../../worker/schemas/account-data';
import { eraseNow, requestDeletion, restoreAccount } from '../api';
import { deletionStatusQuery } from '../deletion-status';

const ERASED = [
  'Tài khoản: email, tên, mật khẩu (đã mã hóa), liên kết Google',
  'Phiên đăng nhập, thiết bị, khóa truy cập (passkey), đăng ký thông báo',
  'Tủ phim, tiến độ và lịch sử xem, đánh giá',
  'Báo cáo bình luận, danh sách người bạn đã ẩn',
  'Thư đã gửi tới địa chỉ của bạn, các bộ đếm giới hạn mang địa chỉ của bạn',
];
const KEPT = [
  'Đơn hàng, gói VIP đã mua, thông báo chuyển khoản và nhật ký thanh toán: giữ 10 năm sau khi hết năm tài chính vì luật kế toán yêu cầu, nhưng không còn tên, email hay mã tài khoản của bạn; sau đó tự động xóa.',
  'Một mã băm (không phải email) ghi nhận tài khoản đã bị xóa, để nếu phải khôi phục bản sao lưu thì tài khoản vẫn bị xóa lại. Bạn vẫn có thể đăng ký lại bằng địa chỉ này.',
];

/** Where "Đăng nhập lại" brings the member back to. */
const reauthLink = (back: string) => ({ to: '/dang-nhap' as const, search: { redirect: back, reauth: true } });

function ReauthNotice({ back }: { back: string }) {
  return (
    <p className="form-error" role="alert">
      {ACCOUNT_DATA_TEXTS.reauthRequired}{' '}
      <Link {...reauthLink(back)} className="link-button" data-testid="reauth-link">
        Đăng nhập lại
      </Link>
    </p>
  );
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : 'Đã có lỗi, vui lòng thử lại.');

/**
 * "Xóa tài khoản" (issue 39 §1): what is erased and what is kept and why, a warning when a VIP plan still runs,
 * the choice for comments, and the request (a sign-in of the last 10 minutes). During the grace period: "Tài khoản
 * đang chờ xóa" with "Khôi phục tài khoản" and "Xóa ngay". Shown on /account and on /xoa-tai-khoan.
 */
export function DeleteAccountSection({ back }: { back: string }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const status = useQuery({ ...deletionStatusQuery(session?.id ?? ''), enabled: !!session });
  const [comments, setComments] = useState<'anonymise' | 'delete'>('anonymise');
  const [confirmed, setConfirmed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [reauth, setReauth] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const run = async (action: () => Promise<string>, after?: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    setReauth(false);
    try {
      const message = await action();
      toast.success(message);
      if (after) await after();
      else setDone(message);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'reauth_required') setReauth(true);
      else if (!(err instanceof SessionExpiredError)) setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['account-deletion'] });

  if (done) {
    return (
      <section className="auth-card account-card" aria-labelledby="delete-heading" data-testid="delete-account">
        <h2 id="delete-heading" className="section-title">
          Xóa tài khoản
        </h2>
        <p role="status">{done}</p>
      </section>
    );
  }
  if (!session) return null;
  const pending = status.data?.deletion;
  const now = Date.now();
  const runningPlans = (status.data?.subscriptions ?? []).filter((s) => s.expiresAt > now);

  return (
    <section className="auth-card account-card" aria-labelledby="delete-heading" data-testid="delete-account">
      {pending ? (
        <>
          <h2 id="delete-heading" className="section-title">
            {ACCOUNT_DATA_TEXTS.deletionPendingTitle}
          </h2>
          <p>
            Tài khoản sẽ bị xóa vào <strong>{formatDateTime(pending.dueAt)}</strong>. Bạn có thể khôi phục tài khoản trước thời điểm đó.
          </p>
          <div className="account-actions">
            <button type="button" className="btn btn-primary" disabled={busy} onClick={() => run(restoreAccount, refresh)}>
              {ACCOUNT_DATA_TEXTS.restore}
            </button>{' '}
            <button type="button" className="btn btn-ghost" disabled={busy} onClick={() => run(eraseNow)}>
              {ACCOUNT_DATA_TEXTS.eraseNow}
            </button>
          </div>
        </>
      ) : (
        <>
          <h2 id="delete-heading" className="section-title">
            Xóa tài khoản
          </h2>
          <p>
            Sau khi bạn yêu cầu, mọi thiết bị sẽ được đăng xuất ngay và bạn nhận một thư xác nhận. Tài khoản bị xóa sau {ERASURE_GRACE_DAYS}{' '}
            ngày; trong thời gian đó, đăng nhập lại để khôi phục.
          </p>
          <h3 className="item-title">Sẽ bị xóa</h3>
          <ul>
            {ERASED.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          <h3 className="item-title">Được giữ lại và lý do</h3>
          <ul>
            {KEPT.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
          {runningPlans.length > 0 && (
            <p className="form-error" role="alert" data-testid="vip-warning">
              Gói VIP của bạn còn hạn tới {formatDateTime(Math.max(...runningPlans.map((s) => s.expiresAt)))}. Nếu xóa tài khoản, số ngày
              còn lại sẽ mất và không được hoàn tiền.
            </p>
          )}
          <fieldset>
            <legend>Bình luận của bạn</legend>
            <label>
              <input type="radio" name="comments" checked={comments === 'anonymise'} onChange={() => setComments('anonymise')} /> Giữ lại
              dưới tên "Tài khoản đã xóa", xóa nội dung (các trả lời vẫn còn)
            </label>
            <br />
            <label>
              <input type="radio" name="comments" checked={comments === 'delete'} onChange={() => setComments('delete')} /> Xóa hẳn (bình
              luận đã có người trả lời vẫn được ẩn danh để giữ cuộc trò chuyện)
            </label>
          </fieldset>
          <label>
            <input type="checkbox" checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} /> Tôi hiểu tài khoản sẽ bị xóa sau{' '}
            {ERASURE_GRACE_DAYS} ngày
          </label>
          <p className="muted">Vì an toàn, cần đăng nhập trong vòng {FRESH_SIGN_IN_MINUTES} phút gần nhất.</p>
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy || !confirmed}
            onClick={() => run(() => requestDeletion({ comments }))}
          >
            Xóa tài khoản
          </button>
        </>
      )}
      {reauth && <ReauthNotice back={back} />}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
