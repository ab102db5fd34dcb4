import { createFileRoute, notFound } from '@tanstack/react-router';
import { personQuery } from '../features/catalogue/api/catalogue-queries';
import { PersonPage } from '../features/catalogue/components/person-page';
import { intParam } from '../features/catalogue/listing-search';
import { isNotFound } from '../lib/api-client';

/** /dien-vien/{slug}: a person's films (issue 40 §1); an unknown person is the not-found page (404 from the host). */
export const Route = createFileRoute('/dien-vien/$slug')({
  validateSearch: (raw: Record<string, unknown>): { page?: number } => {
    const page = intParam(raw.page, 1, 10_000);
    return page && page > 1 ? { page } : {};
  },
  loaderDeps: ({ search }) => search,
  loader: async ({ context, params, deps }) => {
    try {
      await context.queryClient.ensureQueryData(personQuery('actor', params.slug, deps.page ?? 1));
    } catch (error) {
      if (isNotFound(error)) throw notFound();
      throw error;
    }
  },
  component: function ActorPage() {
    const { slug } = Route.useParams();
    return <PersonPage kind="actor" slug={slug} page={Route.useSearch().page ?? 1} />;
  },
});
