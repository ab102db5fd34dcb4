import { useForm } from '@tanstack/react-form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Navigate } from '@tanstack/react-router';
import { useState } from 'react';
import { z } from 'zod';
import { changeEmailBodySchema, changePasswordBodySchema } from '../../../../../worker/schemas/account';
import { PASSWORD_MIN_LENGTH } from '../../../../../worker/schemas/values';
import { SessionExpiredError } from '../../../lib/auth-request';
import { formatDateTime } from '../../../lib/format';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { sessionEndedByExpiry, useSession, type Session } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { accountQuery, changeEmail, changePassword, logoutEverywhere, resendVerification } from '../api/account-api';
import { PASSWORD_MISMATCH } from '../api/auth-api';
import { AccountForm, serverErrors, SubmitRow, TextField } from '../forms/form-kit';
import { DevicesSection } from './devices-section';
import { PasskeysSection } from './passkeys-section';

const ROLE_NAMES: Record<string, string> = { admin: 'Quản trị viên', user: 'Thành viên' };
const list = (items: string[], names: Record<string, string> = {}) =>
  items.length ? items.map((x) => names[x] ?? x).join(', ') : 'Không có';

/** /account: who is signed in, their address (verified or not), password, passkeys, devices and "sign out everywhere". */
export function AccountPage() {
  const session = useSession();
  usePageMeta({ title: `Tài khoản | ${SITE_SUFFIX}`, robots: 'noindex, nofollow' });
  // Signed out while here (logout in the header, "sign out everywhere"): back to the home page; a session the
  // API ended (this device signed out from another, a password reset) goes to /dang-nhap (lib/auth-request.ts).
  if (!session) return <Navigate to={sessionEndedByExpiry() ? '/dang-nhap' : '/'} replace />;
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
              <dd>
                <span data-testid="account-email">{data?.email ?? session.email}</span>
                {data && <EmailStatus verified={data.emailVerified} />}
              </dd>
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
        <ChangeEmailForm hasPassword={data?.hasPassword ?? true} userId={session.id} />
        <PasskeysSection userId={session.id} />
        <DevicesSection userId={session.id} />
      </div>
    </div>
  );
}

/** "Chưa xác minh" with "Gửi lại" until the mailed link is opened (nothing else waits for it). */
function EmailStatus({ verified }: { verified: boolean }) {
  const [busy, setBusy] = useState(false);
  if (verified) return <span className="status-badge is-ok">Đã xác minh</span>;
  const resend = async () => {
    setBusy(true);
    try {
      toast.success(await resendVerification());
    } catch (err) {
      if (!(err instanceof SessionExpiredError)) toast.error(serverErrors(err, []).form ?? '');
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <span className="status-badge is-warning" data-testid="email-unverified">
        Chưa xác minh
      </span>{' '}
      <button type="button" className="link-button" onClick={() => void resend()} disabled={busy}>
        Gửi lại
      </button>
    </>
  );
}

const passwordForm = changePasswordBodySchema
  .extend({ currentPassword: z.string(), confirm: z.string() })
  .refine((v) => v.newPassword === v.confirm, { path: ['confirm'], message: PASSWORD_MISMATCH });

function ChangePasswordForm({ hasPassword, email }: { hasPassword: boolean; email: string }) {
  const form = useForm({
    defaultValues: { currentPassword: '', newPassword: '', confirm: '' },
    validators: {
      onSubmit: passwordForm,
      onSubmitAsync: async ({ value, formApi }) => {
        try {
          const message = await changePassword({
            currentPassword: hasPassword ? value.currentPassword : undefined,
            newPassword: value.newPassword,
          });
          formApi.reset();
          toast.success(message);
          return undefined;
        } catch (err) {
          return serverErrors(err, ['currentPassword', 'newPassword']);
        }
      },
    },
  });
  return (
    <section className="auth-card account-card" aria-labelledby="password-heading">
      <h2 id="password-heading" className="section-title">
        {hasPassword ? 'Đổi mật khẩu' : 'Đặt mật khẩu'}
      </h2>
      <AccountForm form={form} errorId="password-error">
        {/* Lets password managers file the new password under the right account. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        {hasPassword && (
          <form.Field name="currentPassword">
            {(field) => (
              <TextField
                field={field}
                id="password-current"
                label="Mật khẩu hiện tại"
                type="password"
                autoComplete="current-password"
                required
              />
            )}
          </form.Field>
        )}
        <form.Field name="newPassword">
          {(field) => (
            <TextField
              field={field}
              id="password-new"
              label="Mật khẩu mới"
              type="password"
              autoComplete="new-password"
              required
              minLength={PASSWORD_MIN_LENGTH}
              hint={`Ít nhất ${PASSWORD_MIN_LENGTH} ký tự. Các thiết bị khác sẽ bị đăng xuất.`}
            />
          )}
        </form.Field>
        <form.Field name="confirm">
          {(field) => (
            <TextField
              field={field}
              id="password-confirm"
              label="Nhập lại mật khẩu mới"
              type="password"
              autoComplete="new-password"
              required
            />
          )}
        </form.Field>
        <SubmitRow form={form} errorId="password-error" label={hasPassword ? 'Đổi mật khẩu' : 'Đặt mật khẩu'} busyLabel="Đang lưu..." />
      </AccountForm>
    </section>
  );
}

const emailForm = changeEmailBodySchema.extend({ currentPassword: z.string() });

/** A new address: a link goes to it and a notice to the old one; the current password is asked when there is one. */
function ChangeEmailForm({ hasPassword, userId }: { hasPassword: boolean; userId: string }) {
  const queryClient = useQueryClient();
  const form = useForm({
    defaultValues: { email: '', currentPassword: '' },
    validators: {
      onSubmit: emailForm,
      onSubmitAsync: async ({ value, formApi }) => {
        try {
          const result = await changeEmail({ email: value.email, ...(hasPassword ? { currentPassword: value.currentPassword } : {}) });
          formApi.reset();
          toast.success(result.message);
          await queryClient.invalidateQueries({ queryKey: ['account', userId] });
          return undefined;
        } catch (err) {
          return serverErrors(err, ['email', 'currentPassword']);
        }
      },
    },
  });
  return (
    <section className="auth-card account-card" aria-labelledby="email-heading">
      <h2 id="email-heading" className="section-title">
        Đổi email
      </h2>
      <AccountForm form={form} errorId="email-change-error">
        <form.Field name="email">
          {(field) => (
            <TextField
              field={field}
              id="email-new"
              label="Email mới"
              type="email"
              autoComplete="email"
              inputMode="email"
              required
              hint="Chúng tôi gửi liên kết xác minh tới địa chỉ mới và thông báo tới địa chỉ cũ."
            />
          )}
        </form.Field>
        {hasPassword && (
          <form.Field name="currentPassword">
            {(field) => (
              <TextField
                field={field}
                id="email-password"
                label="Xác nhận bằng mật khẩu đang dùng"
                type="password"
                autoComplete="current-password"
                required
              />
            )}
          </form.Field>
        )}
        <SubmitRow form={form} errorId="email-change-error" label="Đổi email" busyLabel="Đang lưu..." />
      </AccountForm>
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
