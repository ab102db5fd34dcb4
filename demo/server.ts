// The demo source: an OPhim-compatible HTTP API (legacy shape) over the generated catalogue, on
// loopback. Posters and the HLS clip live under mediaBase, which the app's own host serves (same origin
// as the PWA), so the crawler imports them as links and the site plays offline.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildDemoCatalogue, type DemoFilm } from './catalogue';

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

function detail(film: DemoFilm, mediaBase: string) {
  const { servers, palette: _palette, ...movie } = film;
  return {
    status: true,
    msg: '',
    movie,
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
          link_m3u8: playable ? `${mediaBase}/hls/clip.m3u8` : '',
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

function listPage(films: readonly DemoFilm[], page: number, mediaBase: string) {
  const totalPages = Math.max(1, Math.ceil(films.length / DEMO_PAGE_SIZE));
  const items = films.slice((page - 1) * DEMO_PAGE_SIZE, page * DEMO_PAGE_SIZE).map(listItem);
  return {
    status: true,
    items,
    pathImage: `${mediaBase}/posters/`,
    pagination: { totalItems: films.length, totalItemsPerPage: DEMO_PAGE_SIZE, currentPage: page, totalPages },
  };
}

/** Answers one request of the OPhim legacy API over the given films. */
export function handleDemoRequest(
  films: readonly DemoFilm[],
  mediaBase: string,
  method: string,
  rawUrl: string,
  bySlug: ReadonlyMap<string, DemoFilm> = new Map(films.map((f) => [f.slug, f])),
): { status: number; body: unknown } {
  if (method !== 'GET' && method !== 'HEAD') return { status: 405, body: { status: false, msg: 'Method not allowed' } };
  const url = new URL(rawUrl, 'http://demo.local');
  const page = Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1);
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const [section, slug] = parts;
  if (parts.length === 2 && section === 'phim') {
    const film = slug === undefined ? undefined : bySlug.get(slug);
    return film ? { status: 200, body: detail(film, mediaBase) } : { status: 404, body: { status: false, msg: 'Movie not found' } };
  }
  if (parts.length === 2 && slug) {
    let filter: ((film: DemoFilm) => boolean) | undefined;
    if (section === 'danh-sach') filter = LISTS[slug];
    else if (section === 'the-loai') filter = (f) => f.category.some((c) => c.slug === slug);
    else if (section === 'quoc-gia') filter = (f) => f.country.some((c) => c.slug === slug);
    if (filter) return { status: 200, body: listPage(films.filter(filter), page, mediaBase) };
  }
  return { status: 404, body: { status: false, msg: 'Not found' } };
}

export async function startDemoSource(options: DemoSourceOptions = {}): Promise<DemoSource> {
  const host = options.host ?? '127.0.0.1';
  const mediaBase = (options.mediaBase ?? DEFAULT_MEDIA_BASE).replace(/\/+$/, '');
  const films = options.films ?? buildDemoCatalogue();
  const bySlug = new Map(films.map((f) => [f.slug, f]));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const { status, body } = handleDemoRequest(films, mediaBase, req.method ?? 'GET', req.url ?? '/', bySlug);
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
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    films,
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
