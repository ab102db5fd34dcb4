import { queryOptions } from '@tanstack/react-query';
import type { FilmDetailResponse, HomeData, Paginated, FilmCard } from '../../../../../worker/schemas/catalogue';
import { api, takeBootResponse, unwrap } from '../../../lib/api-client';
import type { ListingSearch } from '../listing-search';

export const homeQuery = () =>
  queryOptions({
    queryKey: ['home'],
    queryFn: (): Promise<HomeData> => unwrap<HomeData>(takeBootResponse('/api/product/product-home') ?? api.api.product['product-home'].$get()),
  });

const isUnfilteredFirstPage = (search: ListingSearch) => Object.values({ ...search, page: search.page === 1 ? undefined : search.page }).every((v) => v === undefined);

export const listingQuery = (endpoint: string, search: ListingSearch) =>
  queryOptions({
    queryKey: ['listing', endpoint, search],
    queryFn: (): Promise<Paginated<FilmCard>> =>
      unwrap<Paginated<FilmCard>>(
        (isUnfilteredFirstPage(search) ? takeBootResponse(`/api/product/product-${endpoint}?page=1`) : undefined) ??
        api.api.product[':listing{product-[a-z0-9+-]+}'].$get({
          param: { listing: `product-${endpoint}` },
          query: {
            page: String(search.page ?? 1),
            sort: search.sort,
            category: search.category,
            country: search.country,
            type: search.type === undefined ? undefined : String(search.type),
            year: search.year === undefined ? undefined : String(search.year),
            keyword: search.keyword,
          },
        }),
      ),
  });

export const filmQuery = (slug: string) =>
  queryOptions({
    queryKey: ['film', slug],
    queryFn: (): Promise<FilmDetailResponse> =>
      unwrap<FilmDetailResponse>(takeBootResponse(`/api/product/${slug}`) ?? api.api.product[':slug'].$get({ param: { slug } })),
  });

/** POST /api/product/update_view: one view event for the trending lists. */
export async function recordView(slug: string): Promise<void> {
  await unwrap(api.api.product.update_view.$post({ json: { title: slug } }));
}
