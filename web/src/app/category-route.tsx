import { lazyRouteComponent } from '@tanstack/react-router';
import { ensureListing } from '../features/catalogue/api/catalogue-queries';
import { categoryListing } from '../features/catalogue/listing-scope';
import { type ListingSearch, validateListingSearch } from '../features/catalogue/listing-search';
import type { RouterContext } from '../routes/__root';

/**
 * The options of a category listing route (/phim-bo, /phim-le, /phim-shows, /phim-sap-chieu): each
 * route file is `createFileRoute(path)(categoryRoute(slug))`. The page loads as its own chunk, in
 * parallel with the data, as the router plugin's automatic splitting would do for an inline component.
 */
export function categoryRoute(slug: string) {
  const info = categoryListing(slug);
  if (!info) throw new Error(`'${slug}' is not a category (worker/schemas/taxonomy.ts CATEGORIES)`);
  return {
    validateSearch: validateListingSearch,
    loaderDeps: ({ search }: { search: ListingSearch }) => search,
    loader: ({ context, deps }: { context: RouterContext; deps: ListingSearch }) => ensureListing(context.queryClient, info.endpoint, deps),
    component: lazyRouteComponent(() => import('./category-listing-page'), 'CategoryListingPage'),
  };
}
