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
  /** A post too early while the film's slow mode is on (issue 38): the seconds left. */
  slowMode: (seconds: number) => `Chế độ chậm: vui lòng chờ ${Math.max(1, Math.ceil(seconds))} giây nữa rồi bình luận tiếp.`,
  /** The comment box while the film's slow mode is on. */
  slowModeOn: (seconds: number) => `Chế độ chậm: mỗi người bình luận một lần mỗi ${seconds} giây.`,
  slowModeWait: (seconds: number) => `Chế độ chậm: chờ ${seconds} giây`,
} as const;

// ---- comment moderation (moderation.ts, docs/decisions/0230-comment-moderation.md) ----
/** Why a member reports a comment, in the order the form offers them. */
export const COMMENT_REPORT_REASONS = ['spam', 'offensive', 'spoiler', 'harassment', 'other'] as const;
export type CommentReportReason = (typeof COMMENT_REPORT_REASONS)[number];
export const COMMENT_REPORT_REASON_TEXT: Record<CommentReportReason, string> = {
  spam: 'Spam / quảng cáo',
  offensive: 'Nội dung phản cảm',
  spoiler: 'Tiết lộ nội dung (spoiler)',
  harassment: 'Quấy rối',
  other: 'Khác',
};
/** "Khác" asks for the reporter's words; a moderator's reason is as long. */
export const COMMENT_REPORT_NOTE_MAX = 500;
export const MODERATION_REASON_MAX = 500;
/** How long a moderator mutes a member; a VIP2 uploader may give the first two only. */
export const MUTE_DURATIONS = ['1d', '7d', '30d', 'forever'] as const;
export type MuteDuration = (typeof MUTE_DURATIONS)[number];
export const MUTE_DURATION_TEXT: Record<MuteDuration, string> = { '1d': '1 ngày', '7d': '7 ngày', '30d': '30 ngày', forever: 'Vĩnh viễn' };
export const UPLOADER_MUTE_DURATIONS: readonly MuteDuration[] = ['1d', '7d'];
/** Defaults of the two moderation settings (admin settings): reports that hide a comment, and the age of a "new" account. */
export const COMMENT_REPORT_THRESHOLD_DEFAULT = 3;
export const COMMENT_NEW_ACCOUNT_DAYS_DEFAULT = 7;
/** Held-for-review reasons, as the queue shows them. */
export const COMMENT_HOLD_TEXT: Record<'word' | 'link' | 'phone' | 'duplicate', string> = {
  word: 'Chứa từ trong danh sách lọc',
  link: 'Có liên kết (tài khoản mới hoặc chưa có VIP)',
  phone: 'Có số điện thoại (tài khoản mới hoặc chưa có VIP)',
  duplicate: 'Nội dung lặp lại nhiều lần',
};

/** dd/mm/yyyy in Asia/Ho_Chi_Minh (UTC+7, no DST). */
export function vnDate(ms: number): string {
  const d = new Date(ms + 7 * 3_600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}

/** Every text of comment moderation people see; the API answers these and the web shows them as they are. */
export const MODERATION_TEXTS = {
  /** The moderation page's "Chế độ chậm" switch saved (issue 38). */
  slowModeSaved: 'Đã lưu chế độ chậm',
  report: 'Báo cáo',
  spoilerMark: 'Có tiết lộ nội dung',
  reveal: 'Hiện',
  spoilerLabel: 'Tiết lộ nội dung',
  hideAuthor: 'Ẩn bình luận của người này',
  unhideAuthor: 'Bỏ ẩn',
  removed: 'Bình luận đã bị gỡ',
  hiddenByReports: 'Bình luận đã bị ẩn do bị báo cáo',
  pending: 'Đang chờ duyệt',
  pendingNote: 'Chỉ bạn thấy bình luận này cho đến khi được duyệt.',
  removedForAuthor: (reason: string) => `Bình luận của bạn đã bị gỡ: ${reason}`,
  muted: (until: number | null, reason: string) =>
    until === null ? `Bạn bị khóa bình luận vĩnh viễn: ${reason}` : `Bạn bị tạm khóa bình luận đến ${vnDate(until)}: ${reason}`,
  banned: (reason: string) => `Tài khoản của bạn đã bị khóa: ${reason}`,
  reported: 'Đã gửi báo cáo. Cảm ơn bạn!',
  alreadyReported: 'Bạn đã báo cáo bình luận này rồi.',
  selfReport: 'Bạn không thể báo cáo bình luận của chính mình.',
  commentNotFound: 'Không tìm thấy bình luận',
  tooManyReports: 'Bạn báo cáo quá nhiều. Vui lòng thử lại sau.',
  noteRequired: 'Vui lòng ghi rõ lý do',
  authorHidden: 'Đã ẩn bình luận của người này',
  authorUnhidden: 'Đã bỏ ẩn',
  hideSelf: 'Bạn không thể ẩn bình luận của chính mình.',
  approved: 'Đã duyệt bình luận',
  removedOk: 'Đã gỡ bình luận',
  mutedOk: 'Đã khóa bình luận của thành viên',
  bannedOk: 'Đã khóa tài khoản',
  notYourThread: 'Bạn chỉ có thể kiểm duyệt bình luận trong phim do bạn đăng.',
  uploaderMuteLimit: 'Người đăng phim chỉ có thể khóa bình luận 1 hoặc 7 ngày.',
  cannotModerateStaff: 'Không thể khóa tài khoản quản trị viên.',
  alreadyDecided: 'Bình luận này đã được xử lý.',
  wordAdded: 'Đã thêm vào danh sách lọc',
  wordRemoved: 'Đã xóa khỏi danh sách lọc',
  wordExists: 'Từ này đã có trong danh sách lọc.',
  wordNotFound: 'Không tìm thấy từ trong danh sách lọc',
  wordTooShort: 'Từ cần ít nhất 2 chữ cái hoặc chữ số.',
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
