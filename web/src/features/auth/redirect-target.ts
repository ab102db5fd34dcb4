/**
 * The `redirect` search param of /dang-nhap: where to go after signing in. Only a path on this site
 * ('/x', never '//host' or 'https://…'), so the login page cannot be used to send people elsewhere.
 */
export function validateRedirect(raw: Record<string, unknown>): { redirect?: string; reauth?: boolean } {
  const r = raw.redirect;
  const redirect = typeof r === 'string' && /^\/(?![/\\])/.test(r) && r.length <= 500 && !r.startsWith('/dang-nhap') ? { redirect: r } : {};
  // "Đăng nhập lại" (a deletion or a data export needs a sign-in of the last 10 minutes): the page shows even when signed in.
  return raw.reauth === true || raw.reauth === 'true' ? { ...redirect, reauth: true } : redirect;
}
