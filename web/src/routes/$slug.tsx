import { useQuery } from '@tanstack/react-query';
import { createFileRoute, notFound, redirect } from '@tanstack/react-router';
import { filmComments, filmDownload, filmPrepareWatch, filmRating } from '../app/film-slots';
import { ensureListing, filmQuery } from '../features/catalogue/api/catalogue-queries';
import { FilmPage } from '../features/catalogue/components/film-page';
import { ListingPage } from '../features/catalogue/components/listing-page';
import { countryListing } from '../features/catalogue/listing-scope';
import { validateListingSearch } from '../features/catalogue/listing-search';
import { isNotFound } from '../lib/api-client';
import { useAdoptMergedDownloads } from '../lib/downloads/store';

/** /{slug}: a country listing when the slug is one of the 35 countries, otherwise a film page. */
export const Route = createFileRoute('/$slug')({
  validateSearch: validateListingSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, params, deps }) => {
    const country = countryListing(params.slug);
    if (country) return ensureListing(context.queryClient, country.endpoint, deps);
    let film: { datafilm: { slug: string } } | undefined;
    try {
      film = await context.queryClient.ensureQueryData(filmQuery(params.slug));
    } catch (error) {
      if (isNotFound(error)) throw notFound();
      throw error;
    }
    // A film merged into another (issue 32): the API answered 301 to the kept film; the page moves there too.
    const kept = film?.datafilm.slug;
    if (kept && kept !== params.slug) throw redirect({ to: '/$slug', params: { slug: kept }, replace: true, statusCode: 301 });
  },
  component: function SlugPage() {
    const { slug } = Route.useParams();
    const search = Route.useSearch();
    const country = countryListing(slug);
    return country ? <ListingPage info={country} search={search} /> : <Film slug={slug} />;
  },
});

/** The film page; episodes downloaded under the slug of a film merged into this one become this film's (issue 32). */
function Film({ slug }: { slug: string }) {
  useAdoptMergedDownloads(useQuery(filmQuery(slug)).data);
  return <FilmPage slug={slug} rating={filmRating} comments={filmComments} download={filmDownload} prepareWatch={filmPrepareWatch} />;
}
