import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

/** GET /api/lich-chieu: the seven days from today, each with its predicted, arrived and late episodes. */
export const scheduleQuery = () =>
  queryOptions({
    queryKey: ['lich-chieu'],
    queryFn: () => unwrap(api.api['lich-chieu'].$get()),
    staleTime: 60_000,
  });
