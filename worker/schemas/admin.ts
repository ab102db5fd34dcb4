// Wire contract of the admin API: request schemas with
// the spec's body field names, response types, the texts the admin pages show, page sizes and codes.
// Pure (zod only): importable by web/.
import { z } from 'zod';
import type { Paginated } from './catalogue';
import { CATEGORIES, COUNTRIES, CRAWL_CATEGORY_NAMES, GENRES } from './taxonomy';

export { CRAWL_CATEGORY_NAMES } from './taxonomy';

// ---------------------------------------------------------------------------------------------
// Constants

/** Admin film list: 50 rows per page, 5 page links in range. */
export const ADMIN_FILMS_PAGE_SIZE = 50;
export const ADMIN_USERS_PAGE_SIZE = 20;
export const ADMIN_REPORTS_PAGE_SIZE = 30;
export const ADMIN_AUDIT_PAGE_SIZE = 50;
export const ADMIN_DELETED_PAGE_SIZE = 50;
export const ADMIN_PAGE_LINKS = 5;

/** crawl_schedules.status: 1 pending, 2 done, 3 failed, 4 claimed by a tick and running. */
export const SCHEDULE_STATUS = { pending: 1, done: 2, failed: 3, running: 4 } as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUS)[keyof typeof SCHEDULE_STATUS];
export const SCHEDULE_STATUS_TEXT: Record<ScheduleStatus, string> = {
  1: 'chưa thực hiện',
  2: 'đã hoàn thành',
  3: 'thất bại',
  4: 'đang thực hiện',
};

/** Schedule dates and times are wall-clock Asia/Ho_Chi_Minh (UTC+7, no DST). */
export const SCHEDULE_TIME_ZONE = 'Asia/Ho_Chi_Minh';
export const SCHEDULE_UTC_OFFSET_MINUTES = 7 * 60;

