// The demo source: an OPhim-compatible HTTP API (legacy shape) over the generated catalogue, on
// loopback, and under /kkphim a KKPhim-shaped family that shares part of it (demo/kkphim.ts), so a fresh
// `npm start` has films with both sources' servers (issue 32). Posters and the HLS clip live under mediaBase,
// which the app's own host serves (same origin as the PWA), so the crawler imports them as links and the site
// plays offline.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildDemoCatalogue, type DemoFilm } from './catalogue';
import { buildKkphimCatalogue, KKPHIM_PATH, type KkphimFilm } from './kkphim';

export const DEMO_PAGE_SIZE = 24;
/** Where the demo source listens by default; the default CRAWL_SOURCES allow it. */
export const DEMO_SOURCE_URL = 'http://127.0.0.1:8788';
export const DEFAULT_MEDIA_BASE = 'http://localhost:8787/demo-media';

export interface DemoSourceOptions {
  port?: number;
  host?: string;
  /** Where posters (/posters/{slug}.webp) and the clip (/hls/clip.m3u8) are served from. */
  mediaBase?: string;
  films?: DemoFilm[];
}

export interface DemoSource {
  /** Base URL to crawl, e.g. 'http://127.0.0.1:8788'. */
  url: string;
  films: readonly DemoFilm[];
  /** The KKPhim-shaped family's base URL ('http://127.0.0.1:8788/kkphim') and films. */
  kkphimUrl: string;
  kkphimFilms: readonly KkphimFilm[];
  close: () => Promise<void>;
}

const LISTS: Record<string, (film: DemoFilm) => boolean> = {
  'phim-moi-cap-nhat': () => true,
  'phim-bo': (f) => f.type === 'series',
  'phim-le': (f) => f.type === 'single',
  'tv-shows': (f) => f.type === 'tvshows',
  'hoat-hinh': (f) => f.type === 'hoathinh',
  'phim-sap-chieu': (f) => f.status === 'trailer',
};

function listItem(film: DemoFilm) {
  return {
    modified: film.modified,
    _id: film._id,
    name: film.name,
    slug: film.slug,
    origin_name: film.origin_name,
    thumb_url: film.thumb_url,
    poster_url: film.poster_url,
    year: film.year,
  };
}

function detail(film: DemoFilm | KkphimFilm, mediaBase: string, kkphim = false) {
  const { servers, palette: _palette, ...rest } = film;
  const { sharedWith: _shared, ...movie } = rest as typeof rest & { sharedWith?: string };
  return {
    status: true,
    msg: '',
    movie: kkphim
      ? // KKPhim sends absolute image URLs (its CDN), no pathImage on its lists.
        { ...movie, poster_url: `${mediaBase}/posters/${film.poster_url}`, thumb_url: `${mediaBase}/posters/${film.thumb_url}` }
      : movie,
    episodes: servers.map((server) => ({
      server_name: server.server_name,
      server_data: server.items.map((item) => {
        // An upcoming film's trailer entry has no playable link, as on OPhim.
        const playable = film.status !== 'trailer';
        return {
          name: item.name,
          slug: item.slug,
          filename: `${film.slug}-${item.slug}`,
          link_embed: '',
          // The same clip, told apart by its link: a KKPhim server is another host's copy.
          link_m3u8: playable ? `${mediaBase}/hls/clip.m3u8${kkphim ? '?nguon=kkphim' : ''}` : '',
        };
      }),
    })),
  };
}

