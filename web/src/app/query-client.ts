import { QueryClient } from '@tanstack/react-query';
import { ApiError, isNetworkError } from '../lib/api-client';

/**
 * The app's query client, built the same way in the browser (main.tsx) and on the host that
 * renders the first page (entry-server.tsx), so the server's HTML and the client's first render match.
 */
export function createQueryClient(options: { server?: boolean } = {}): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // On the server a query client lives for one page: no timer to collect its queries.
        gcTime: options.server ? Number.POSITIVE_INFINITY : 10 * 60_000,
        // 'offlineFirst' still calls fetch when the browser says it is offline, so the service
        // worker can answer from its cache; the default 'online' mode would just pause.
        networkMode: 'offlineFirst',
        refetchOnWindowFocus: false,
        // On the server a failed read is not retried: the page falls back to the static shell at once.
        retry: options.server
          ? false
          : (count, error) => count < 2 && !isNetworkError(error) && !(error instanceof ApiError && error.status < 500),
      },
      mutations: { networkMode: 'offlineFirst' },
    },
  });
}