export const ROLES = ['user', 'admin'] as const;
export type Role = (typeof ROLES)[number];
export const PERMISSIONS = ['VIP1', 'VIP2'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Who may use what; the API enforces it, the web guard and sidebar mirror it. */
export const ADMIN_ACCESS = {
  /** users, products list/edit/delete/VIP1, auto crawl, error reports, orders, analytics, settings, audit. */
  adminOnly: { roles: ['admin'] as string[], permissions: [] as string[] },
  /** dashboard (a VIP2 holder: their own uploads), add film, add or change episodes (a VIP2 holder: of their own films). */
  adminOrVip2: { roles: ['admin'] as string[], permissions: ['VIP2'] as string[] },
};

/** Texts the admin pages show (the product's error catalogue); the API's own success message is ADDFILM_OK. */
export const ADMIN_TEXTS = {
  addFilmOk: 'Thêm thành công',
  addFilmSuccess: 'Thêm mới phim thành công!',
  addFilmFailed: 'Có lỗi xảy ra!',
  addFilmSystemError: 'Lỗi hệ thống',
  addEpisodeSuccess: 'Thêm tập phim mới thành công',
  addEpisodeFailed: 'Có lỗi xảy ra, vui lòng thử lại.',
  scheduleIncomplete: 'Vui lòng chọn thể loại, ngày, và thời gian để đặt lịch.',
  scheduleNotFuture: 'Thời gian đã chọn không hợp lệ. Vui lòng chọn thời gian trong tương lai.',
  scheduleSuccess: 'Bạn đã đặt lịch hẹn thành công!',
  scheduleFailed: 'Có lỗi xảy ra, vui lòng thử lại.',
  fetchUsersFailed: 'Failed to fetch users',
  updateRoleFailed: 'Failed to update user role',
  updatePermissionsFailed: 'Failed to update user permissions',
  noData: 'No data received from server',
  lastAdmin: 'Không thể bỏ quyền admin của quản trị viên cuối cùng.',
  filmNotFound: 'Không tìm thấy phim',
  episodeNotFound: 'Không tìm thấy tập phim',
  userNotFound: 'Không tìm thấy người dùng',
  scheduleNotFound: 'Không tìm thấy lịch thu thập',
  crawlRunNotFound: 'Không tìm thấy lượt thu thập',
  reportNotFound: 'Không tìm thấy báo lỗi',
  crawlSourceNotAllowed: 'Nguồn thu thập không nằm trong danh sách cho phép (CRAWL_SOURCES).',
  /** create_xemphim on an episode number that exists on that server: its link is replaced. */
  episodeLinkUpdated: 'Đã cập nhật link tập phim',
  notYourFilm: 'Bạn chỉ có thể thêm hoặc sửa tập của phim do bạn đăng.',
  deletedFilmNotFound: 'Không tìm thấy phim đã xóa',
  filmRestored: 'Đã khôi phục phim',
  restore: 'Khôi phục',
  confirmPayment: 'Xác nhận đã nhận tiền',
  paymentConfirmed: 'Đã xác nhận thanh toán',
  undo: 'Hoàn tác',
  auditUndone: 'Đã hoàn tác',
  auditEntryNotFound: 'Không tìm thấy mục nhật ký',
  auditNotUndoable: 'Thao tác này không thể hoàn tác.',
  auditAlreadyUndone: 'Thao tác này đã được hoàn tác.',
} as const;
export const ADDFILM_OK = ADMIN_TEXTS.addFilmOk;

// ---------------------------------------------------------------------------------------------
// Shared pieces

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const pageParam = z.preprocess(
  emptyToUndefined,
  z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be 1 or more').max(10_000).default(1),
);
const idNumber = z.coerce.number({ error: 'must be an id' }).int('must be an id').min(1, 'must be an id');
const slug = z.string({ error: 'is required' }).trim().min(1, 'is required').max(200, 'must be at most 200 characters');
const text = (max: number) => z.string({ error: 'must be text' }).trim().max(max, `must be at most ${max} characters`);
const httpUrl = z
  .string({ error: 'is required' })
  .trim()
  .min(1, 'is required')
  .max(2000, 'must be at most 2000 characters')
  .refine((s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'http:' || u.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an http(s) URL');
const optionalHttpUrlOrEmpty = z.union([z.literal(''), httpUrl]);

const COUNTRY_KEYS = new Set(COUNTRIES.flatMap((c) => [c.slug, c.name]));
const GENRE_KEYS = new Set(GENRES.flatMap((g) => [g.slug, g.name]));
const CATEGORY_IDS = CATEGORIES.map((c) => c.id) as number[];
const CRAWL_NAMES = new Set(CRAWL_CATEGORY_NAMES);

/** Genres as the spec's comma-separated theloai ('Hành Động, Tâm Lý') or a list; names or slugs. */
const theloai = z
  .union([z.string(), z.array(z.string())], { error: 'must be genre names' })
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))
  .refine((names) => names.every((n) => GENRE_KEYS.has(n)), 'must be genre names from the list');

/** Countries from the 35, by name ('Hàn Quốc') or slug ('han-quoc'): one, comma-separated, or a list. */
const quocgia = z
  .union([z.string(), z.array(z.string())], { error: 'must be countries from the list' })
  .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean))
  .refine((names) => names.every((n) => COUNTRY_KEYS.has(n)), 'must be countries from the 35 in the list');

const categoryId = z.coerce
  .number({ error: 'must be 24, 25, 26 or 27' })
  .int()
  .refine((n) => CATEGORY_IDS.includes(n), 'must be 24, 25, 26 or 27');

const vip1Flag = z
  .union([z.literal(0), z.literal(1), z.boolean()], { error: 'must be 0 or 1' })
  .transform((v) => (v === true || v === 1 ? 1 : 0));

const releaseYear = z.preprocess(
  emptyToUndefined,
  z.coerce.number({ error: 'must be a year' }).int('must be a year').min(1900, 'must be a year').max(2100, 'must be a year').optional(),
);

// ---------------------------------------------------------------------------------------------
// Users: GET /api/getalluser, POST /api/update_roles, POST /api/update_permissions,
// POST /api/admin/users/{id}/reset-password (admin only)

