import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';

export const SUGGESTION_LIMIT = 5;
export const RESULTS_PAGE_SIZE = 25;

export const searchQuery = (q: string, limit: number, page = 1) =>
  queryOptions({
    queryKey: ['search', q, limit, page],
    queryFn: ({ signal }) =>
      unwrap(api.api.product.search.$get({ query: { q, limit: String(limit), page: String(page) } }, { init: { signal } })),
    staleTime: 60_000,
  });
