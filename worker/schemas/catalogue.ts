// Wire contract of the catalogue API (legacy field names + slug). Pure types and zod: importable by web/.
import type { RelatedFilm } from './related';
import { z } from 'zod';
import type { CommentDto } from './comments';
import type { FilmExtras, PersonSuggestion, Top10Rows } from './discovery';
import type { RatingSummary } from './ratings';
import type { FilmSchedule } from './schedule';

export { VIP_ERROR_CODES, VIP_MESSAGES, type VipBlock } from './values';

/** A film as listings, home rails and search show it (no episode links ever). */
export interface FilmCard {
  id: number;
  slug: string;
  title: string;
  nameenglish: string;
  hinhanh: string;
  thumb: string;
  trangthai: string;
  ngonngu: string;
  sotap: string;
  thoiluong: string;
  namphathanh: number | null;
  chatluong: string;
  theloai: string;
  quocgia: string;
  /** Shortened to 200 characters for cards; the detail carries the whole text. */
  descripts: string;
  views: number;
  likes: number;
  category_id: number;
  VIP1: 0 | 1;
  createdAt: number;
  updatedAt: number;
}

/** One episode on one server. Links are empty strings when the viewer may not watch (VIP-only film). */
export interface EpisodeLink {
  id: number;
  episode: number;
  name: string;
  server_name: string;
  /** The playable link: m3u8 when the source has one, else the embed page. */
  linkfilm: string;
  link_m3u8: string;
  link_embed: string;
}

/** The source a crawled server comes from (issue 32): its name, and whether it answers (down: "Không phản hồi"). */
export interface ServerSource {
  name: string;
  down: boolean;
}

export interface ServerEpisodes {
  /** Unique on the film: a crawled server's name carries its source's ('Vietsub #1 · KKPhim'). */
  server_name: string;
  /** Absent: added by hand. Servers come in the order the player tries them: by hand first, then sources by priority, down ones last. */
  source?: ServerSource;
  linkfilms: EpisodeLink[];
}

export interface FilmDetail extends FilmCard, FilmExtras {
  daodien: string;
  dienvien: string;
  /** A series still getting episodes: "Xem tiếp" waits for the next one rather than starting over. */
  ongoing: boolean;
  /**
   * When an ongoing series' next episode should come, predicted from when its episodes first appeared
   * (docs/decisions/1080, 1110); null below 3 releases, with no recurring weekday, or a week past a missed slot.
   */
  schedule: FilmSchedule | null;
  /** Genre and country entries with slugs, for links. */
  genres: { slug: string; name: string }[];
  countries: { slug: string; name: string }[];
  /** Episodes of the first server (the spec's linkfilms); every server's list is in servers. */
  linkfilms: EpisodeLink[];
  servers: ServerEpisodes[];
  /** Slugs of films merged into this one: they answer 301 here; a device that downloaded under one maps it here. */
  aliases?: string[];
}

export interface FilmDetailResponse {
  datafilm: FilmDetail;
  /** The newest top-level threads (THREADS_PER_PAGE) with their replies; older ones through …/comments?before=. */
  comments: CommentDto[];
  /** `before` of the next older page ("Xem thêm bình luận"), null when `comments` holds the oldest thread. */
  comments_cursor: number | null;
  /** Comments everyone sees on the film: the heading's "Bình luận (N)". */
  comments_total: number;
  /** The viewer's own rating, if signed in and rated. */
  rating_star: { rating: number | null };
  general_assessment: RatingSummary;
  /** VIP-only film and the viewer is signed out / has no permission at all (docs/decisions/0003-vip-access.md). */
  error1?: boolean;
  /** VIP-only film and the viewer's permissions lack VIP1 and VIP2. */
  error?: boolean;
  /** "Phim tương tự" (docs/decisions/1090): related films, best first, each with its reason. */
  recommended: RelatedFilm[];
}

export interface Pagination {
  page: number;
  pageSize: number;
  totalItems: number;
  totalPages: number;
}

export interface Paginated<T> {
  data: T[];
  pagination: Pagination;
}

/** GET /api/product/search: the films, and on the first page the people whose name starts with the query. */
export interface SearchResults extends Paginated<FilmCard> {
  /** People whose folded name starts with the query ("Trấn Thành · Diễn viên · 3 phim"); [] past the first page. */
  people: PersonSuggestion[];
}

export interface TrendingLists {
  day: FilmCard[];
  week: FilmCard[];
  month: FilmCard[];
}

/** A film as the sidebar lists show it: poster, title, year and views (a FilmCard has them too). */
export type SideFilm = Pick<FilmCard, 'id' | 'slug' | 'title' | 'hinhanh' | 'thumb' | 'namphathanh' | 'views' | 'VIP1'>;

