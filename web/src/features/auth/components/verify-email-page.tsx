import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { useSession } from '../../../lib/session';
import { verifyEmail } from '../api/recovery-api';
import { serverErrors } from '../forms/form-kit';

/** /xac-minh-email?token=…: opening the mailed link verifies the address (no sign-in needed). */
export function VerifyEmailPage({ token }: { token: string }) {
  usePageMeta({ title: `Xác minh email | ${SITE_SUFFIX}`, robots: 'noindex, nofollow' });
  const session = useSession();
  const verify = useMutation({ mutationFn: () => verifyEmail(token) });
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per token
  useEffect(() => {
    if (token) verify.mutate();
  }, [token]);
  const problem = !token
    ? 'Liên kết không hợp lệ. Hãy mở đúng liên kết trong thư.'
    : verify.error
      ? serverErrors(verify.error, []).form
      : '';
  return (
    <div className="container auth-page">
      <section className="auth-card" aria-labelledby="verify-heading">
        <h1 id="verify-heading" className="auth-title">
          Xác minh email
        </h1>
        {problem ? (
          <p className="form-error" role="alert" data-testid="verify-error">
            {problem}
          </p>
        ) : verify.data ? (
          <p role="status" data-testid="verify-done">
            {verify.data.message} ({verify.data.email})
          </p>
        ) : (
          <p className="muted">Đang xác minh...</p>
        )}
        <p className="auth-switch">{session ? <Link to="/account">Về trang tài khoản</Link> : <Link to="/dang-nhap">Đăng nhập</Link>}</p>
      </section>
    </div>
  );
}
