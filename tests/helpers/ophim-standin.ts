// A local HTTP server speaking the OPhim protocol in its three dialects (legacy OPhim, KKPhim, the
// /v1/api variant), with hooks to inject the faults real sources have: errors, hangs, redirects,
// oversize or non-JSON bodies. Tests crawl it through real fetch, so redirects and streaming are real.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Dialect = 'legacy' | 'kkphim' | 'v1';

/** A film as the source holds it: the legacy detail's `movie` and `episodes`. */
export interface StandinFilm {
  movie: Record<string, unknown> & { slug: string; name?: unknown; _id?: unknown };
  episodes?: unknown;
}

export interface StandinReply {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Never answer (the request hangs until the client gives up). */
  hang?: boolean;
}

export interface Standin {
  /** Base URL to crawl: origin for legacy/kkphim, origin + '/v1/api' for v1. */
  url: string;
  origin: string;
  /** Paths (with query) requested so far. */
  requests: string[];
  films: StandinFilm[];
  /** Answer a path yourself (return undefined to fall through to the protocol). */
  intercept?: (path: string, query: URLSearchParams) => StandinReply | undefined;
  close: () => Promise<void>;
}

export interface StandinOptions {
  dialect?: Dialect;
  films?: StandinFilm[];
  pageSize?: number;
  /** Legacy pathImage; v1 APP_DOMAIN_CDN_IMAGE. */
  imageBase?: string;
}

const json = (body: unknown, status = 200): StandinReply => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify(body),
});

/** List entries; OPhim v1 and KKPhim lists also carry each film's ids (OPhim's legacy lists do not). */
function listItems(films: StandinFilm[], withIds: boolean) {
  return films.map((f) => ({
    _id: f.movie._id,
    name: f.movie.name,
    slug: f.movie.slug,
    modified: f.movie.modified ?? { time: '2024-01-01T00:00:00.000Z' },
    ...(withIds && f.movie.tmdb !== undefined ? { tmdb: f.movie.tmdb } : {}),
    ...(withIds && f.movie.imdb !== undefined ? { imdb: f.movie.imdb } : {}),
  }));
}

function inList(film: StandinFilm, kind: string, slug: string): boolean {
  const m = film.movie;
  if (kind === 'danh-sach') {
    if (slug === 'phim-moi-cap-nhat') return true;
    if (slug === 'phim-bo') return m.type === 'series';
    if (slug === 'phim-le') return m.type === 'single';
    if (slug === 'tv-shows') return m.type === 'tvshows';
    if (slug === 'hoat-hinh') return m.type === 'hoathinh';
    if (slug === 'phim-sap-chieu') return m.status === 'trailer';
    return false;
  }
  const refs = (kind === 'the-loai' ? m.category : m.country) as unknown;
  return Array.isArray(refs) && refs.some((r) => typeof r === 'object' && r !== null && (r as { slug?: string }).slug === slug);
}

