// The first page rendered on the host (entry-server.tsx; docs/decisions/0606-first-page-rendered-on-the-host.md).
// The same router, query client and components as the browser (app/router.tsx); the browser hydrates this
// HTML with the dehydrated query cache it is sent with.
import { dehydrate } from '@tanstack/react-query';
import { createMemoryHistory } from '@tanstack/react-router';
import { renderToString } from 'react-dom/server.edge';
import { AppRoot, createAppRouter, createQueryClient, SERVER_RENDERED_ROUTES } from './router';
import { setApiFetch } from '../lib/api-client';
import type { JsonLd, PageMeta } from '../lib/page-meta';
import { warmUp } from './warm-up';

/** Answers an API request the way the app does over HTTP (the host calls its app in-process). */
export type ApiFetch = (request: Request) => Promise<Response> | Response;

export interface RenderedPage {
  /** The markup inside #root. */
  html: string;
  /**
   * The query cache the markup was rendered from (TanStack Query's dehydrate), plain JSON; null on a
   * not-found page, which the browser renders afresh rather than hydrates.
   */
  state: unknown;
  /**
   * 404 when the path, the film, the genre or the country does not exist: the not-found page, rendered. 301 when the
   * film was merged into another (issue 32): `location` is the same page under the kept film's slug.
   */
  status: 200 | 404 | 301;
  location?: string;
  /** The page's title, description, canonical path, robots and sharing tags (lib/page-meta.ts), when it set them. */
  meta: Partial<Omit<PageMeta, 'structuredData'>>;
  /** The page's JSON-LD documents, their URLs absolute from the origin the host gave. */
  structuredData: JsonLd[];
}

/** A route's code-split chunk and its lazy component, loaded (both are cached by the router and the component). */
async function loadRouteCode(router: ReturnType<typeof createAppRouter>, routeId: string): Promise<void> {
  const route = router.routesById[routeId as keyof typeof router.routesById];
  await router.loadRouteChunk(route);
  await (route.options.component as { preload?: () => Promise<void> } | undefined)?.preload?.();
}

/**
 * Every server-rendered page's code, loaded as this module is evaluated: the host imports the renderer as
 * its isolate starts (entry-server.tsx), so compiling the pages' chunks is start-up work, not the CPU of the
 * first page a fresh isolate serves. A chunk that fails to load here is loaded again by the page that needs it.
 */
const serverRenderedCode = (() => {
  const router = createAppRouter(createQueryClient({ server: true }), null, createMemoryHistory({ initialEntries: ['/'] }));
  return Promise.all([...SERVER_RENDERED_ROUTES].map((id) => loadRouteCode(router, id).catch(() => undefined)));
})();

/** What React writes for a Suspense boundary it left to the browser (a part that suspended or threw). */
const CLIENT_RENDERED_BOUNDARY = '<!--$!-->';

// Relative API paths (hc's base is '/') are resolved against a placeholder origin: the app routes by path.
const API_ORIGIN = 'http://app.internal';

/**
 * The anonymous page at `url` (path and query), absolute links from `origin` (the site's PUBLIC_URL), or null when it is not one the host renders (back office,
 * account, payment pages, a route that failed or was not found): the host then sends the static shell.
 * Throws when rendering fails; the host logs it and sends the static shell too.
 */
export async function renderPage(url: string, fetchApi: ApiFetch, origin: string): Promise<RenderedPage | null> {
  // API reads the app answered with a redirect (a merged-away film's slug, 301 to the kept one's): followed here as
  // the browser's fetch follows them, and remembered, so the page itself answers 301 too.
  const moved = new Map<string, string>();
  setApiFetch(async (input, init) => {
    let target = new URL(input instanceof Request ? input.url : String(input), API_ORIGIN);
    for (let hop = 0; ; hop++) {
      const res = await fetchApi(new Request(target, init));
      const location = [301, 302, 307, 308].includes(res.status) ? res.headers.get('location') : null;
      if (hop >= 3 || !location) return res;
      const next = new URL(location, target);
      moved.set(target.pathname, next.pathname);
      target = next;
    }
  });
  const queryClient = createQueryClient({ server: true });
  const router = createAppRouter(queryClient, null, createMemoryHistory({ initialEntries: [url] }));
  await router.load();
  const movedTo = movedFilmPage(url, moved);
  if (movedTo) return { html: '', state: null, meta: {}, structuredData: [], status: 301, location: movedTo };
  // A redirect (a guard, a non-canonical URL) commits no matches: the browser follows it from the shell.
  const { matches } = router.state;
  const missing = matches.some((m) => m.status === 'notFound' || m._notFound);
  if (!missing) {
    if (matches.length < 2) return null;
    if (matches.some((m) => !SERVER_RENDERED_ROUTES.has(m.routeId) || m.status !== 'success')) return null;
  }
  // The pages' code-split components, loaded now: a component that suspended while rendering would be sent
  // as its fallback, for the browser to render.
  await serverRenderedCode;
  await Promise.all(matches.map((m) => loadRouteCode(router, m.routeId)));
  // A loader that caught its query's error (the page shows its own error state) is not worth hydrating.
  if (
    !missing &&
    queryClient
      .getQueryCache()
      .getAll()
      .some((q) => q.state.status !== 'success')
  )
    return null;
  // Every part the page renders is loaded by now (its data in the query cache, its code-split components
  // above), so nothing suspends and the synchronous string renderer is enough: no stream to encode into bytes
  // and decode again. A part that did suspend would be sent as a client-rendered boundary (`<!--$!-->`, its
  // fallback); the shell is better than that.
  const meta: PageMeta = { title: '' };
  const html = renderToString(<AppRoot router={router} queryClient={queryClient} meta={meta} />);
  if (html.includes(CLIENT_RENDERED_BOUNDARY)) throw new Error(`a part of ${url} suspended while rendering`);
  const { structuredData, ...tags } = meta;
  const documents = structuredData?.(origin) ?? [];
  return missing
    ? { html, state: null, meta: tags, structuredData: [], status: 404 }
    : { html, state: dehydrate(queryClient), meta: tags, structuredData: documents, status: 200 };
}

/**
 * The film page or watch page at `url` under the slug its film's read was redirected to ('/{slug}',
 * '/xem-phim/{slug}/tap-N' → the kept film's), with the same query; undefined when its film did not move.
 */
function movedFilmPage(url: string, moved: ReadonlyMap<string, string>): string | undefined {
  if (!moved.size) return undefined;
  const page = new URL(url, API_ORIGIN);
  const match = /^\/(?:xem-phim\/)?([^/]+)(\/.*)?$/.exec(page.pathname);
  const slug = match?.[1];
  if (!slug) return undefined;
  const target = moved.get(`/api/product/${slug}`);
  const kept = target && /^\/api\/product\/([^/]+)$/.exec(target)?.[1];
  if (!kept || kept === slug) return undefined;
  const path = page.pathname.startsWith('/xem-phim/') ? `/xem-phim/${kept}${match[2] ?? ''}` : `/${kept}`;
  return `${path}${page.search}`;
}

/** Renders each kind of page a few times with a one-film catalogue (app/warm-up.ts): for a host's start-up only (worker/ssr/render.ts loadRenderer). */
export const warmUpRenderer = () => warmUp(renderPage);
