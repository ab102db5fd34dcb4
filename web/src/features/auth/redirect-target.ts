/**
 * The `redirect` search param of /dang-nhap: where to go after signing in. Only a path on this site
 * ('/x', never '//host' or 'https://…'), so the login page cannot be used to send people elsewhere.
 */
export function validateRedirect(raw: Record<string, unknown>): { redirect?: string } {
  const r = raw.redirect;
  return typeof r === 'string' && /^\/(?![/\\])/.test(r) && r.length <= 500 && !r.startsWith('/dang-nhap') ? { redirect: r } : {};
}