export const usersQuerySchema = z.object({
  page: pageParam,
  /** Search by email or username (substring, case-insensitive). */
  q: z.preprocess(emptyToUndefined, text(100).optional()),
});
export type UsersQuery = z.infer<typeof usersQuerySchema>;

export const updateRolesSchema = z.object({
  id_user_update: idNumber,
  /** 'user' or 'admin' (a one-element list is accepted too). */
  edited_roles: z.preprocess((v) => (Array.isArray(v) && v.length === 1 ? v[0] : v), z.enum(ROLES, { error: "must be 'user' or 'admin'" })),
});
export type UpdateRolesInput = z.infer<typeof updateRolesSchema>;

export const updatePermissionsSchema = z.object({
  id_user_update: idNumber,
  /** The whole new set: a subset of VIP1, VIP2. */
  edited_Permissions: z
    .array(z.enum(PERMISSIONS, { error: "must be 'VIP1' or 'VIP2'" }), { error: 'must be a list of VIP1 / VIP2' })
    .max(10, 'must be a list of VIP1 / VIP2')
    .transform((p) => [...new Set(p)]),
});
export type UpdatePermissionsInput = z.infer<typeof updatePermissionsSchema>;

export interface AdminUserSubscription {
  plan: Permission;
  /** Unix ms of the latest active subscription's end for this plan. */
  expiresAt: number;
}

export interface AdminUser {
  id: number;
  email: string;
  username: string;
  roles: Role[];
  /** Permissions granted by an admin (not those of a paid subscription: see subscriptions). */
  permissions: Permission[];
  /** Unix ms. */
  created: number;
  /** Active paid subscriptions, one per plan. */
  subscriptions: AdminUserSubscription[];
}

export type AdminUsersResponse = Paginated<AdminUser>;
export interface UpdateUserResponse {
  message: string;
  user: AdminUser;
}
/** POST /api/admin/users/{id}/reset-password: shown once; the user's sessions are signed out. */
export interface ResetPasswordResponse {
  message: string;
  temporaryPassword: string;
}

// ---------------------------------------------------------------------------------------------
// Films: POST /api/admin/addphim (admin or VIP2), POST /api/product/edit_productphim,
// DELETE /api/product/delete_product?title=, DELETE /api/product/delete_products,
// POST /api/product/edit_packageVIP1 (admin only). List: GET /api/product?page=&q= (50 per page).

/** The spec's film fields other than title and category_id; none has a default here. */
const filmFields = {
  hinhanh: optionalHttpUrlOrEmpty,
  nameenglish: text(300),
  trangthai: text(100),
  sotap: text(50),
  thoiluong: text(50),
  namphathanh: releaseYear,
  chatluong: text(50),
  ngonngu: text(100),
  daodien: text(500),
  dienvien: text(2000),
  theloai,
  quocgia: z.preprocess(emptyToUndefined, quocgia.optional()),
  descripts: text(10_000),
  VIP1: vip1Flag,
};
const filmTitle = z.string({ error: 'is required' }).trim().min(1, 'is required').max(300, 'must be at most 300 characters');

/** POST /api/admin/addphim: the spec's add-film fields; only title and category_id are required. */
export const addFilmSchema = z.object({
  ...filmFields,
  title: filmTitle,
  hinhanh: filmFields.hinhanh.default(''),
  nameenglish: filmFields.nameenglish.default(''),
  trangthai: filmFields.trangthai.default(''),
  sotap: filmFields.sotap.default(''),
  thoiluong: filmFields.thoiluong.default(''),
  chatluong: filmFields.chatluong.default(''),
  ngonngu: filmFields.ngonngu.default(''),
  daodien: filmFields.daodien.default(''),
  dienvien: filmFields.dienvien.default(''),
  theloai: filmFields.theloai.default([]),
  descripts: filmFields.descripts.default(''),
  category_id: categoryId,
  VIP1: filmFields.VIP1.default(0),
});
export type AddFilmInput = z.infer<typeof addFilmSchema>;
export interface AddFilmResponse {
  message: typeof ADDFILM_OK;
  slug: string;
  id: number;
}

