import { useForm } from '@tanstack/react-form';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { RECOVERY_MESSAGES } from '../../../../../worker/schemas/account-texts';
import { passwordSchema, PASSWORD_MIN_LENGTH } from '../../../../../worker/schemas/auth';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { PASSWORD_MISMATCH } from '../api/auth-api';
import { resetPassword, resetTokenQuery } from '../api/recovery-api';
import { AccountForm, serverErrors, SubmitRow, TextField } from '../forms/form-kit';

/** The new password follows the sign-up rules (the wire contract's passwordSchema) and is typed twice. */
const resetSchema = z
  .object({ password: passwordSchema, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: PASSWORD_MISMATCH });

/**
 * /dat-lai-mat-khau?token=…: the link from the mail. The page asks the API first whether the link still
 * works (expired, used or forged links say so at once), then takes the new password; every session of the
 * account ends and the member signs in again.
 */
export function ResetPasswordPage({ token }: { token: string }) {
  usePageMeta({ title: `Đặt lại mật khẩu | ${SITE_SUFFIX}`, robots: 'noindex, nofollow' });
  const navigate = useNavigate();
  const status = useQuery({ ...resetTokenQuery(token), enabled: token.length > 0 });
  const form = useForm({
    defaultValues: { password: '', confirm: '' },
    validators: {
      onSubmit: resetSchema,
      onSubmitAsync: async ({ value }) => {
        try {
          toast.success(await resetPassword(token, value.password));
          void navigate({ to: '/dang-nhap', replace: true });
          return undefined;
        } catch (err) {
          return serverErrors(err, ['password']);
        }
      },
    },
  });

  const linkProblem = !token ? RECOVERY_MESSAGES.tokenInvalid : status.error ? (serverErrors(status.error, []).form ?? '') : '';

  return (
    <div className="container auth-page">
      <section className="auth-card" aria-labelledby="reset-heading">
        <h1 id="reset-heading" className="auth-title">
          Đặt lại mật khẩu
        </h1>
        {linkProblem ? (
          <>
            <p className="form-error" role="alert" data-testid="reset-link-error">
              {linkProblem}
            </p>
            <p className="auth-switch">
              <Link to="/quen-mat-khau">Yêu cầu liên kết mới</Link>
            </p>
          </>
        ) : !status.data ? (
          <p className="muted">Đang kiểm tra liên kết...</p>
        ) : (
          <AccountForm form={form} errorId="reset-error">
            <p className="muted">
              Tài khoản: <strong data-testid="reset-email">{status.data.email}</strong>
            </p>
            {/* Lets password managers file the new password under the right account. */}
            <input type="email" name="username" autoComplete="username" value={status.data.email} readOnly hidden />
            <form.Field name="password">
              {(field) => (
                <TextField
                  field={field}
                  id="reset-password"
                  label="Mật khẩu mới"
                  type="password"
                  autoComplete="new-password"
                  required
                  minLength={PASSWORD_MIN_LENGTH}
                  hint={`Ít nhất ${PASSWORD_MIN_LENGTH} ký tự. Mọi thiết bị đang đăng nhập sẽ bị đăng xuất.`}
                />
              )}
            </form.Field>
            <form.Field name="confirm">
              {(field) => (
                <TextField
                  field={field}
                  id="reset-confirm"
                  label="Nhập lại mật khẩu mới"
                  type="password"
                  autoComplete="new-password"
                  required
                />
              )}
            </form.Field>
            <SubmitRow form={form} errorId="reset-error" label="Đặt mật khẩu mới" busyLabel="Đang lưu..." block />
          </AccountForm>
        )}
      </section>
    </div>
  );
}
