import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { SessionExpiredError } from '../../../lib/auth-request';
import { toast } from '../../../lib/toast';
import { useWatchHistory } from '../../../lib/watch-history';
import { ACCOUNT_DATA_TEXTS } from '../../../../../worker/schemas/account-data';
import { downloadMyData } from '../api';

/** "Tải dữ liệu của tôi" (issue 39 §2): one JSON file of the account's data plus this device's own (docs/export-format.md). */
export function DownloadDataSection() {
  const history = useWatchHistory();
  const [busy, setBusy] = useState(false);
  const [reauth, setReauth] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setReauth(false);
    setError(null);
    try {
      await downloadMyData(history);
      toast.success('Đã tải tệp dữ liệu của bạn.');
    } catch (err) {
      if (err instanceof ApiError && err.code === 'reauth_required') setReauth(true);
      else if (!(err instanceof SessionExpiredError)) setError(err instanceof Error ? err.message : 'Không tải được dữ liệu.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="auth-card account-card" aria-labelledby="my-data-heading" data-testid="my-data">
      <h2 id="my-data-heading" className="section-title">
        Tải dữ liệu của tôi
      </h2>
      <p>
        Một tệp JSON gồm tài khoản, thiết bị, khóa truy cập, tủ phim, lịch sử xem, đánh giá, bình luận, đơn hàng và thư đã gửi, cùng lịch sử
        xem và danh sách phim đã tải chỉ có trên máy này. Không có mật khẩu hay mã bí mật nào.
      </p>
      <button type="button" className="btn btn-primary" disabled={busy} onClick={download}>
        Tải dữ liệu của tôi
      </button>
      {reauth && (
        <p className="form-error" role="alert">
          {ACCOUNT_DATA_TEXTS.reauthRequired}{' '}
          <Link to="/dang-nhap" search={{ redirect: '/account', reauth: true }} className="link-button">
            Đăng nhập lại
          </Link>
        </p>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