/** POST /api/product/edit_productphim { data }: the film by slug, then only the fields to change. */
export const editFilmSchema = z.object({
  data: z.object({
    slug,
    title: filmTitle.optional(),
    category_id: categoryId.optional(),
    ...Object.fromEntries(Object.entries(filmFields).map(([k, v]) => [k, v.optional()])),
  } as {
    slug: typeof slug;
    title: z.ZodOptional<typeof filmTitle>;
    category_id: z.ZodOptional<typeof categoryId>;
  } & { [K in keyof typeof filmFields]: z.ZodOptional<(typeof filmFields)[K]> }),
});
export type EditFilmInput = z.infer<typeof editFilmSchema>;

export const deleteFilmQuerySchema = z.object({ title: slug });
export const deleteFilmsSchema = z.object({
  titles: z.array(slug, { error: 'must be a list of slugs' }).min(1, 'must name at least one film').max(500, 'must be at most 500 films'),
});
export interface DeleteFilmsResponse {
  message: string;
  deleted: number;
}

export const editVip1Schema = z.object({ title: slug, VIP1: vip1Flag });
export interface FilmWriteResponse {
  message: string;
  slug: string;
}

// ---------------------------------------------------------------------------------------------
// Episodes (admin or VIP2): POST /api/product/create_xemphim, POST /api/product/edit_xemphim,
// DELETE /api/product/delete_xemphim?id=, GET /api/product/admin_episodes?title= (a film's episodes)

export const DEFAULT_SERVER_NAME = 'Vietsub #1';

export const createEpisodeSchema = z.object({
  /** The film's slug. */
  selectedTitle: slug,
  episode: z.coerce
    .number({ error: 'must be an episode number' })
    .int('must be an episode number')
    .min(1, 'must be 1 or more')
    .max(100_000),
  linkfilm: httpUrl,
  server: z.preprocess(emptyToUndefined, text(100).optional()),
});
export type CreateEpisodeInput = z.infer<typeof createEpisodeSchema>;

export const editEpisodeSchema = z.object({
  id: idNumber,
  episode: z.coerce.number({ error: 'must be an episode number' }).int().min(1).max(100_000).optional(),
  linkfilm: httpUrl.optional(),
  server: z.preprocess(emptyToUndefined, text(100).optional()),
});
export type EditEpisodeInput = z.infer<typeof editEpisodeSchema>;
export const deleteEpisodeQuerySchema = z.object({ id: idNumber });
export const filmEpisodesQuerySchema = z.object({ title: slug });

export interface AdminEpisode {
  id: number;
  episode: number;
  server: string;
  linkfilm: string;
}
/** Who added or last changed a film or an episode; null for the crawler. */
export interface FilmAuthor {
  id: number | null;
  email: string;
}
export interface AdminEpisodeWithAuthors extends AdminEpisode {
  createdBy: FilmAuthor | null;
  updatedBy: FilmAuthor | null;
}

/** GET /api/admin/film?slug= (admin): the whole film for the editor, in the spec's field names. */
export interface AdminFilm {
  slug: string;
  title: string;
  nameenglish: string;
  hinhanh: string;
  trangthai: string;
  sotap: string;
  thoiluong: string;
  namphathanh: number | null;
  chatluong: string;
  ngonngu: string;
  daodien: string;
  dienvien: string;
  /** Genre names. */
  theloai: string[];
  /** Country names. */
  quocgia: string[];
  descripts: string;
  category_id: number;
  VIP1: 0 | 1;
  createdBy: FilmAuthor | null;
  updatedBy: FilmAuthor | null;
}
export const filmSlugQuerySchema = z.object({ slug });

/** GET /api/admin/my-films?q= (admin or VIP2): the films the viewer added, for the add-episode picker. */
export const myFilmsQuerySchema = z.object({ q: z.preprocess(emptyToUndefined, text(100).optional()) });
export interface UploaderFilm {
  slug: string;
  title: string;
  nameenglish: string;
  namphathanh: number | null;
}

