import { createFileRoute, notFound } from '@tanstack/react-router';
import { homeQuery, listingQuery } from '../features/catalogue/api/catalogue-queries';
import { ListingPage } from '../features/catalogue/components/listing-page';
import { genreListing } from '../features/catalogue/listing-scope';
import { validateListingSearch } from '../features/catalogue/listing-search';
import { awaitOnFirstLoad } from '../lib/first-load';

export const Route = createFileRoute('/the-loai/$slug')({
  validateSearch: validateListingSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, params, deps }) => {
    const info = genreListing(params.slug);
    if (!info) throw notFound();
    return awaitOnFirstLoad(
      Promise.all([
        context.queryClient.ensureQueryData(listingQuery(info.endpoint, deps)),
        context.queryClient.ensureQueryData(homeQuery()),
      ]),
    );
  },
  component: function GenrePage() {
    const { slug } = Route.useParams();
    return <ListingPage info={genreListing(slug)!} search={Route.useSearch()} />;
  },
});
