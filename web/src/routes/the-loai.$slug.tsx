import { createFileRoute, notFound } from '@tanstack/react-router';
import { ensureListing } from '../features/catalogue/api/catalogue-queries';
import { ListingPage } from '../features/catalogue/components/listing-page';
import { genreListing } from '../features/catalogue/listing-scope';
import { validateListingSearch } from '../features/catalogue/listing-search';

export const Route = createFileRoute('/the-loai/$slug')({
  validateSearch: validateListingSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    const info = genreListing(params.slug);
    if (!info) throw notFound();
    return ensureListing(context.queryClient, info.endpoint, deps);
  },
  component: function GenrePage() {
    const { slug } = Route.useParams();
    return <ListingPage info={genreListing(slug)!} search={Route.useSearch()} />;
  },
});