// ---------------------------------------------------------------------------------------------
// Deleted films (admin): GET /api/admin/deleted-films?page=, POST /api/admin/deleted-films/{id}/restore

export const deletedFilmsQuerySchema = z.object({ page: pageParam });
export interface DeletedFilm {
  id: number;
  slug: string;
  title: string;
  /** Imported by a crawl: crawls skip it until it is restored. */
  fromCrawl: boolean;
  deletedAt: number;
  deletedBy: FilmAuthor | null;
}
export type DeletedFilmsResponse = Paginated<DeletedFilm>;
export interface RestoreFilmResponse {
  message: string;
  slug: string;
  id: number;
}
export interface EpisodeWriteResponse {
  message: string;
  /** True when the same episode on the same server existed and was updated. */
  updated: boolean;
  episode: AdminEpisode;
}
export interface FilmEpisodesResponse {
  slug: string;
  title: string;
  data: AdminEpisodeWithAuthors[];
}

// ---------------------------------------------------------------------------------------------
// Crawls (admin only): POST /api/crawl → 202, GET /api/crawl_runs, GET /api/crawl_runs/{id},
// GET /api/schedule_crawl, POST /api/create_scheduled_crawls, DELETE /api/delete_scheduled_crawls?id=

const crawlName = z
  .string({ error: 'must be a crawl category' })
  .trim()
  .refine((s) => CRAWL_NAMES.has(s), 'must be one of the 27 crawl categories');

export const crawlNowSchema = z.object({
  /** One of the 27 names, or a list of them. */
  category: z
    .union([crawlName, z.array(crawlName).min(1, 'must name at least one category').max(CRAWL_CATEGORY_NAMES.length)], {
      error: 'must be one of the 27 crawl categories or a list of them',
    })
    .transform((v) => [...new Set(Array.isArray(v) ? v : [v])]),
  /** One source ("Nguồn phim" id) to crawl; absent: every enabled source, in priority order (issue 32). */
  source: z.number({ error: 'must be a source id' }).int('must be a source id').positive('must be a source id').optional(),
});
export type CrawlNowInput = z.infer<typeof crawlNowSchema>;
export interface CrawlNowResponse {
  /** The last run (the last source's): the runs go one after the other, so its end is the crawl's end. */
  runId: number;
  /** One run per source crawled, in priority order. */
  runIds: number[];
}

export type CrawlRunState = 'running' | 'done' | 'failed';
export interface CrawlRunDto {
  id: number;
  state: CrawlRunState;
  trigger: 'cli' | 'admin' | 'schedule' | 'start' | 'light';
  source: string;
  lists: string[];
  /** The crawl category names asked for (admin/schedule runs); empty for others. */
  categories: string[];
  pagesDone: number;
  /** Pages of every list as far as the source has reported them; null before the first page is read. */
  pagesTotal: number | null;
  filmsNew: number;
  filmsUpdated: number;
  filmsSkipped: number;
  filmsFailed: number;
  /** Films that joined a film another source had already given (issue 32). */
  filmsMerged: number;
  error: string | null;
  startedAt: number;
  finishedAt: number | null;
}
export interface CrawlRunsResponse {
  data: CrawlRunDto[];
}

/** Empty strings and missing fields all answer the one incomplete-form text. */
export const createScheduleSchema = z.object({
  categories: z
    .array(z.string(), { error: ADMIN_TEXTS.scheduleIncomplete })
    .min(1, ADMIN_TEXTS.scheduleIncomplete)
    .max(CRAWL_CATEGORY_NAMES.length * 2)
    .transform((names) => [...new Set(names.map((n) => n.trim()))])
    .refine((names) => names.every((n) => CRAWL_NAMES.has(n)), 'must be crawl category names from the list'),
  date: z
    .string({ error: ADMIN_TEXTS.scheduleIncomplete })
    .trim()
    .min(1, ADMIN_TEXTS.scheduleIncomplete)
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD'),
  time: z
    .string({ error: ADMIN_TEXTS.scheduleIncomplete })
    .trim()
    .min(1, ADMIN_TEXTS.scheduleIncomplete)
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:mm'),
  /** One source ("Nguồn phim" id); absent: every enabled source when it runs (issue 32). */
  source: z.number({ error: 'must be a source id' }).int('must be a source id').positive('must be a source id').optional(),
});
export type CreateScheduleInput = z.infer<typeof createScheduleSchema>;
export const deleteScheduleQuerySchema = z.object({ id: idNumber });