function send(res: ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

function listPage(films: readonly DemoFilm[], page: number, mediaBase: string, kkphim = false) {
  const totalPages = Math.max(1, Math.ceil(films.length / DEMO_PAGE_SIZE));
  const items = films.slice((page - 1) * DEMO_PAGE_SIZE, page * DEMO_PAGE_SIZE).map(listItem);
  if (kkphim)
    // KKPhim's lists: absolute image URLs and the ids in every item, no pathImage.
    return {
      status: true,
      items: items.map((item, i) => {
        const film = films[(page - 1) * DEMO_PAGE_SIZE + i]!;
        return {
          ...item,
          poster_url: `${mediaBase}/posters/${film.poster_url}`,
          thumb_url: `${mediaBase}/posters/${film.thumb_url}`,
          tmdb: film.tmdb,
          imdb: film.imdb,
        };
      }),
      pagination: { totalItems: films.length, totalItemsPerPage: DEMO_PAGE_SIZE, currentPage: page, totalPages },
    };
  return {
    status: true,
    items,
    pathImage: `${mediaBase}/posters/`,
    pagination: { totalItems: films.length, totalItemsPerPage: DEMO_PAGE_SIZE, currentPage: page, totalPages },
  };
}

/**
 * Answers one request of the OPhim legacy API over the given films, or, under /kkphim, of the KKPhim-shaped family
 * over `kkphim` (absent: that path is not found).
 */
export function handleDemoRequest(
  films: readonly DemoFilm[],
  mediaBase: string,
  method: string,
  rawUrl: string,
  bySlug: ReadonlyMap<string, DemoFilm> = new Map(films.map((f) => [f.slug, f])),
  kkphim?: { films: readonly KkphimFilm[]; bySlug: ReadonlyMap<string, KkphimFilm> },
): { status: number; body: unknown } {
  if (method !== 'GET' && method !== 'HEAD') return { status: 405, body: { status: false, msg: 'Method not allowed' } };
  const url = new URL(rawUrl, 'http://demo.local');
  const page = Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1);
  let parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const family = parts[0] === KKPHIM_PATH.slice(1) ? kkphim : undefined;
  if (parts[0] === KKPHIM_PATH.slice(1)) {
    if (!family) return { status: 404, body: { status: false, msg: 'Not found' } };
    parts = parts.slice(1);
  }
  const pool: readonly DemoFilm[] = family?.films ?? films;
  const index: ReadonlyMap<string, DemoFilm> = family?.bySlug ?? bySlug;
  const [section, slug] = parts;
  if (parts.length === 2 && section === 'phim') {
    const film = slug === undefined ? undefined : index.get(slug);
    return film
      ? { status: 200, body: detail(film, mediaBase, !!family) }
      : { status: 404, body: { status: false, msg: 'Movie not found' } };
  }
  if (parts.length === 2 && slug) {
    let filter: ((film: DemoFilm) => boolean) | undefined;
    if (section === 'danh-sach') filter = LISTS[slug];
    else if (section === 'the-loai') filter = (f) => f.category.some((c) => c.slug === slug);
    else if (section === 'quoc-gia') filter = (f) => f.country.some((c) => c.slug === slug);
    if (filter) return { status: 200, body: listPage(pool.filter(filter), page, mediaBase, !!family) };
  }
  return { status: 404, body: { status: false, msg: 'Not found' } };
}

export async function startDemoSource(options: DemoSourceOptions = {}): Promise<DemoSource> {
  const host = options.host ?? '127.0.0.1';
  const mediaBase = (options.mediaBase ?? DEFAULT_MEDIA_BASE).replace(/\/+$/, '');
  const films = options.films ?? buildDemoCatalogue();
  const bySlug = new Map(films.map((f) => [f.slug, f]));
  const kkphimFilms = buildKkphimCatalogue(films);
  const kkphim = { films: kkphimFilms, bySlug: new Map(kkphimFilms.map((f) => [f.slug, f])) };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const { status, body } = handleDemoRequest(films, mediaBase, req.method ?? 'GET', req.url ?? '/', bySlug, kkphim);
    send(res, status, body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8788, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    films,
    kkphimUrl: `${url}${KKPHIM_PATH}`,
    kkphimFilms,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Runs fn with the demo source listening on its default address. When that port is taken, the demo
 * source is taken to be running already (e.g. under `npm start`) and fn gets its URL.
 */
export async function withDemoSource<R>(
  options: Pick<DemoSourceOptions, 'mediaBase'> & { log?: (line: string) => void },
  fn: (url: string) => Promise<R>,
): Promise<R> {
  let demo: DemoSource | undefined;
  try {
    demo = await startDemoSource({ mediaBase: options.mediaBase });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    options.log?.(`demo source already running at ${DEMO_SOURCE_URL}`);
  }
  try {
    return await fn(demo?.url ?? DEMO_SOURCE_URL);
  } finally {
    await demo?.close();
  }
}
