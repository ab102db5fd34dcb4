import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api, isNetworkError, takeBootResponse, unwrap, unwrapBootOr } from '../../../lib/api-client';
import { readHeaders, tokenExpiring } from '../../../lib/auth-request';
import { getSession, getToken } from '../../../lib/session';
import { awaitOnFirstLoad } from '../../../lib/first-load';
import type { ListingSearch } from '../listing-search';

/**
 * The home's first screen (the hot carousel and the first tab): what its loader waits for, what the host
 * renders and carries in the page. The other lists come with homeQuery, asked by the page once it runs.
 */
export const homeTopQuery = () =>
  queryOptions({
    queryKey: ['home', 'top'],
    queryFn: () => unwrapBootOr('/api/product/home-top', () => api.api.product['home-top'].$get()),
  });

/** Every list of the home: the other tabs, the sections below and the sidebar. */
export const homeQuery = () =>
  queryOptions({
    queryKey: ['home'],
    queryFn: () => unwrapBootOr('/api/product/product-home', () => api.api.product['product-home'].$get()),
  });

/** A listing page's sidebar (action films, upcoming, trending): not the whole home. */
export const sidebarQuery = () =>
  queryOptions({
    queryKey: ['sidebar'],
    queryFn: () => unwrapBootOr('/api/product/sidebar', () => api.api.product.sidebar.$get()),
  });

const isUnfilteredFirstPage = (search: ListingSearch) =>
  Object.values({ ...search, page: search.page === 1 ? undefined : search.page }).every((v) => v === undefined);

export const listingQuery = (endpoint: string, search: ListingSearch) =>
  queryOptions({
    queryKey: ['listing', endpoint, search],
    queryFn: () =>
      unwrapBootOr(isUnfilteredFirstPage(search) ? `/api/product/product-${endpoint}?page=1` : undefined, () =>
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
            chieurap: search.chieurap ? '1' : undefined,
          },
        }),
      ),
  });

/**
 * What a listing page's loader waits for: its page of films, what the host renders and carries. The sidebar's
 * lists show only once scrolled to (LazyMount), so the page asks for them itself once it runs (sidebarQuery).
 */
export const ensureListing = (queryClient: QueryClient, endpoint: string, search: ListingSearch) =>
  awaitOnFirstLoad(queryClient.ensureQueryData(listingQuery(endpoint, search)));

/**
 * A film's detail is personal when signed in (VIP access, the viewer's own rating), so the cache
 * keeps one copy per viewer; ['film', slug] still matches them all (comments, ratings update every copy).
 */
export const filmQuery = (slug: string) =>
  queryOptions({
    queryKey: ['film', slug, getSession()?.id ?? ''],
    queryFn: () => fetchFilm(slug),
    // Back online, the film's live room reconnects and asks for the comments missed (use-live-comments.ts): the
    // detail read again would be a third request per reconnect (issue 38 §3) for nothing else that changes in a
    // while offline. A film that never came is still asked for again.
    refetchOnReconnect: (query) => query.state.data === undefined,
  });

async function fetchFilm(slug: string) {
  const get = (headers?: Record<string, string>) => api.api.product[':slug'].$get({ param: { slug } }, { headers });
  const path = `/api/product/${slug}`;
  const token = getToken();
  try {
    // The boot script sent the stored token too; an answer for a stale token would read as anonymous.
    if (!token || !tokenExpiring(token)) return await unwrapBootOr(path, async () => get(await readHeaders()));
    takeBootResponse(path);
    return await unwrap(get(await readHeaders()));
  } catch (error) {
    // Offline: a signed-in request is never cached (pwa.config.ts); the anonymous copy the service
    // worker kept is better than no page.
    if (token && isNetworkError(error)) return unwrap(get());
    throw error;
  }
}

/** POST /api/product/update_view: one view event for the trending lists (as the viewer: a VIP film counts only for VIP). */
export async function recordView(slug: string): Promise<void> {
  await unwrap(api.api.product.update_view.$post({ json: { title: slug } }, { headers: await readHeaders() }));
}

/** A person's page (issue 40 §1): /api/people/{actor|director}/{slug}?page=. */
export const personQuery = (role: 'actor' | 'director', slug: string, page: number) =>
  queryOptions({
    queryKey: ['person', role, slug, page],
    queryFn: () => unwrap(api.api.people[':role'][':slug'].$get({ param: { role, slug }, query: { page: String(page) } })),
  });

/**
 * GET /api/series?slugs=: the "Xem tiếp" films' episode numbers, whether each goes on and its newest release. The
 * slugs sorted, so one device's row asks one cacheable URL.
 */
export const seriesStatusQuery = (slugs: readonly string[]) => {
  const sorted = [...slugs].sort();
  return queryOptions({
    queryKey: ['series', sorted],
    queryFn: () => unwrap(api.api.series.$get({ query: { slugs: sorted.join(',') } })),
    staleTime: 60_000,
  });
};
