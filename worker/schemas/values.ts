// The wire contract's plain values: limits, texts and names both sides use at runtime. No zod here (nor
// anywhere this imports): the web imports these at runtime, and zod must stay out of its bundles
// (docs/decisions/0007-web-search-params-without-zod.md). The resource files (auth.ts, comments.ts…)
// build their schemas on these and re-export them for the worker.

// ---- auth (auth.ts) ----
/** Below this the registration form and POST /dang-ky refuse a password. */
export const PASSWORD_MIN_LENGTH = 8;
/** PBKDF2 hashes any length, but an unbounded input is a cheap denial of service. */
export const PASSWORD_MAX_LENGTH = 256;
export const NAME_MAX_LENGTH = 60;
export const EMAIL_MAX_LENGTH = 254;

/** The sign-in and session texts: the API answers them and the web shows them as they are. */
export const AUTH_MESSAGES = {
  loginFailed: 'Thông tin đăng nhập không chính xác !!!',
  googleLoginFailed: 'Đăng nhập thất bại. Vui lòng thử lại.',
  emailTaken: 'Email này đã được đăng ký. Vui lòng đăng nhập hoặc dùng email khác.',
  sessionExpired: 'Phiên đăng nhập đã hết hạn. Vui lòng đăng nhập lại.',
  tooManyLogins: 'Bạn đã thử đăng nhập quá nhiều lần. Vui lòng thử lại sau ít phút.',
  tooManySignups: 'Bạn đã đăng ký quá nhiều lần. Vui lòng thử lại sau.',
} as const;

// ---- VIP access (catalogue.ts) ----
/**
 * Why a viewer may not watch a VIP-only film: 'error1' signed out or no permission at all (sign in and
 * buy), 'error' permissions lacking VIP1 and VIP2 (buy). The film detail carries the flag; the episode
 * endpoint answers 401 vip_login_required / 403 vip_required with the same text.
 */
export type VipBlock = 'error1' | 'error';
export const VIP_MESSAGES: Record<VipBlock, string> = {
  error1: 'Bạn cần đăng nhập và mua gói xem VIP để có thể xem được phim này!',
  error: 'Bạn cần mua gói xem VIP để có thể xem được phim này!',
};
export const VIP_ERROR_CODES: Record<VipBlock, string> = { error1: 'vip_login_required', error: 'vip_required' };

// ---- comments (comments.ts) ----
/** Counted in characters (code points), so an emoji counts once. */
export const COMMENT_MAX_LENGTH = 2000;
/** The header carrying the shared secret on the API's pushes to a film's comment room. */
export const PARTY_SECRET_HEADER = 'x-party-secret';
/** The PartyKit party serving one room per film slug. */
export const COMMENTS_PARTY = 'comments';
export const COMMENT_MESSAGES = {
  tooFast: 'Bạn bình luận quá nhanh. Vui lòng chờ một lát rồi thử lại.',
} as const;

// ---- ratings (ratings.ts) ----
/** Stars run from RATING_MIN to RATING_MAX, whole numbers. */
export const RATING_MIN = 1;
export const RATING_MAX = 10;

// ---- error reports (error-reports.ts) ----
/** Reasons offered by the watch page's 'Báo lỗi' button. */
export const REPORT_REASONS = ['khong-phat-duoc', 'sai-tap', 'am-thanh', 'phu-de', 'khac'] as const;
/**
 * The player's own report when it moves off a dead server by itself (not offered to viewers): one per
 * episode, server and day (Asia/Ho_Chi_Minh), whatever the number of viewers.
 */
export const AUTO_REPORT_REASON = 'server-loi';
export const REPORT_MESSAGE_MAX_LENGTH = 1000;
export const REPORT_MESSAGES = {
  tooMany: 'Bạn đã báo lỗi quá nhiều lần, vui lòng thử lại sau ít phút.',
} as const;

// ---- VIP plans (vip.ts) ----
/** The plan ids: route params of the VIP pages are checked against these in the first-load bundle. */
export const PLAN_IDS = ['VIP1', 'VIP2'] as const;

// ---- watch parties (watch-party.ts, party/watch-messages.ts) ----
/** A party id: ≥ 96 random bits as base64url (the API makes 128 bits: 22 characters). */
export const PARTY_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
/** A visitor's display name, counted in characters after trimming. */
export const WATCH_NAME_MIN = 1;
export const WATCH_NAME_MAX = 32;
