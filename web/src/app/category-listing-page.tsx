import { useMatch } from '@tanstack/react-router';
import { ListingPage } from '../features/catalogue/components/listing-page';
import { categoryListing } from '../features/catalogue/listing-scope';
import { validateListingSearch } from '../features/catalogue/listing-search';

/**
 * The page of a category route (category-route.tsx). Its own match (not the location, which moves
 * on before the next page is ready) names the category: the route id is '/{slug}'.
 */
export function CategoryListingPage() {
  const match = useMatch({ strict: false });
  // Already validated by the route; validating again narrows the loose strict:false type to ListingSearch.
  const search = validateListingSearch({ ...match.search });
  const info = categoryListing(match.routeId.slice(1));
  return info ? <ListingPage info={info} search={search} /> : null;
}
