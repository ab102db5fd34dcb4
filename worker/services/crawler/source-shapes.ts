// What OPhim-compatible sources send, validated with zod, and the detection of which shape a response
// has (legacy OPhim/KKPhim top-level fields, or the /v1/api variant wrapped in `data`). Schemas are
// tolerant where real sources vary (numbers as strings, string arrays, nulls) and strict where a value
// is needed to import the film at all (a title, a slug safe to put in a URL).
import { z } from 'zod';

/** Where relative poster names resolve: legacy pathImage (…/uploads/movies/) or a v1 CDN root. */
export interface ImageBase {
  kind: 'path' | 'cdn';
  url: string;
}

export interface ListItem {
  slug: string;
  id?: string;
  /** The ids OPhim v1 and KKPhim lists carry; the detail's own win (services/films/film-identity.ts). */
  tmdb?: unknown;
  imdb?: unknown;
  /** The source's `modified.time` (unix ms) when the list says it: the light crawl fetches a detail only when it moved. */
  modified?: number;
}

/** The four OPhim-compatible families (docs/features.md "Nguồn phim"): legacy and /v1/api of OPhim and of KKPhim (phimapi.com). */
export const SOURCE_FAMILIES = ['ophim', 'ophim-v1', 'kkphim', 'kkphim-v1'] as const;
export type SourceFamily = (typeof SOURCE_FAMILIES)[number];

export interface ListPage {
  shape: 'legacy' | 'v1';
  items: ListItem[];
  /** Items present on the page but unusable (no safe slug). */
  invalidItems: number;
  totalPages?: number;
  imageBase?: ImageBase;
  /** Which family answered, as far as the page tells (familyOf). */
  family: SourceFamily;
}

export interface SourceDetail {
  shape: 'legacy' | 'v1';
  movie: SourceMovie;
  episodes: SourceServer[];
  imageBase?: ImageBase;
  /** What was wrong but not fatal (an id of the wrong type, ignored): lines for the crawl's log. */
  problems: string[];
}

/** Source slugs go into request paths: letters, digits and dashes only (no traversal, no query). */
const SAFE_SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{0,199}$/;

const text = z
  .union([z.string(), z.number(), z.boolean()])
  .nullish()
  .transform((v) => (v === null || v === undefined || typeof v === 'boolean' ? '' : String(v).trim()));

/** A source's own id: a string or a number; anything else (an object, an array) is no id, and the slug keys the film. */
const anyId = z
  .unknown()
  .optional()
  .transform((v) => sourceIdOf(v));

const count = z.coerce.number().int().nonnegative().catch(0).optional();

export interface NamedRef {
  name: string;
  slug: string;
}

/** [{ name, slug }] | ['Hành Động'] | 'Cổ trang, Tình cảm' | null → NamedRef[]. */
const namedRefs = z
  .union([z.array(z.union([z.string(), z.object({ name: text, slug: text }), z.null()])), z.string(), z.null()])
  .optional()
  .transform((value): NamedRef[] => {
    if (!value) return [];
    const list = typeof value === 'string' ? value.split(',') : value;
    return list
      .map((entry) => (typeof entry === 'string' ? { name: entry.trim(), slug: '' } : (entry ?? { name: '', slug: '' })))
      .filter((ref) => ref.name || ref.slug);
  });

/** ['A', '  B', ''] | 'A, B' | null → 'A, B'. */
const people = z
  .union([z.array(z.union([z.string(), z.number(), z.null()])), z.string(), z.null()])
  .optional()
  .transform((value) => {
    if (!value) return '';
    const list = typeof value === 'string' ? value.split(',') : value;
    return list
      .map((p) => (p === null ? '' : String(p).trim()))
      .filter(Boolean)
      .join(', ');
  });

const year = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((v) => {
    const n = typeof v === 'number' ? v : Number.parseInt(String(v ?? ''), 10);
    return Number.isInteger(n) && n >= 1900 && n <= 2100 ? n : null;
  });

/** Not part of OPhim: the demo source marks VIP-only films with `is_vip: true`. */
const flag = z
  .unknown()
  .optional()
  .transform((v) => v === true || v === 1 || v === '1' || v === 'true' || v === 'on');

const episodeItem = z.object({
  name: text,
  slug: text,
  filename: text,
  link_embed: text,
  link_m3u8: text,
});

const server = z.object({
  server_name: text,
  server_data: z
    .array(z.union([episodeItem, z.null()]))
    .nullish()
    .transform((items) => (items ?? []).filter((i) => i !== null)),
});

