// Wire contract of "Nguồn phim" (the sources an operator manages) and "Gộp phim" (merging two films that are one),
// issue 32 (docs/decisions/0104-one-film-every-source.md). Pure (zod only): importable by web/.
import { z } from 'zod';

export const SOURCE_FAMILIES = ['ophim', 'ophim-v1', 'kkphim', 'kkphim-v1'] as const;
export type SourceFamilyName = (typeof SOURCE_FAMILIES)[number];

/** How the admin page names each family. */
export const SOURCE_FAMILY_TEXT: Record<SourceFamilyName, string> = {
  ophim: 'OPhim',
  'ophim-v1': 'OPhim v1',
  kkphim: 'KKPhim',
  'kkphim-v1': 'KKPhim v1',
};

export const SOURCE_TEXTS = {
  title: 'Nguồn phim',
  down: 'Không phản hồi',
  up: 'Hoạt động',
  disabled: 'Đang tắt',
  answering: 'Có phản hồi',
  notAnswering: 'Không trả lời',
  unknown: 'Chưa kiểm tra',
  notFound: 'Không tìm thấy nguồn phim',
  notAllowed: 'Nguồn không nằm trong danh sách cho phép (CRAWL_SOURCES, CRAWL_SOURCE).',
  exists: 'Nguồn này đã có trong danh sách',
  nameTaken: 'Tên nguồn đã được dùng cho nguồn khác',
  created: 'Đã thêm nguồn phim',
  saved: 'Đã lưu nguồn phim',
  noneEnabled: 'Chưa có nguồn phim nào đang bật để thu thập.',
} as const;

export const MERGE_TEXTS = {
  title: 'Gộp phim',
  merge: 'Gộp phim',
  merged: 'Đã gộp phim',
  sameFilm: 'hai phim phải khác nhau',
  filmNotFound: 'Không tìm thấy phim',
  dismissed: 'Đã bỏ qua gợi ý',
  suggestionNotFound: 'Không tìm thấy gợi ý gộp phim',
  cannotUndo: 'Mục nhật ký này không đủ dữ liệu để hoàn tác',
  keptGone: 'Phim được giữ lại đã bị xóa: không thể tách lại',
  slugTaken: 'Đường dẫn cũ của phim đã được dùng cho phim khác: không thể tách lại',
} as const;

const baseUrl = z
  .string({ error: 'must be a URL' })
  .trim()
  .min(1, 'must be a URL')
  .max(500, 'at most 500 characters')
  .refine((v) => /^https?:\/\/[^\s]+$/i.test(v), 'must be an http(s) URL');
const name = z.string({ error: 'must be text' }).trim().min(1, 'must not be empty').max(40, 'at most 40 characters');
const family = z.enum(SOURCE_FAMILIES, { error: `must be one of ${SOURCE_FAMILIES.join(', ')}` });
const priority = z
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(0, 'must be ≥ 0')
  .max(100_000, 'must be ≤ 100000');

/** POST /api/admin/sources: a new source (its origin must be allowed). Family: detected from its answers when absent. */
export const createSourceSchema = z.strictObject({
  baseUrl,
  name: name.optional(),
  family: family.optional(),
  priority: priority.optional(),
  enabled: z.boolean({ error: 'must be true or false' }).optional(),
});
export type CreateSourceInput = z.infer<typeof createSourceSchema>;

/** PATCH /api/admin/sources/{id}: any of name, family, priority, enabled. */
export const updateSourceSchema = z
  .strictObject({
    name: name.optional(),
    family: family.optional(),
    priority: priority.optional(),
    enabled: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .refine((v) => Object.keys(v).length > 0, { message: 'name, family, priority or enabled: at least one' });
export type UpdateSourceInput = z.infer<typeof updateSourceSchema>;

export const sourceIdParamSchema = z.object({
  id: z.coerce.number({ error: 'must be a source id' }).int('must be a source id').positive('must be a source id'),
});

export interface SourceRunDto {
  id: number;
  state: 'running' | 'done' | 'failed';
  filmsNew: number;
  filmsMerged: number;
  filmsUpdated: number;
  filmsSkipped: number;
  filmsFailed: number;
  error: string | null;
  startedAt: number;
  finishedAt: number | null;
}

/** One row of "Nguồn phim". */
export interface SourceDto {
  id: number;
  name: string;
  baseUrl: string;
  family: SourceFamilyName | null;
  /** The family was given (configuration, this page), not detected. */
  familyGiven: boolean;
  priority: number;
  enabled: boolean;
  /** Backed off after crawls in a row failed: "Không phản hồi"; its servers are last on every film. */
  down: boolean;
  failures: number;
  backoffUntil: number | null;
  lastCrawlAt: number | null;
  lastOkAt: number | null;
  lastError: string | null;
  lastRun: SourceRunDto | null;
  /** Films this source feeds. */
  films: number;
  /** Errors its crawls logged in the last 24 hours. */
  errors24h: number;
  /** Whether it answered the last check (null: never checked), and when. */
  answering: boolean | null;
  checkedAt: number | null;
  /** Named in CRAWL_SOURCE (configuration). */
  configured: boolean;
}

export interface SourcesResponse {
  data: SourceDto[];
}

export interface SourceCheckDto {
  id: number;
  answering: boolean;
  error: string | null;
  /** Films on its first list page. */
  films: number;
}

export interface SourceLogLine {
  id: number;
  runId: number | null;
  level: 'error' | 'doubt';
  message: string;
  at: number;
}

// ---------------------------------------------------------------------------------------------
// Gộp phim

const slug = z
  .string({ error: 'must be a film slug' })
  .trim()
  .min(1, 'must be a film slug')
  .max(200, 'at most 200 characters')
  .regex(/^[a-z0-9-]+$/, 'must be a film slug');

/** POST /api/admin/merges: `drop` joins `keep` (everything moves; drop's slug answers 301 to keep). */
export const mergeFilmsSchema = z.strictObject({ keep: slug, drop: slug });
export type MergeFilmsInput = z.infer<typeof mergeFilmsSchema>;

export const suggestionIdParamSchema = z.object({
  id: z.coerce.number({ error: 'must be a suggestion id' }).int('must be a suggestion id').positive('must be a suggestion id'),
});

export const suggestionsQuerySchema = z.object({
  status: z.enum(['open', 'dismissed', 'merged'], { error: 'must be open, dismissed or merged' }).default('open'),
});

/** A film as "Gộp phim" shows it: enough to tell two apart. */
export interface MergeFilmDto {
  id: number;
  slug: string;
  title: string;
  nameEnglish: string;
  year: number | null;
  kind: 'single' | 'series' | null;
  tmdb: string | null;
  imdbId: string | null;
  sources: string[];
  episodes: number;
  views: number;
  comments: number;
  createdAt: number;
}

export interface MergeSuggestionDto {
  id: number;
  reason: string;
  status: 'open' | 'merged' | 'dismissed';
  createdAt: number;
  /** The suggested pair, the film to keep first (the older one). */
  keep: MergeFilmDto;
  drop: MergeFilmDto;
}

export interface MergeSuggestionsResponse {
  data: MergeSuggestionDto[];
}
