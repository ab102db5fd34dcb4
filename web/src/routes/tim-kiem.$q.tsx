import { createFileRoute } from '@tanstack/react-router';
import * as z from 'zod/mini';
import { SearchResultsPage } from '../features/search/components/search-results-page';

const searchParams = z.object({
  page: z.catch(z.optional(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(1000))), undefined),
});

export const Route = createFileRoute('/tim-kiem/$q')({
  validateSearch: (raw: Record<string, unknown>) => {
    const { page } = searchParams.parse(raw);
    return page && page > 1 ? { page } : {};
  },
  component: function SearchRoute() {
    const { q } = Route.useParams();
    const { page } = Route.useSearch() as { page?: number };
    return <SearchResultsPage q={q} page={page ?? 1} />;
  },
});