export interface ScheduledCrawl {
  id: number;
  /** Spec fields: 'YYYY-MM-DD' and 'HH:mm' in Asia/Ho_Chi_Minh. */
  crawl_date: string;
  crawl_time: string;
  /** Unix ms of crawl_date + crawl_time. */
  runAt: number;
  category: string[];
  status: ScheduleStatus;
  crawlRunId: number | null;
  /** The one source it crawls; null: every enabled source (issue 32). */
  sourceId: number | null;
  createdAt: number;
}
export interface SchedulesResponse {
  data: ScheduledCrawl[];
}
/** The spec's client checks data.status === 200. */
export interface CreateScheduleResponse {
  status: 200;
  message: string;
  data: ScheduledCrawl;
}

/** Converts a schedule's wall-clock date and time (Asia/Ho_Chi_Minh) to unix ms; NaN if invalid. */
export function scheduleRunAt(date: string, time: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!m || !t) return Number.NaN;
  const [y, mo, d, h, mi] = [m[1], m[2], m[3], t[1], t[2]].map(Number) as [number, number, number, number, number];
  const utc = Date.UTC(y, mo - 1, d, h, mi);
  const check = new Date(utc);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59) return Number.NaN;
  return utc - SCHEDULE_UTC_OFFSET_MINUTES * 60_000;
}

// ---------------------------------------------------------------------------------------------
// Error reports (admin only): GET /api/admin/error-reports?page=&state=, POST /api/admin/error-reports/{id}/resolve

export const errorReportsQuerySchema = z.object({
  page: pageParam,
  /** Default 'open' first then resolved ('all'). */
  state: z.preprocess(
    emptyToUndefined,
    z.enum(['all', 'open', 'resolved'], { error: "must be 'all', 'open' or 'resolved'" }).default('all'),
  ),
});
export interface AdminErrorReport {
  id: number;
  film: { slug: string; title: string };
  episode: number | null;
  server_name: string | null;
  reason: string;
  message: string;
  user: { id: number; username: string } | null;
  createdAt: number;
  resolvedAt: number | null;
}
export type ErrorReportsResponse = Paginated<AdminErrorReport> & { open: number };

// ---------------------------------------------------------------------------------------------
// Dashboard (admin or VIP2): GET /api/admin/stats; analytics (admin): GET /api/admin/analytics

export interface DayCount {
  /** 'YYYY-MM-DD' (Asia/Ho_Chi_Minh). */
  day: string;
  views: number;
}
export interface MonthRevenue {
  /** 'YYYY-MM' (Asia/Ho_Chi_Minh). */
  month: string;
  amount: number;
}
export interface TopFilm {
  slug: string;
  title: string;
  views: number;
}
/** GET /api/admin/stats for an admin: the whole site. */
export interface AdminStats {
  scope: 'site';
  films: number;
  episodes: number;
  users: number;
  /** Users with an active paid subscription, per plan. */
  vipMembers: { VIP1: number; VIP2: number };
  /** VND, paid payments. */
  revenueThisMonth: number;
  /** Last 12 months, oldest first. */
  revenueByMonth: MonthRevenue[];
  /** Last 30 days, oldest first, zero-filled. */
  viewsPerDay: DayCount[];
  /** Most viewed in the last 7 days. */
  topFilmsWeek: TopFilm[];
  openErrorReports: number;
  lastCrawlRuns: CrawlRunDto[];
  /** The mail outbox (issue 34): waiting to leave, failed for good, and the latest failures. */
  mail: MailHealth;
  /** The comment moderation queue (issue 33): its size and when its oldest item entered it (the 24-hour clock). */
  moderationQueue: ModerationQueueSummary;
}
/** The mail outbox as the dashboard shows it (docs/decisions/0980). */
export interface MailHealth {
  pending: number;
  failed: number;
  recentFailures: { id: number; kind: string; kindLabel: string; to: string; attempts: number; lastError: string; createdAt: number }[];
}
export interface ModerationQueueSummary {
  open: number;
  /** Unix ms; null when the queue is empty. */
  oldestAt: number | null;
}
/** GET /api/admin/stats for a VIP2 uploader (not admin): their own uploads only, no revenue or users. */
export interface UploaderStats {
  scope: 'uploads';
  /** Films they added. */
  films: number;
  /** Episodes of those films. */
  episodes: number;
  /** All-time views of those films. */
  views: number;
  /** Their films, most recently changed first (at most 20). */
  recentFilms: { slug: string; title: string; episodes: number; views: number; updatedAt: number }[];
  /** The moderation queue of their films' threads. */
  moderationQueue: ModerationQueueSummary;
}
export type DashboardStats = AdminStats | UploaderStats;

