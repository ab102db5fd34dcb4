// Wire contract of a member's data rights (issue 39 §1–2, docs/decisions/1041 and 1042): "Xóa tài khoản" and
// "Tải dữ liệu của tôi". Texts the page and the API share.
import { z } from 'zod';

/** Days between the request and the erasure; signing in meanwhile offers "Khôi phục tài khoản". */
export const ERASURE_GRACE_DAYS = 7;
/** A deletion or an export needs a sign-in at most this old (password, passkey or Google). */
export const FRESH_SIGN_IN_MINUTES = 10;
/** The export file's format (docs/export-format.md); raised when a key changes meaning. */
export const EXPORT_FORMAT_VERSION = 1;
/** Shown as the author of an erased member's comment (its text removed, its thread kept). */
export const ERASED_AUTHOR_NAME = 'Tài khoản đã xóa';

/** POST /api/account/deletion: what becomes of the member's comments. */
export const requestDeletionBodySchema = z.object({
  comments: z.enum(['anonymise', 'delete'], { error: 'must be anonymise or delete' }).default('anonymise'),
});
export type RequestDeletionInput = z.infer<typeof requestDeletionBodySchema>;

/** A pending deletion, on GET /api/account and in the answers below. */
export interface PendingDeletion {
  requestedAt: number;
  /** Erased at or after this time (by the scheduler, within a day of it). */
  dueAt: number;
  comments: 'anonymise' | 'delete';
}

export interface RequestDeletionResponse {
  ok: true;
  message: string;
  deletion: PendingDeletion;
}

/** GET /api/admin/account-deletions: members waiting for erasure. */
export interface AdminPendingDeletion extends PendingDeletion {
  userId: number;
  email: string;
  name: string;
}

export const ACCOUNT_DATA_TEXTS = {
  reauthRequired: `Vì an toàn, hãy đăng nhập lại (mật khẩu, khóa truy cập hoặc Google) rồi thử lại trong vòng ${FRESH_SIGN_IN_MINUTES} phút.`,
  deletionRequested: (dueText: string) =>
    `Đã ghi nhận yêu cầu xóa tài khoản. Mọi thiết bị đã được đăng xuất. Tài khoản sẽ bị xóa vào ${dueText}.`,
  deletionPendingTitle: 'Tài khoản đang chờ xóa',
  restore: 'Khôi phục tài khoản',
  restored: 'Tài khoản đã được khôi phục. Yêu cầu xóa đã được hủy.',
  eraseNow: 'Xóa ngay',
  erased: 'Tài khoản của bạn đã được xóa.',
  noPendingDeletion: 'Tài khoản không có yêu cầu xóa nào.',
  alreadyPending: 'Tài khoản đã có yêu cầu xóa.',
  tooManyExports: 'Bạn đã tải dữ liệu quá nhiều lần. Vui lòng thử lại sau một giờ.',
  adminErased: 'Đã xóa tài khoản.',
  memberNotFound: 'Không tìm thấy thành viên.',
} as const;
