// Apart from api.ts: the root layout's notice reads this on every page, and api.ts brings the downloads store (and
// with it the stream's chunk) that the first load of a page must not wait for.
import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../lib/api-client';
import { authedCall } from '../../lib/auth-request';

/** What the data pages need of GET /api/account: the pending deletion and the running plans. */
export const deletionStatusQuery = (userId: string) =>
  queryOptions({
    queryKey: ['account-deletion', userId],
    queryFn: async () => {
      const account = await unwrap(authedCall((headers) => api.api.account.$get(undefined, { headers })));
      return { deletion: account.deletion, subscriptions: account.subscriptions };
    },
    staleTime: 60_000,
    retry: false,
  });
