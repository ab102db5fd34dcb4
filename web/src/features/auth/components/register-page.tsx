import { useForm } from '@tanstack/react-form';
import { Link, useNavigate } from '@tanstack/react-router';
import { z } from 'zod';
import { registerBodySchema } from '../../../../../worker/schemas/auth';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../../worker/schemas/values';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { reportError } from '../../../lib/report-error';
import { toast } from '../../../lib/toast';
import { PASSWORD_MISMATCH, REGISTRATION_ERROR, REGISTRATION_FAILED, register, signIn } from '../api/auth-api';
import { AccountForm, fieldError, serverErrors, SubmitRow, TextField } from '../forms/form-kit';
import { PrivacyConsentCheck } from './privacy-consent-check';
import { isNetworkError } from '../../../lib/api-client';

/** The wire contract's sign-up rules, and the password typed twice. */
const registerSchema = registerBodySchema.extend({ confirm: z.string() }).refine((v) => v.password === v.confirm, {
  path: ['confirm'],
  message: PASSWORD_MISMATCH,
});

/** /dang-ky: email, name, password and its confirmation; then signed in (a verification link is mailed). */
export function RegisterPage() {
  const navigate = useNavigate();
  usePageMeta({ title: `Đăng ký tài khoản | ${SITE_SUFFIX}`, description: 'Tạo tài khoản PhimViet miễn phí.', robots: 'noindex, follow' });
  const form = useForm({
    defaultValues: { email: '', name: '', password: '', confirm: '', acceptPrivacy: false as boolean },
    validators: {
      onSubmit: registerSchema,
      onSubmitAsync: async ({ value }) => {
        try {
          await register({ email: value.email, name: value.name, password: value.password, acceptPrivacy: value.acceptPrivacy === true });
        } catch (err) {
          reportError('auth: registration', err);
          const errors = serverErrors(err, ['email', 'name', 'password', 'acceptPrivacy'], { 409: undefined });
          // "Email này đã được đăng ký…" is about the email field.
          if (errors.form && (err as { status?: number }).status === 409) return { fields: { email: errors.form } };
          if (isNetworkError(err)) return { form: REGISTRATION_ERROR };
          return errors.fields ? errors : { form: errors.form || REGISTRATION_FAILED };
        }
        try {
          await signIn({ email: value.email, password: value.password });
          toast.success('Đăng ký thành công! Chào mừng bạn đến với PhimViet. Hãy mở thư xác minh email chúng tôi vừa gửi.');
          void navigate({ to: '/', replace: true });
        } catch {
          // The account exists; signing in can still be done by hand.
          toast.success('Đăng ký thành công! Vui lòng đăng nhập.');
          void navigate({ to: '/dang-nhap', replace: true });
        }
        return undefined;
      },
    },
  });

  return (
    <div className="container auth-page">
      <section className="auth-card" aria-labelledby="register-heading">
        <h1 id="register-heading" className="auth-title">
          Đăng ký
        </h1>
        <p className="muted auth-lead">Tạo tài khoản miễn phí để bình luận, đánh giá và đăng ký gói VIP.</p>
        <AccountForm form={form} errorId="register-error">
          <form.Field name="email">
            {(field) => (
              <TextField
                field={field}
                id="register-email"
                label="Email"
                type="email"
                autoComplete="email"
                inputMode="email"
                required
                maxLength={EMAIL_MAX_LENGTH}
              />
            )}
          </form.Field>
          <form.Field name="name">
            {(field) => (
              <TextField
                field={field}
                id="register-name"
                label="Tên hiển thị"
                type="text"
                autoComplete="nickname"
                required
                maxLength={NAME_MAX_LENGTH}
              />
            )}
          </form.Field>
          <form.Field name="password">
            {(field) => (
              <TextField
                field={field}
                id="register-password"
                label="Mật khẩu"
                type="password"
                autoComplete="new-password"
                required
                minLength={PASSWORD_MIN_LENGTH}
                maxLength={PASSWORD_MAX_LENGTH}
                hint={`Ít nhất ${PASSWORD_MIN_LENGTH} ký tự.`}
              />
            )}
          </form.Field>
          <form.Field name="confirm">
            {(field) => (
              <TextField
                field={field}
                id="register-confirm"
                label="Nhập lại mật khẩu"
                type="password"
                autoComplete="new-password"
                required
              />
            )}
          </form.Field>
          <form.Field name="acceptPrivacy">
            {(field) => (
              <PrivacyConsentCheck
                id="register-accept-privacy"
                checked={field.state.value}
                onChange={(checked) => field.handleChange(checked)}
                error={fieldError(field)}
              />
            )}
          </form.Field>
          <SubmitRow form={form} errorId="register-error" label="Đăng ký" busyLabel="Đang đăng ký..." block />
        </AccountForm>
        <p className="auth-switch">
          Đã có tài khoản? <Link to="/dang-nhap">Đăng nhập</Link>
        </p>
      </section>
    </div>
  );
}