/**
 * GET /api/product/sidebar: what a listing page's sidebar shows, not the whole home. The home's lists of the
 * same names are these films as whole cards.
 */
export interface SidebarData {
  phimhanhdong: SideFilm[];
  phimsapchieu: SideFilm[];
  phimtrending: { day: SideFilm[]; week: SideFilm[]; month: SideFilm[] };
}

export interface HomeData {
  phimhot: FilmCard[];
  phimbomoicapnhat: FilmCard[];
  phimlemoicapnhat: FilmCard[];
  phimdahoanthanh: FilmCard[];
  phimhoathinh: FilmCard[];
  phimtamlytimcam: FilmCard[];
  phimvientuong: FilmCard[];
  phimhanhdong: FilmCard[];
  /** Most viewed by view events in the last day, week and month. */
  phimtrending: TrendingLists;
  phimsapchieu: FilmCard[];
  /** "Top 10 phim bộ hôm nay" / "Top 10 phim lẻ hôm nay" by plays (issue 40 §3); a row is [] until it may show. */
  top10: Top10Rows;
}

/** GET /api/product/home-top: the home's first screen (the hot carousel and the first tab), its other lists left out. */
export type HomeTopData = Pick<HomeData, 'phimhot' | 'phimbomoicapnhat'>;

export interface EpisodeResponse {
  data: { title: string; slug: string; episode: number; server_name: string; linkfilm: string; link_m3u8: string; link_embed: string };
}

const pageParam = z.coerce
  .number({ error: 'must be a whole number' })
  .int('must be a whole number')
  .min(1, 'must be 1 or more')
  .max(10_000, 'must be 10000 or less');
const emptyToUndefined = (v: unknown) => (v === '' ? undefined : v);

/** Query of every listing endpoint: page plus the filter bar. */
export const listingQuerySchema = z.object({
  page: z.preprocess(emptyToUndefined, pageParam.default(1)),
  sort: z.preprocess(emptyToUndefined, z.enum(['createdAt', 'views'], { error: "must be 'createdAt' or 'views'" }).optional()),
  /** Genre slug, e.g. 'hanh-dong'. */
  category: z.preprocess(emptyToUndefined, z.string().max(40).optional()),
  /** Country slug, e.g. 'han-quoc'. */
  country: z.preprocess(emptyToUndefined, z.string().max(40).optional()),
  type: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be 24, 25, 26 or 27' })
      .int()
      .refine((t) => t >= 24 && t <= 27, 'must be 24, 25, 26 or 27')
      .optional(),
  ),
  year: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'must be a year' }).int('must be a year').min(1900, 'must be a year').max(2100, 'must be a year').optional(),
  ),
  keyword: z.preprocess(emptyToUndefined, z.string().trim().max(100, 'must be at most 100 characters').optional()),
  /** "Phim chiếu rạp" only: chieurap=1. */
  chieurap: z.preprocess(
    emptyToUndefined,
    z
      .enum(['1', '0'], { error: "must be '1' or '0'" })
      .optional()
      .transform((v) => v === '1' || undefined),
  ),
});
export type ListingQuery = z.infer<typeof listingQuerySchema>;

export const searchQuerySchema = z.object({
  q: z.string({ error: 'is required' }).trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  limit: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ error: 'must be a whole number' }).int().min(1, 'must be 1 to 50').max(50, 'must be 1 to 50').default(5),
  ),
  page: z.preprocess(emptyToUndefined, pageParam.default(1)),
});

export const allFilmsQuerySchema = z.object({
  page: z.preprocess(emptyToUndefined, pageParam.default(1)),
  pageSize: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1, 'must be 1 to 100').max(100, 'must be 1 to 100').default(50)),
  q: z.preprocess(emptyToUndefined, z.string().trim().max(100, 'must be at most 100 characters').optional()),
});

export const updateViewSchema = z.object({
  title: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200),
});

/** One film, by slug: GET /product/{slug}, its comments and the like. */
export const slugParamSchema = z.object({ slug: z.string().min(1).max(200) });

export const filmIdParamSchema = z.object({ id: z.coerce.number({ error: 'must be a film id' }).int().positive('must be a film id') });

export const episodeParamSchema = slugParamSchema.extend({
  // The web route segment is 'tap-{n}'; a bare number is accepted too.
  episode: z
    .string()
    .regex(/^(tap-)?\d{1,5}$/, "must be a number or 'tap-{n}'")
    .transform((s) => Number(s.replace('tap-', ''))),
});

export const episodeQuerySchema = z.object({ server: z.string().max(100).optional() });
