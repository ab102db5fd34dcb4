import { createFileRoute } from '@tanstack/react-router';
import { listingQuery } from '../features/catalogue/api/catalogue-queries';
import { ListingPage } from '../features/catalogue/components/listing-page';
import { categoryListing } from '../features/catalogue/listing-scope';
import { validateListingSearch } from '../features/catalogue/listing-search';

export const Route = createFileRoute('/phim-shows')({
  validateSearch: validateListingSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(listingQuery(categoryListing('phim-shows')!.endpoint, deps));
  },
  component: function PhimShowsPage() {
    return <ListingPage info={categoryListing('phim-shows')!} search={Route.useSearch()} />;
  },
});
