import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { authedCall } from '../../../lib/auth-request';
import { getSession, isRemembered, storeRights, storeSession } from '../../../lib/session';
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