export interface AdminAnalytics {
  viewsPerDay: DayCount[];
  topFilmsWeek: TopFilm[];
  topFilmsMonth: TopFilm[];
  /** All-time views counter (films.views). */
  topFilmsAllTime: TopFilm[];
}

// ---------------------------------------------------------------------------------------------
// Settings (admin only): GET/PUT /api/admin/settings

export const settingsSchema = z.object({
  hotline: text(50),
  bankName: text(100),
  bankAccount: text(50),
  bankHolder: text(100),
  /** The bank's 6-digit NAPAS BIN, for the transfer's VietQR code; empty: the page shows no code. */
  bankBin: z
    .string({ error: 'must be text' })
    .trim()
    .regex(/^(?:\d{6})?$/, 'must be the 6-digit NAPAS BIN of the bank, or empty'),
  /** Base URL crawled by admin and scheduled crawls; its origin must be in CRAWL_SOURCES. */
  crawlSource: httpUrl,
  /** Comment moderation (docs/decisions/0230): distinct reports that hide a comment until a moderator decides. */
  commentReportThreshold: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be 1 or more')
    .max(100, 'must be at most 100'),
  /** An account younger than this many days has its links and phone numbers held for review. */
  commentNewAccountDays: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(3650, 'must be at most 3650'),
});
export type AdminSettings = z.infer<typeof settingsSchema>;
/**
 * PUT body: any subset of the fields; a field left out keeps its value (no defaults here: a default would
 * fill the missing fields with '' and a save of the hotline alone would erase the bank account).
 */
export const updateSettingsSchema = settingsSchema.partial();
export interface SettingsResponse {
  data: AdminSettings;
  /** Origins a crawl source may use. */
  allowedCrawlSources: string[];
}

// ---------------------------------------------------------------------------------------------
// Audit log (admin only): GET /api/admin/audit?page=&action=

export const auditQuerySchema = z.object({
  page: pageParam,
  action: z.preprocess(emptyToUndefined, text(60).optional()),
});
export interface AuditEntry {
  id: number;
  actor: { id: number | null; email: string };
  /** e.g. 'user.roles', 'film.create', 'film.delete', 'crawl.start', 'schedule.create', 'settings.update'. */
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  /** Field by field: what differs between before and after. */
  changes: AuditChange[];
  createdAt: number;
  /** "Hoàn tác" is offered: the action can be undone from this entry's data and it still stands. */
  undoable: boolean;
  /** When an admin undid it (null while it stands). */
  undoneAt: number | null;
  /** On the entry an undo wrote: the id of the entry it undid. */
  undoOf: number | null;
}
export interface AuditChange {
  field: string;
  before: unknown;
  after: unknown;
}
export type AuditResponse = Paginated<AuditEntry>;
export const auditIdParamSchema = z.object({ id: idNumber });
/** POST /api/admin/audit/{id}/undo */
export interface UndoAuditResponse {
  message: string;
  /** The entry that records the undo. */
  undoId: number;
}
