import { createFileRoute } from '@tanstack/react-router';
import { intParam } from '../features/catalogue/listing-search';
import { SearchResultsPage } from '../features/search/components/search-results-page';

export const Route = createFileRoute('/tim-kiem/$q')({
  validateSearch: (raw: Record<string, unknown>): { page?: number } => {
    const page = intParam(raw.page, 1, 1000);
    return page && page > 1 ? { page } : {};
  },
  component: function SearchRoute() {
    const { q } = Route.useParams();
    const { page } = Route.useSearch();
    return <SearchResultsPage q={q} page={page ?? 1} />;
  },
});
