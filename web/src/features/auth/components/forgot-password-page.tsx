import { useForm } from '@tanstack/react-form';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { forgotPasswordBodySchema } from '../../../../../worker/schemas/auth';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { requestReset, resetAvailabilityQuery } from '../api/recovery-api';
import { AccountForm, serverErrors, SubmitRow, TextField } from '../forms/form-kit';

/**
 * /quen-mat-khau: an email field; the answer is the same whether or not the address has an account. Where
 * the server cannot mail (production without SMTP_URL) the page says to call the hotline instead.
 */
export function ForgotPasswordPage() {
  usePageMeta({ title: `Quên mật khẩu | ${SITE_SUFFIX}`, robots: 'noindex, follow' });
  const availability = useQuery(resetAvailabilityQuery());
  const [sent, setSent] = useState('');
  const form = useForm({
    defaultValues: { email: '' },
    validators: {
      onSubmit: forgotPasswordBodySchema,
      onSubmitAsync: async ({ value }) => {
        try {
          setSent(await requestReset(value.email));
          return undefined;
        } catch (err) {
          return serverErrors(err, ['email']);
        }
      },
    },
  });

  return (
    <div className="container auth-page">
      <section className="auth-card" aria-labelledby="forgot-heading">
        <h1 id="forgot-heading" className="auth-title">
          Quên mật khẩu
        </h1>
        {availability.data && !availability.data.available ? (
          <p className="auth-lead" role="status" data-testid="reset-unavailable">
            {availability.data.message}
          </p>
        ) : sent ? (
          <div role="status" data-testid="reset-sent">
            <p className="auth-lead">{sent}</p>
            <p className="muted">Liên kết có hiệu lực trong 30 phút. Không thấy thư? Hãy kiểm tra mục Thư rác, hoặc gửi lại sau ít phút.</p>
            <button type="button" className="btn btn-ghost" onClick={() => setSent('')}>
              Gửi lại
            </button>
          </div>
        ) : (
          <>
            <p className="muted auth-lead">Nhập email của tài khoản. Chúng tôi sẽ gửi liên kết để bạn đặt mật khẩu mới.</p>
            <AccountForm form={form} errorId="forgot-error">
              <form.Field name="email">
                {(field) => (
                  <TextField field={field} id="forgot-email" label="Email" type="email" autoComplete="email" inputMode="email" required />
                )}
              </form.Field>
              <SubmitRow form={form} errorId="forgot-error" label="Gửi liên kết đặt lại mật khẩu" busyLabel="Đang gửi..." block />
            </AccountForm>
          </>
        )}
        <p className="auth-switch">
          Nhớ ra mật khẩu? <Link to="/dang-nhap">Đăng nhập</Link>
        </p>
      </section>
    </div>
  );
}
