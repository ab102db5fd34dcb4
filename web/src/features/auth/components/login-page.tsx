import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { GOOGLE_LOGIN_FAILED, signIn, signInErrorMessage } from '../api/auth-api';
import { FormError } from './form-error';
import { GOOGLE_CLIENT_ID, GoogleSignInButton } from './google-sign-in-button';
import { reportError } from '../../../lib/report-error';

/** /dang-nhap: email and password (Enter submits), and Google when configured. */
export function LoginPage({ redirectTo }: { redirectTo?: string }) {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // "Ghi nhớ đăng nhập": unticked keeps the session in this tab's session storage only (the spec's way).
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  usePageMeta({
    title: `Đăng nhập | ${SITE_SUFFIX}`,
    description: 'Đăng nhập PhimViet để bình luận, đánh giá phim và đăng ký gói VIP.',
    robots: 'noindex, follow',
  });

  const attempt = async (credentials: Parameters<typeof signIn>[0], google: boolean) => {
    setBusy(true);
    setError('');
    try {
      const session = await signIn(credentials, remember);
      toast.success(`Xin chào, ${session.name}!`);
      void navigate({ href: redirectTo ?? '/', replace: true });
    } catch (err) {
      reportError('auth: sign-in', err);
      setError(signInErrorMessage(err, google));
      setBusy(false);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void attempt({ email, password }, false);
  };

  return (
    <div className="container auth-page">
      <section className="auth-card" aria-labelledby="login-heading">
        <h1 id="login-heading" className="auth-title">
          Đăng nhập
        </h1>
        <p className="muted auth-lead">Đăng nhập để bình luận, đánh giá phim và xem phim VIP.</p>
        <form className="auth-form" onSubmit={submit} aria-describedby="login-error">
          <div className="form-field">
            <label htmlFor="login-email">Email</label>
            <input
              id="login-email"
              name="email"
              type="email"
              autoComplete="username"
              inputMode="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={error ? true : undefined}
            />
          </div>
          <div className="form-field">
            <label htmlFor="login-password">Mật khẩu</label>
            <input
              id="login-password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={error ? true : undefined}
            />
          </div>
          <label className="form-check">
            <input type="checkbox" name="remember" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
            <span>Ghi nhớ đăng nhập</span>
          </label>
          <FormError id="login-error" message={error} />
          <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
            {busy ? 'Đang đăng nhập...' : 'Đăng nhập'}
          </button>
        </form>
        {GOOGLE_CLIENT_ID && (
          <GoogleSignInButton
            onCredential={(googleToken) => void attempt({ googleToken }, true)}
            onError={() => setError(GOOGLE_LOGIN_FAILED)}
          />
        )}
        <p className="auth-switch">
          Chưa có tài khoản? <Link to="/dang-ky">Đăng ký ngay</Link>
        </p>
      </section>
    </div>
  );
}
