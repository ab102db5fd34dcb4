import type { SearchResults } from '../../../../worker/schemas/catalogue';

/** Results handed from the header search to /tim-kiem/{q} as navigation state. */
export interface SearchNavState {
  q: string;
  results: SearchResults;
  /** When the results were fetched (unix ms): older state is refetched like any stale query. */
  at: number;
}

declare module '@tanstack/history' {
  interface HistoryState {
    search?: SearchNavState;
  }
}
