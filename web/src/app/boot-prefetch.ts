import type { QueryClient } from '@tanstack/react-query';
import { filmQuery, homeQuery, homeTopQuery, listingQuery, sidebarQuery } from '../features/catalogue/api/catalogue-queries';
import { categoryListing, countryListing, genreListing } from '../features/catalogue/listing-scope';
import { validateListingSearch } from '../features/catalogue/listing-search';
import { RESERVED_FILM_SLUGS } from '../../../worker/schemas/taxonomy';

/**
 * Starts the first page's API request while the router and the page's code are still loading (the
 * route loaders ask the same queries, so nothing is fetched twice). Only the first page needs this.
 */
export function prefetchFirstPage(queryClient: QueryClient, location: Location): void {
  const segments = location.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const search = validateListingSearch(Object.fromEntries(new URLSearchParams(location.search)));
  if (segments.length === 0) {
    void queryClient.prefetchQuery(homeTopQuery());
    return void queryClient.prefetchQuery(homeQuery());
  }
  const listing =
    segments.length === 1
      ? (categoryListing(segments[0]!) ?? countryListing(segments[0]!))
      : segments.length === 2 && segments[0] === 'the-loai'
        ? genreListing(segments[1]!)
        : undefined;
  if (listing) {
    void queryClient.prefetchQuery(listingQuery(listing.endpoint, search));
    return void queryClient.prefetchQuery(sidebarQuery());
  }
  // Only a film's path asks for a film: /dang-ky-goi-vip, /admin and the other fixed pages are not films.
  if (segments.length === 1 && !RESERVED_FILM_SLUGS.has(segments[0]!)) void queryClient.prefetchQuery(filmQuery(segments[0]!));
  if (segments.length === 3 && segments[0] === 'xem-phim') void queryClient.prefetchQuery(filmQuery(segments[1]!));
}
