import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../../../../worker/schemas/values';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { PASSWORD_MISMATCH, register, registrationErrorMessage, signIn } from '../api/auth-api';
import { FormError } from './form-error';
import { reportError } from '../../../lib/report-error';

/** /dang-ky: email, name, password and its confirmation; then signed in. */
export function RegisterPage() {
  const navigate = useNavigate();
  const [form, setForm] = useState({ email: '', name: '', password: '', confirm: '' });
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  usePageMeta({ title: `Đăng ký tài khoản | ${SITE_SUFFIX}`, description: 'Tạo tài khoản PhimViet miễn phí.', robots: 'noindex, follow' });
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (form.password !== form.confirm) {
      setError(PASSWORD_MISMATCH);
      return;
    }
    setBusy(true);
    setError('');
    try {
      await register({ email: form.email, name: form.name, password: form.password });
    } catch (err) {
      reportError('auth: registration', err);
      setError(registrationErrorMessage(err));
      setBusy(false);
      return;
    }
    try {
      await signIn({ email: form.email, password: form.password });
      toast.success('Đăng ký thành công! Chào mừng bạn đến với PhimViet.');
      void navigate({ to: '/', replace: true });
    } catch {
      // The account exists; signing in can still be done by hand.
      toast.success('Đăng ký thành công! Vui lòng đăng nhập.');
      void navigate({ to: '/dang-nhap', replace: true });
    }
  };

  const mismatch = error === PASSWORD_MISMATCH;
  return (
    <div className="container auth-page">
      <section className="auth-card" aria-labelledby="register-heading">
        <h1 id="register-heading" className="auth-title">
          Đăng ký
        </h1>
        <p className="muted auth-lead">Tạo tài khoản miễn phí để bình luận, đánh giá và đăng ký gói VIP.</p>
        <form className="auth-form" onSubmit={submit} aria-describedby="register-error">
          <div className="form-field">
            <label htmlFor="register-email">Email</label>
            <input
              id="register-email"
              name="email"
              type="email"
              autoComplete="email"
              inputMode="email"
              required
              maxLength={EMAIL_MAX_LENGTH}
              value={form.email}
              onChange={set('email')}
            />
          </div>
          <div className="form-field">
            <label htmlFor="register-name">Tên hiển thị</label>
            <input
              id="register-name"
              name="name"
              type="text"
              autoComplete="nickname"
              required
              maxLength={NAME_MAX_LENGTH}
              value={form.name}
              onChange={set('name')}
            />
          </div>
          <div className="form-field">
            <label htmlFor="register-password">Mật khẩu</label>
            <input
              id="register-password"
              name="password"
              type="password"
              autoComplete="new-password"
              required
              minLength={PASSWORD_MIN_LENGTH}
              maxLength={PASSWORD_MAX_LENGTH}
              aria-describedby="register-password-hint"
              value={form.password}
              onChange={set('password')}
            />
            <p id="register-password-hint" className="form-hint">
              Ít nhất {PASSWORD_MIN_LENGTH} ký tự.
            </p>
          </div>
          <div className="form-field">
            <label htmlFor="register-confirm">Nhập lại mật khẩu</label>
            <input
              id="register-confirm"
              name="confirm"
              type="password"
              autoComplete="new-password"
              required
              value={form.confirm}
              onChange={set('confirm')}
              aria-invalid={mismatch ? true : undefined}
            />
          </div>
          <FormError id="register-error" message={error} />
          <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
            {busy ? 'Đang đăng ký...' : 'Đăng ký'}
          </button>
        </form>
        <p className="auth-switch">
          Đã có tài khoản? <Link to="/dang-nhap">Đăng nhập</Link>
        </p>
      </section>
    </div>
  );
}
