import { createFileRoute } from '@tanstack/react-router';
import { intParam } from '../features/catalogue/listing-search';
import { RESULTS_PAGE_SIZE, searchQuery } from '../features/search/api/search-queries';
import { SearchResultsPage } from '../features/search/components/search-results-page';
import { awaitOnFirstLoad, isFirstLoad } from '../lib/first-load';

export const Route = createFileRoute('/tim-kiem/$q')({
  validateSearch: (raw: Record<string, unknown>): { page?: number } => {
    const page = intParam(raw.page, 1, 1000);
    return page && page > 1 ? { page } : {};
  },
  loaderDeps: ({ search }) => search,
  // The first page of a visit (rendered on the host too) comes with its results; later visits get them
  // from the header search's navigation state or the page's own query.
  loader: ({ context, params, deps }) => {
    const q = params.q.trim();
    if (q && isFirstLoad()) return awaitOnFirstLoad(context.queryClient.ensureQueryData(searchQuery(q, RESULTS_PAGE_SIZE, deps.page ?? 1)));
  },
  component: function SearchRoute() {
    const { q } = Route.useParams();
    const { page } = Route.useSearch();
    return <SearchResultsPage q={q} page={page ?? 1} />;
  },
});
