// "Quên mật khẩu?", the reset link and the verification link (docs/decisions/0980): calls that need no session.
import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

/** Whether this server can mail a reset link, else the hotline to call (production without SMTP_URL). */
export const resetAvailabilityQuery = () =>
  queryOptions({
    queryKey: ['password-reset-availability'],
    queryFn: () => unwrap(api.api.auth['forgot-password'].$get()),
    staleTime: 60_000,
    retry: false,
  });

/** POST /api/auth/forgot-password: the same sentence whether or not the address has an account. */
export async function requestReset(email: string): Promise<string> {
  return (await unwrap(api.api.auth['forgot-password'].$post({ json: { email } }))).message;
}

/** Whether a reset link still works (and whose account it is), before the form is shown. */
export const resetTokenQuery = (token: string) =>
  queryOptions({
    queryKey: ['reset-token', token],
    queryFn: () => unwrap(api.api.auth['reset-password'].$get({ query: { token } })),
    // Asked afresh each time the page opens: a link used a minute ago must say so.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

export async function resetPassword(token: string, password: string): Promise<string> {
  return (await unwrap(api.api.auth['reset-password'].$post({ json: { token, password } }))).message;
}

export async function verifyEmail(token: string): Promise<{ email: string; message: string }> {
  return unwrap(api.api.auth['verify-email'].$post({ json: { token } }));
}
