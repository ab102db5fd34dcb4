// Start-up warm-up of the first-page renderer (issue 17; docs/decisions/0606-*). A fresh isolate runs every
// function in V8's interpreter until it has run often enough to be compiled: its first page cost 50–65 ms of
// CPU in workerd where the same page costs 10 once warm. A host therefore renders each kind of page a few times as
// it starts (worker/ssr/render.ts loadRenderer: the Worker's isolate, the Node server), with a one-film catalogue
// answered in-process, so the
// first visitor's page runs compiled code. Start-up CPU is not a request's: Cloudflare bounds it (1 s) apart
// from the 10 ms of a Free-plan request, and the isolate starts while the visitor's TLS handshake is under way.
import type { FilmCard, FilmDetailResponse, HomeTopData, Paginated } from '../../../worker/schemas/catalogue';
import type { ApiFetch, RenderedPage } from './render-page';

/** How many times each page is rendered: enough for V8 to compile the renderer's hot paths (bench/edge.ts). */
const ROUNDS = 3;

const FILM: FilmCard = {
  id: 1,
  slug: 'khoi-dong',
  title: 'Khởi động',
  nameenglish: 'Warm-up',
  hinhanh: '/icons/icon-192.png',
  thumb: '/icons/icon-192.png',
  trangthai: 'Hoàn Tất (2/2)',
  ngonngu: 'Vietsub',
  sotap: '2 Tập',
  thoiluong: '45 phút/tập',
  namphathanh: 2024,
  chatluong: 'HD',
  theloai: 'Hành Động',
  quocgia: 'Việt Nam',
  descripts: 'Phim dựng sẵn để máy chủ khởi động trình kết xuất.',
  views: 1,
  likes: 0,
  category_id: 24,
  VIP1: 0,
  createdAt: 0,
  updatedAt: 0,
};
const FILMS = [FILM, { ...FILM, id: 2, slug: 'khoi-dong-2', VIP1: 1 as const }];
const LINKS = [1, 2].map((episode) => ({
  id: episode,
  episode,
  name: `Tập ${episode}`,
  server_name: 'Vietsub #1',
  linkfilm: '',
  link_m3u8: '',
  link_embed: '',
}));

const HOME_TOP: HomeTopData = { phimhot: FILMS, phimbomoicapnhat: FILMS };
const LIST: Paginated<FilmCard> = { data: FILMS, pagination: { page: 1, pageSize: 25, totalItems: 2, totalPages: 1 } };
const PERSON = { person: { slug: 'dien-vien', name: 'Diễn viên', role: 'actor' }, ...LIST };
const DETAIL: FilmDetailResponse = {
  datafilm: {
    ...FILM,
    daodien: 'Đạo diễn',
    dienvien: 'Diễn viên',
    ongoing: true,
    schedule: { weekdays: [3], minuteOfDay: 1200, next: 0, lateAt: 0 },
    genres: [{ slug: 'hanh-dong', name: 'Hành Động' }],
    countries: [{ slug: 'viet-nam', name: 'Việt Nam' }],
    linkfilms: LINKS,
    servers: [{ server_name: 'Vietsub #1', linkfilms: LINKS }],
    directors: [{ slug: 'dao-dien', name: 'Đạo diễn' }],
    actors: [{ slug: 'dien-vien', name: 'Diễn viên' }],
    trailer: '',
    showtimes: 'Lịch chiếu',
    notify: '',
    chieurap: true,
    tmdb: { score: 8.3, votes: 100 },
    seasons: [],
    top10: { rank: 1, list: 'phimbo' },
  },
  comments: [],
  comments_cursor: null,
  comments_total: 0,
  rating_star: { rating: null },
  general_assessment: { totalRatings: 0, averageRating: null },
  recommended: FILMS.map((f) => ({ ...f, reason: 'Cùng diễn viên Diễn viên' })),
};

/** The one-film catalogue's answer to an API path, as the app would give it. */
function answerFor(pathname: string): unknown {
  if (pathname === '/api/product/home-top') return HOME_TOP;
  if (pathname === '/api/product/search' || pathname.startsWith('/api/product/product-')) return LIST;
  if (pathname === `/api/product/${FILM.slug}`) return DETAIL;
  if (pathname === '/api/people/actor/dien-vien') return PERSON;
  return undefined;
}

/**
 * workerd refuses I/O objects in global scope: a Response with a body, and an AbortController (TanStack Router
 * makes one per route match; the warm-up never aborts one). An answer here is the part of a Response the API
 * client reads.
 */
const warmUpApi: ApiFetch = (request) => {
  const body = answerFor(new URL(request.url).pathname);
  return { ok: body !== undefined, status: body === undefined ? 404 : 200, json: async () => body ?? {} } as unknown as Response;
};

class StartUpAbortController {
  readonly signal = { aborted: false, reason: undefined, addEventListener() {}, removeEventListener() {}, throwIfAborted() {} };
  abort() {}
}

/**
 * Renders home, a listing, a film, an episode and a search page ROUNDS times each. Call it only while the host
 * starts, before any page (worker/ssr/render.ts loadRenderer): the renderer's API client is the one-film catalogue
 * meanwhile.
 * Resolves with the number of pages rendered; a page that fails is skipped (the first visitor's page then just
 * runs colder code).
 */
export async function warmUp(render: (url: string, fetchApi: ApiFetch, origin: string) => Promise<RenderedPage | null>): Promise<number> {
  const paths = ['/', '/phim-bo', `/${FILM.slug}`, `/xem-phim/${FILM.slug}/tap-1`, '/tim-kiem/khoi-dong'];
  const scope = globalThis as { AbortController: typeof AbortController };
  const platform = scope.AbortController;
  let refused = false;
  try {
    new platform();
  } catch {
    refused = true;
  }
  if (refused) scope.AbortController = StartUpAbortController as unknown as typeof AbortController;
  let rendered = 0;
  try {
    for (let round = 0; round < ROUNDS; round++)
      for (const path of paths) {
        const page = await render(path, warmUpApi, 'http://localhost').catch(() => null);
        if (page) rendered++;
      }
  } finally {
    scope.AbortController = platform;
  }
  return rendered;
}