export type SourceServer = z.infer<typeof server>;

const servers = z
  .array(z.union([server, z.null()]))
  .nullish()
  .transform((list) => (list ?? []).filter((s) => s !== null));

/** { time: '2024-05-01T10:00:00.000Z' } → unix ms; anything unparseable → undefined. */
const sourceTime = z
  .union([z.object({ time: z.union([z.string(), z.number()]).nullish() }), z.string(), z.null()])
  .optional()
  .transform((v) => {
    const raw = v && typeof v === 'object' ? v.time : v;
    if (raw === null || raw === undefined || raw === '') return undefined;
    const ms = typeof raw === 'number' ? raw : Date.parse(raw);
    return Number.isFinite(ms) && ms > 0 ? ms : undefined;
  });

const movie = z.object({
  /** As sent: sourceIdOf() reads it, and a wrong-typed one is reported, not fatal. */
  _id: z.unknown().optional(),
  name: z.string().trim().min(1, 'name: required').max(500),
  slug: z.string().trim().regex(SAFE_SLUG, 'slug: not URL-safe'),
  origin_name: text,
  content: text,
  type: text,
  status: text,
  poster_url: text,
  thumb_url: text,
  time: text,
  episode_current: text,
  episode_total: text,
  quality: text,
  lang: text,
  year,
  actor: people,
  director: people,
  category: namedRefs,
  country: namedRefs,
  is_vip: flag,
  /** What OPhim's CMS keeps beside a film (issue 40 §2): a YouTube URL, the schedule and notice (HTML or text), "Phim chiếu rạp". */
  trailer_url: text,
  showtimes: text,
  notify: text,
  chieurap: flag,
  created: sourceTime,
  modified: sourceTime,
  /** Parsed by services/films/film-identity.ts, which knows every way they come wrong. */
  tmdb: z.unknown().optional(),
  imdb: z.unknown().optional(),
});

export type SourceMovie = z.infer<typeof movie>;

const pagination = z
  .object({
    totalItems: count,
    totalItemsPerPage: count,
    currentPage: count,
    totalPages: count,
  })
  .nullish();

const legacyList = z.object({
  items: z.array(z.unknown()),
  pagination,
  pathImage: z.string().nullish(),
});

const v1List = z.object({
  data: z.object({
    items: z.array(z.unknown()),
    params: z.object({ pagination }).nullish(),
    APP_DOMAIN_CDN_IMAGE: z.string().nullish(),
  }),
});

const listItem = z.object({
  slug: z.string().trim().regex(SAFE_SLUG),
  _id: anyId,
  tmdb: z.unknown().optional(),
  imdb: z.unknown().optional(),
  modified: sourceTime.catch(undefined),
});

const failedStatus = (status: unknown) => status === false || status === 'error' || status === 'fail' || status === 'failed';

const sourceStatus = z.object({ status: z.unknown().optional(), msg: text, message: text });

const legacyDetail = z.object({ movie, episodes: servers });
const v1Detail = z.object({
  data: z.object({
    item: movie.extend({ episodes: servers }),
    /** Some v1 clones put the servers beside the item rather than in it. */
    episodes: servers,
    APP_DOMAIN_CDN_IMAGE: z.string().nullish(),
  }),
});

export class SourceShapeError extends Error {
  override readonly name = 'SourceShapeError';
}

function totalPagesOf(p: z.infer<typeof pagination>): number | undefined {
  if (!p) return undefined;
  if (p.totalPages) return p.totalPages;
  if (p.totalItems !== undefined && p.totalItemsPerPage) return Math.ceil(p.totalItems / p.totalItemsPerPage);
  return undefined;
}

function imageBase(kind: ImageBase['kind'], url: string | null | undefined): ImageBase | undefined {
  return url && /^https?:\/\//i.test(url) ? { kind, url } : undefined;
}

function listItems(raw: unknown[]): Pick<ListPage, 'items' | 'invalidItems'> {
  const items: ListItem[] = [];
  let invalidItems = 0;
  for (const entry of raw) {
    const parsed = listItem.safeParse(entry);
    if (parsed.success)
      items.push({
        slug: parsed.data.slug,
        id: parsed.data._id,
        tmdb: parsed.data.tmdb,
        imdb: parsed.data.imdb,
        ...(parsed.data.modified !== undefined ? { modified: parsed.data.modified } : {}),
      });
    else invalidItems++;
  }
  return { items, invalidItems };
}

