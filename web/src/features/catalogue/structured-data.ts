// schema.org structured data of the catalogue's pages (JSON-LD), typed with schema-dts (types only: nothing of
// it reaches the bundle). Absolute URLs come from the origin the caller gives: PUBLIC_URL's on the host.
import type { BreadcrumbList, ItemList, Movie, Person, TVEpisode, TVSeries, WithContext } from 'schema-dts';
import type { FilmCard, FilmDetailResponse } from '../../../../worker/schemas/catalogue';

/** Categories whose films are series (Phim Bộ, TV Shows): TVSeries and og:type video.tv_show. */
const SERIES_CATEGORIES: ReadonlySet<number> = new Set([24, 26]);
const CATEGORY_PAGES: Readonly<Record<number, { name: string; path: string }>> = {
  24: { name: 'Phim Bộ', path: '/phim-bo' },
  25: { name: 'Phim Lẻ', path: '/phim-le' },
  26: { name: 'TV Shows', path: '/phim-shows' },
  27: { name: 'Phim Sắp Chiếu', path: '/phim-sap-chieu' },
};
/** Enough episodes for a search engine; a thousand-episode series would make the page heavy. */
const MAX_EPISODES = 200;

export const isSeries = (film: Pick<FilmCard, 'category_id'>) => SERIES_CATEGORIES.has(film.category_id);

/** og:type of a film page. */
export const filmOgType = (film: Pick<FilmCard, 'category_id'>) => (isSeries(film) ? 'video.tv_show' : 'video.movie');

const people = (csv: string): Person[] =>
  csv
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
    .map((name) => ({ '@type': 'Person', name }));

const absolute = (origin: string, pathOrUrl: string) => new URL(pathOrUrl, origin).href;

/** Movie or TVSeries (with its episodes), and the film's breadcrumb trail. */
export function filmStructuredData(
  origin: string,
  detail: FilmDetailResponse,
): [WithContext<Movie | TVSeries>, WithContext<BreadcrumbList>] {
  const film = detail.datafilm;
  const url = absolute(origin, `/${film.slug}`);
  const { totalRatings, averageRating } = detail.general_assessment;
  const common = {
    name: film.title,
    ...(film.nameenglish ? { alternateName: film.nameenglish } : {}),
    url,
    ...(film.hinhanh ? { image: absolute(origin, film.hinhanh) } : {}),
    ...(film.descripts ? { description: film.descripts } : {}),
    ...(film.namphathanh ? { dateCreated: String(film.namphathanh) } : {}),
    genre: film.genres.map((g) => g.name),
    countryOfOrigin: film.countries.map((c) => ({ '@type': 'Country' as const, name: c.name })),
    director: people(film.daodien),
    actor: people(film.dienvien),
    ...(totalRatings > 0 && averageRating !== null
      ? {
          aggregateRating: {
            '@type': 'AggregateRating' as const,
            ratingValue: averageRating,
            ratingCount: totalRatings,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
  };
  const work: WithContext<Movie | TVSeries> = isSeries(film)
    ? {
        '@context': 'https://schema.org',
        '@type': 'TVSeries',
        ...common,
        numberOfEpisodes: film.linkfilms.length,
        episode: film.linkfilms.slice(0, MAX_EPISODES).map(
          (e): TVEpisode => ({
            '@type': 'TVEpisode',
            episodeNumber: e.episode,
            name: e.name || `Tập ${e.episode}`,
            url: absolute(origin, `/xem-phim/${film.slug}/tap-${e.episode}`),
          }),
        ),
      }
    : { '@context': 'https://schema.org', '@type': 'Movie', ...common };
  const category = CATEGORY_PAGES[film.category_id];
  const trail = [
    { name: 'Trang chủ', url: absolute(origin, '/') },
    ...(category ? [{ name: category.name, url: absolute(origin, category.path) }] : []),
    { name: film.title, url },
  ];
  return [work, breadcrumbs(trail)];
}

export function breadcrumbs(trail: { name: string; url: string }[]): WithContext<BreadcrumbList> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: trail.map((crumb, i) => ({ '@type': 'ListItem', position: i + 1, name: crumb.name, item: crumb.url })),
  };
}

/** A listing page: its films in order, and its breadcrumb trail. */
export function listingStructuredData(
  origin: string,
  listing: { name: string; path: string },
  films: readonly Pick<FilmCard, 'slug' | 'title'>[],
  firstPosition = 1,
): [WithContext<ItemList>, WithContext<BreadcrumbList>] {
  return [
    {
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      name: listing.name,
      url: absolute(origin, listing.path),
      numberOfItems: films.length,
      itemListElement: films.map((film, i) => ({
        '@type': 'ListItem',
        position: firstPosition + i,
        url: absolute(origin, `/${film.slug}`),
        name: film.title,
      })),
    },
    breadcrumbs([
      { name: 'Trang chủ', url: absolute(origin, '/') },
      { name: listing.name, url: absolute(origin, listing.path) },
    ]),
  ];
}
