import { createFileRoute, notFound } from '@tanstack/react-router';
import { filmComments, filmDownload, filmPrepareWatch, filmRating } from '../app/film-slots';
import { ensureListing, filmQuery } from '../features/catalogue/api/catalogue-queries';
import { FilmPage } from '../features/catalogue/components/film-page';
import { ListingPage } from '../features/catalogue/components/listing-page';
import { countryListing } from '../features/catalogue/listing-scope';
import { validateListingSearch } from '../features/catalogue/listing-search';
import { isNotFound } from '../lib/api-client';

/** /{slug}: a country listing when the slug is one of the 35 countries, otherwise a film page. */
export const Route = createFileRoute('/$slug')({
  validateSearch: validateListingSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, params, deps }) => {
    const country = countryListing(params.slug);
    if (country) return ensureListing(context.queryClient, country.endpoint, deps);
    try {
      await context.queryClient.ensureQueryData(filmQuery(params.slug));
    } catch (error) {
      if (isNotFound(error)) throw notFound();
      throw error;
    }
  },
  component: function SlugPage() {
    const { slug } = Route.useParams();
    const search = Route.useSearch();
    const country = countryListing(slug);
    return country ? (
      <ListingPage info={country} search={search} />
    ) : (
      <FilmPage slug={slug} rating={filmRating} comments={filmComments} download={filmDownload} prepareWatch={filmPrepareWatch} />
    );
  },
});