/** Image hosts that name their family: KKPhim's phimimg.com, OPhim's img.ophim*. */
function familyHint(text: string): 'ophim' | 'kkphim' | undefined {
  if (/phimimg|kkphim|phimapi/i.test(text)) return 'kkphim';
  if (/ophim|opstream/i.test(text)) return 'ophim';
  return undefined;
}

const firstPoster = (items: unknown[]) => {
  const first = items.find((i) => i && typeof i === 'object') as { poster_url?: unknown; thumb_url?: unknown } | undefined;
  return `${typeof first?.poster_url === 'string' ? first.poster_url : ''} ${typeof first?.thumb_url === 'string' ? first.thumb_url : ''}`;
};

/**
 * The family a list page comes from, from the page alone: v1 wraps it in `data`; an image host names OPhim or
 * KKPhim; else a legacy page with `pathImage` is OPhim's (KKPhim's lists send absolute image URLs instead).
 */
function familyOf(shape: 'legacy' | 'v1', signs: { imageBase?: string | null; items: unknown[] }): SourceFamily {
  const hint = familyHint(`${signs.imageBase ?? ''} ${firstPoster(signs.items)}`);
  if (shape === 'v1') return hint === 'kkphim' ? 'kkphim-v1' : 'ophim-v1';
  return hint ?? (signs.imageBase ? 'ophim' : 'kkphim');
}

/** A list page in either shape; throws SourceShapeError when it is neither. */
export function parseListPage(body: unknown): ListPage {
  const v1 = v1List.safeParse(body);
  if (v1.success) {
    const { data } = v1.data;
    return {
      shape: 'v1',
      ...listItems(data.items),
      totalPages: totalPagesOf(data.params?.pagination),
      imageBase: imageBase('cdn', data.APP_DOMAIN_CDN_IMAGE),
      family: familyOf('v1', { imageBase: data.APP_DOMAIN_CDN_IMAGE, items: data.items }),
    };
  }
  const legacy = legacyList.safeParse(body);
  if (legacy.success) {
    return {
      shape: 'legacy',
      ...listItems(legacy.data.items),
      totalPages: totalPagesOf(legacy.data.pagination),
      imageBase: imageBase('path', legacy.data.pathImage),
      family: familyOf('legacy', { imageBase: legacy.data.pathImage, items: legacy.data.items }),
    };
  }
  const status = sourceStatus.safeParse(body);
  const said = status.success && failedStatus(status.data.status) ? `: ${status.data.msg || status.data.message || 'error'}` : '';
  throw new SourceShapeError(`not an OPhim list page${said}`);
}

/** A film detail in either shape; throws SourceShapeError naming the first problem. */
export function parseDetail(body: unknown): SourceDetail {
  const status = sourceStatus.safeParse(body);
  if (status.success && failedStatus(status.data.status)) {
    throw new SourceShapeError(`source says: ${status.data.msg || status.data.message || 'not found'}`);
  }
  if (body && typeof body === 'object' && 'movie' in body) {
    const parsed = legacyDetail.safeParse(body);
    if (!parsed.success) throw new SourceShapeError(describeIssue(parsed.error, 'movie'));
    return { shape: 'legacy', movie: parsed.data.movie, episodes: parsed.data.episodes, problems: idProblems(parsed.data.movie) };
  }
  const parsed = v1Detail.safeParse(body);
  if (!parsed.success) throw new SourceShapeError(describeIssue(parsed.error, 'data.item'));
  const { item, episodes: beside, APP_DOMAIN_CDN_IMAGE } = parsed.data.data;
  const { episodes, ...rest } = item;
  return {
    shape: 'v1',
    movie: rest,
    episodes: episodes.length ? episodes : beside,
    imageBase: imageBase('cdn', APP_DOMAIN_CDN_IMAGE),
    problems: idProblems(rest),
  };
}

/** A film's own id at the source: a string or a number; anything else (an object, an array) is no id. */
export function sourceIdOf(raw: unknown): string | undefined {
  if (typeof raw === 'string' && raw.trim()) return raw.trim().slice(0, 200);
  if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
  return undefined;
}

function idProblems(m: SourceMovie): string[] {
  const raw = m._id;
  if (raw === undefined || raw === null || raw === '' || sourceIdOf(raw) !== undefined) return [];
  return [`_id: expected a string or number, got ${Array.isArray(raw) ? 'an array' : typeof raw}: the slug keys this film`];
}

function describeIssue(error: z.ZodError, fallback: string): string {
  const issue = error.issues[0];
  if (!issue) return `invalid ${fallback}`;
  return `invalid ${issue.path.join('.') || fallback}: ${issue.message}`;
}