export async function startOphimStandin(options: StandinOptions = {}): Promise<Standin> {
  const dialect = options.dialect ?? 'legacy';
  const pageSize = options.pageSize ?? 24;
  const requests: string[] = [];
  const prefix = dialect === 'v1' ? '/v1/api' : '';
  let origin = '';
  const imageBase = () => options.imageBase ?? (dialect === 'v1' ? `${origin}/cdn` : `${origin}/uploads/movies/`);

  const standin: Standin = {
    url: '',
    origin: '',
    requests,
    films: options.films ?? [],
    close: async () => undefined,
  };

  function protocol(path: string, query: URLSearchParams): StandinReply {
    if (!path.startsWith(prefix)) return json({ status: false, msg: 'Not found' }, 404);
    const parts = path.slice(prefix.length).split('/').filter(Boolean);
    const [kind, slug] = parts;
    if (parts.length === 2 && kind === 'phim') {
      const film = standin.films.find((f) => f.movie.slug === slug);
      if (!film) return json({ status: false, msg: 'Movie not found' }, 404);
      if (dialect === 'v1')
        return json({ status: 'success', data: { item: { ...film.movie, episodes: film.episodes }, APP_DOMAIN_CDN_IMAGE: imageBase() } });
      return json({ status: true, msg: '', movie: film.movie, episodes: film.episodes });
    }
    if (parts.length === 2 && kind && slug && ['danh-sach', 'the-loai', 'quoc-gia'].includes(kind)) {
      const page = Math.max(1, Number(query.get('page') ?? 1) || 1);
      const matching = standin.films.filter((f) => inList(f, kind, slug));
      const items = listItems(matching.slice((page - 1) * pageSize, page * pageSize), dialect !== 'legacy');
      const pagination = {
        totalItems: matching.length,
        totalItemsPerPage: pageSize,
        currentPage: page,
        totalPages: Math.max(1, Math.ceil(matching.length / pageSize)),
      };
      if (dialect === 'v1') return json({ status: 'success', data: { items, params: { pagination }, APP_DOMAIN_CDN_IMAGE: imageBase() } });
      if (dialect === 'kkphim') return json({ status: true, items, pagination });
      return json({ status: true, items, pathImage: imageBase(), pagination });
    }
    return json({ status: false, msg: 'Not found' }, 404);
  }

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://standin.local');
    requests.push(`${url.pathname}${url.search}`);
    const reply = standin.intercept?.(url.pathname, url.searchParams) ?? protocol(url.pathname, url.searchParams);
    if (reply.hang) return;
    res.writeHead(reply.status ?? 200, reply.headers ?? {});
    res.end(reply.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standin.origin = origin;
  standin.url = `${origin}${prefix}`;
  standin.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return standin;
}

let counter = 0;

/** A realistic legacy OPhim film; override any field. Series get `episodeCount` episodes on two servers. */
export function ophimFilm(
  overrides: Partial<StandinFilm['movie']> & { slug: string },
  options: { episodeCount?: number; servers?: string[]; episodes?: unknown } = {},
): StandinFilm {
  counter++;
  const count = options.episodeCount ?? (overrides.type === 'single' ? 1 : 3);
  const servers = options.servers ?? ['Vietsub #1', 'Thuyết Minh #2'];
  const single = count === 1;
  const episodes =
    options.episodes ??
    servers.map((server_name, s) => ({
      server_name,
      server_data: Array.from({ length: count }, (_, i) => ({
        name: single ? 'Full' : `Tập ${String(i + 1).padStart(2, '0')}`,
        slug: single ? 'full' : `tap-${String(i + 1).padStart(2, '0')}`,
        filename: `${overrides.slug}-${i + 1}`,
        link_embed: `https://player.example.com/share/${overrides.slug}-${s}-${i + 1}`,
        link_m3u8: `https://cdn.example.com/${overrides.slug}/${s}/${i + 1}/index.m3u8`,
      })),
    }));
  return {
    movie: {
      _id: `id${String(counter).padStart(6, '0')}`,
      name: `Phim ${overrides.slug}`,
      origin_name: `Film ${overrides.slug}`,
      content: '<p>Một bộ phim hay.</p>',
      type: 'series',
      status: 'completed',
      thumb_url: `${overrides.slug}-thumb.jpg`,
      poster_url: `${overrides.slug}-poster.jpg`,
      is_copyright: false,
      time: '45 phút/tập',
      episode_current: `Hoàn Tất (${count}/${count})`,
      episode_total: `${count} Tập`,
      quality: 'HD',
      lang: 'Vietsub',
      year: 2023,
      actor: ['Diễn Viên A', 'Diễn Viên B'],
      director: ['Đạo Diễn C'],
      category: [{ id: 'g1', name: 'Hành Động', slug: 'hanh-dong' }],
      country: [{ id: 'c1', name: 'Hàn Quốc', slug: 'han-quoc' }],
      modified: { time: '2024-05-01T10:00:00.000Z' },
      ...overrides,
    },
    episodes,
  };
}

/** The config of an app that crawls this stand-in: its origin allowed, no pause between requests, one film at a time. */
export function crawlConfigFor(source: Pick<Standin, 'origin' | 'url'>) {
  return { CRAWL_SOURCES: [source.origin], CRAWL_SOURCE: source.url, CRAWL_DELAY_MS: 0, CRAWL_CONCURRENCY: 1 };
}
