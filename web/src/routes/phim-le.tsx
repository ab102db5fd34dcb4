import { createFileRoute } from '@tanstack/react-router';
import { homeQuery, listingQuery } from '../features/catalogue/api/catalogue-queries';
import { ListingPage } from '../features/catalogue/components/listing-page';
import { categoryListing } from '../features/catalogue/listing-scope';
import { validateListingSearch } from '../features/catalogue/listing-search';
import { awaitOnFirstLoad } from '../lib/first-load';

export const Route = createFileRoute('/phim-le')({
  validateSearch: validateListingSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) =>
    awaitOnFirstLoad(
      Promise.all([
        context.queryClient.ensureQueryData(listingQuery(categoryListing('phim-le')!.endpoint, deps)),
        context.queryClient.ensureQueryData(homeQuery()),
      ]),
    ),
  component: function PhimLePage() {
    return <ListingPage info={categoryListing('phim-le')!} search={Route.useSearch()} />;
  },
});
