import { createFileRoute } from '@tanstack/react-router';
import { listingQuery } from '../features/catalogue/api/catalogue-queries';
import { ListingPage } from '../features/catalogue/components/listing-page';
import { categoryListing } from '../features/catalogue/listing-scope';
import { validateListingSearch } from '../features/catalogue/listing-search';

export const Route = createFileRoute('/phim-sap-chieu')({
  validateSearch: validateListingSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(listingQuery(categoryListing('phim-sap-chieu')!.endpoint, deps));
  },
  component: function PhimSapChieuPage() {
    return <ListingPage info={categoryListing('phim-sap-chieu')!} search={Route.useSearch()} />;
  },
});
