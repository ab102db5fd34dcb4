import { useQuery } from '@tanstack/react-query';
import { Navigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../../worker/schemas/values';
import { ApiError } from '../../../lib/api-client';
import { SessionExpiredError } from '../../../lib/auth-request';
import { formatDateTime } from '../../../lib/format';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { useSession, type Session } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { accountQuery, changePassword, logoutEverywhere } from '../api/account-api';
import { PASSWORD_MISMATCH } from '../api/auth-api';
import { FormError } from './form-error';

const ROLE_NAMES: Record<string, string> = { admin: 'Quản trị viên', user: 'Thành viên' };
const list = (items: string[], names: Record<string, string> = {}) =>
  items.length ? items.map((x) => names[x] ?? x).join(', ') : 'Không có';

/** /account: who is signed in, their rights, a password change and "sign out everywhere". */
export function AccountPage() {
  const session = useSession();
  usePageMeta({ title: `Tài khoản | ${SITE_SUFFIX}`, robots: 'noindex, nofollow' });
  // Signed out while here (logout in the header, "sign out everywhere"): back to the home page. An
  // expired session goes to /dang-nhap on its own (lib/auth-request.ts).
  if (!session) return <Navigate to="/" replace />;
  return <Account session={session} />;
}

function Account({ session }: { session: Session }) {
  const account = useQuery(accountQuery(session.id));
  const data = account.data;
  return (
    <div className="container account-page">
      <h1 className="page-heading">Tài khoản của tôi</h1>
      <div className="account-grid">
        <section className="auth-card account-card" aria-labelledby="account-info-heading">
          <h2 id="account-info-heading" className="section-title">
            Thông tin tài khoản
          </h2>
          <dl className="meta-list account-info">
            <div>
              <dt>Tên hiển thị</dt>
              <dd data-testid="account-name">{data?.name ?? session.name}</dd>
            </div>
            <div>
              <dt>Email</dt>
              <dd data-testid="account-email">{data?.email ?? session.email}</dd>
            </div>
            <div>
              <dt>Vai trò</dt>
              <dd data-testid="account-roles">{list(data?.roles ?? session.roles, ROLE_NAMES)}</dd>
            </div>
            <div>
              <dt>Quyền</dt>
              <dd data-testid="account-permissions">{list(data?.permissions ?? session.permissions)}</dd>
            </div>
            {data && (
              <div>
                <dt>Ngày tham gia</dt>
                <dd>{formatDateTime(data.createdAt)}</dd>
              </div>
            )}
            {data?.googleLinked && (
              <div>
                <dt>Google</dt>
                <dd>Đã liên kết</dd>
              </div>
            )}
          </dl>
          {account.error && !(account.error instanceof SessionExpiredError) && (
            <p className="form-error" role="alert">
              Không tải được thông tin tài khoản: {account.error.message}
            </p>
          )}
          <SignOutEverywhere />
        </section>
        <ChangePasswordForm hasPassword={data?.hasPassword ?? true} email={session.email} />
      </div>
    </div>
  );
}

function ChangePasswordForm({ hasPassword, email }: { hasPassword: boolean; email: string }) {
  const [form, setForm] = useState({ current: '', next: '', confirm: '' });
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (form.next !== form.confirm) {
      setError(PASSWORD_MISMATCH);
      return;
    }
    setBusy(true);
    setError('');
    try {
      const message = await changePassword({ currentPassword: hasPassword ? form.current : undefined, newPassword: form.next });
      setForm({ current: '', next: '', confirm: '' });
      toast.success(message);
    } catch (err) {
      if (!(err instanceof SessionExpiredError))
        setError(err instanceof ApiError ? err.message.replace(/^currentPassword: /, '') : 'Đã xảy ra lỗi, vui lòng thử lại sau.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="auth-card account-card" aria-labelledby="password-heading">
      <h2 id="password-heading" className="section-title">
        {hasPassword ? 'Đổi mật khẩu' : 'Đặt mật khẩu'}
      </h2>
      <form className="auth-form" onSubmit={submit} aria-describedby="password-error">
        {/* Lets password managers file the new password under the right account. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        {hasPassword && (
          <div className="form-field">
            <label htmlFor="password-current">Mật khẩu hiện tại</label>
            <input
              id="password-current"
              name="current-password"
              type="password"
              autoComplete="current-password"
              required
              value={form.current}
              onChange={set('current')}
            />
          </div>
        )}
        <div className="form-field">
          <label htmlFor="password-new">Mật khẩu mới</label>
          <input
            id="password-new"
            name="new-password"
            type="password"
            autoComplete="new-password"
            required
            minLength={PASSWORD_MIN_LENGTH}
            maxLength={PASSWORD_MAX_LENGTH}
            aria-describedby="password-new-hint"
            value={form.next}
            onChange={set('next')}
          />
          <p id="password-new-hint" className="form-hint">
            Ít nhất {PASSWORD_MIN_LENGTH} ký tự. Các thiết bị khác sẽ bị đăng xuất.
          </p>
        </div>
        <div className="form-field">
          <label htmlFor="password-confirm">Nhập lại mật khẩu mới</label>
          <input
            id="password-confirm"
            name="confirm-password"
            type="password"
            autoComplete="new-password"
            required
            value={form.confirm}
            onChange={set('confirm')}
          />
        </div>
        <FormError id="password-error" message={error} />
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Đang lưu...' : hasPassword ? 'Đổi mật khẩu' : 'Đặt mật khẩu'}
        </button>
      </form>
    </section>
  );
}

function SignOutEverywhere() {
  const [busy, setBusy] = useState(false);
  const run = async () => {
    if (!window.confirm('Đăng xuất khỏi tất cả các thiết bị, kể cả thiết bị này?')) return;
    setBusy(true);
    try {
      const message = await logoutEverywhere();
      toast.success(message);
    } catch (err) {
      if (!(err instanceof SessionExpiredError)) toast.error(err instanceof Error ? err.message : 'Đã xảy ra lỗi, vui lòng thử lại sau.');
      setBusy(false);
    }
  };
  return (
    <div className="account-actions">
      <button type="button" className="btn btn-ghost" onClick={run} disabled={busy}>
        Đăng xuất khỏi mọi thiết bị
      </button>
    </div>
  );
}
