import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { authedCall } from '../../../lib/auth-request';
import { getSession, isRemembered, notifySessionChanged, storeRights, storeSession } from '../../../lib/session';
import { logout } from './auth-api';

/** GET /api/account: the signed-in viewer's own account, read fresh (roles may have changed). */
export const accountQuery = (userId: string) =>
  queryOptions({
    queryKey: ['account', userId],
    queryFn: async () => {
      const account = await unwrap(authedCall((headers) => api.api.account.$get(undefined, { headers })));
      // The header's links follow the rights the API holds now, not the ones of sign-in time.
      const session = getSession();
      if (
        session &&
        (session.roles.join(',') !== account.roles.join(',') || session.permissions.join(',') !== account.permissions.join(','))
      ) {
        storeRights(account.roles, account.permissions);
      }
      return account;
    },
    staleTime: 0,
    retry: false,
  });

/**
 * POST /api/account/password. The API signs out every other session and answers a fresh one for
 * this tab, which replaces the stored tokens.
 */
export async function changePassword(input: { currentPassword?: string; newPassword: string }): Promise<string> {
  const json = { ...input, remember: isRemembered() };
  const result = await unwrap(authedCall((headers) => api.api.account.password.$post({ json }, { headers })));
  storeSession(result);
  return result.message;
}

/** POST /api/account/logout-all, then this tab signs out too (a remembered session's cookie is removed as well). */
export async function logoutEverywhere(): Promise<string> {
  const result = await unwrap(authedCall((headers) => api.api.account['logout-all'].$post(undefined, { headers })));
  logout();
  return result.message;
}

/** POST /api/account/email: the new address (unverified: a link goes to it, a notice to the old one). */
export async function changeEmail(input: { email: string; currentPassword?: string }): Promise<{ email: string; message: string }> {
  const result = await unwrap(authedCall((headers) => api.api.account.email.$post({ json: input }, { headers })));
  // The header and the session show the address the account now has.
  const session = getSession();
  if (session) sessionStorage.setItem('email', result.email);
  notifySessionChanged();
  return result;
}

/** "Gửi lại": a new verification link to the current address. */
export async function resendVerification(): Promise<string> {
  return (await unwrap(authedCall((headers) => api.api.account.email.verification.$post(undefined, { headers })))).message;
}

/** The signed-in devices, this one first ("Thiết bị này"). */
export const devicesQuery = (userId: string) =>
  queryOptions({
    queryKey: ['devices', userId],
    queryFn: async () => (await unwrap(authedCall((headers) => api.api.account.devices.$get(undefined, { headers })))).data,
    staleTime: 0,
    retry: false,
  });

/** "Đăng xuất" on one device; this one's own entry signs this tab out too. */
export async function signOutDevice(id: string): Promise<{ message: string; current: boolean }> {
  const result = await unwrap(authedCall((headers) => api.api.account.devices[':id'].$delete({ param: { id } }, { headers })));
  if (result.current) logout();
  return result;
}

export async function signOutOtherDevices(): Promise<string> {
  return (await unwrap(authedCall((headers) => api.api.account.devices['logout-others'].$post(undefined, { headers })))).message;
}
