// Wire contract and texts of consent and of the privacy page (/bao-mat): the policy version members accept, what
// personal data the product keeps (each row checked against worker/db/schema.ts), how long (worker/schemas/retention.ts,
// the figures the scheduler applies), who processes it and how each right is used, with its deadlines
// (docs/decisions/1050, 1052). Data only: the web's first page imports it; the zod schemas are in privacy.ts.
import { RETENTION_DAYS } from './retention';

/** The privacy policy's version. A new value asks every signed-in member once to accept it. */
export const PRIVACY_POLICY_VERSION = '2026-11-28';

/** The sign-up body's consent field (POST /api/dang-ky; POST /api/dang-nhap with a first Google sign-in). */
export const CONSENT_FIELD = 'acceptPrivacy';

export const CONSENT_TEXTS = {
  checkbox: 'Tôi đã đọc và đồng ý với',
  policyLink: 'Chính sách bảo mật',
  required: 'Bạn cần đồng ý với Chính sách bảo mật để tạo tài khoản',
  googleFirstTime: 'Lần đầu đăng nhập bằng Google sẽ tạo tài khoản mới. Hãy đánh dấu đồng ý với Chính sách bảo mật rồi tiếp tục.',
  googleContinue: 'Tiếp tục với Google',
  promptTitle: 'Chính sách bảo mật đã được cập nhật',
  promptBody: 'Chúng tôi đã cập nhật Chính sách bảo mật. Vui lòng đọc và đồng ý để tiếp tục sử dụng tài khoản.',
  promptAccept: 'Tôi đồng ý',
  promptLater: 'Để sau',
  recorded: 'Đã ghi nhận sự đồng ý của bạn',
  staleVersion: 'Chính sách bảo mật vừa thay đổi, vui lòng tải lại trang',
} as const;

/** GET /api/privacy/consent (signed in). */
export interface ConsentStatus {
  currentVersion: string;
  acceptedVersion: string | null;
  acceptedAt: number | null;
  /** True while the member has not accepted the current version: the page asks once. */
  needed: boolean;
}

// ---- the privacy page's tables ----

const days = (n: number) => `${n} ngày`;

export interface PrivacyDataRow {
  id: string;
  data: string;
  purpose: string;
  kept: string;
}

/** Every kind of personal data the product keeps (worker/db/schema.ts, table by table), why and how long. */
export const PRIVACY_DATA: readonly PrivacyDataRow[] = [
  {
    id: 'account',
    data: 'Tài khoản: email, tên hiển thị, mật khẩu (chỉ lưu mã băm PBKDF2), mã tài khoản Google nếu bạn đăng nhập bằng Google, vai trò và quyền, thời điểm xác minh email, trạng thái khoá/tắt bình luận và lý do',
    purpose: 'Đăng nhập, liên lạc với bạn, kích hoạt quyền VIP, giữ an toàn cộng đồng',
    kept: 'Đến khi bạn xoá tài khoản',
  },
  {
    id: 'consent',
    data: 'Lần đồng ý Chính sách bảo mật: phiên bản, thời điểm, cách đồng ý',
    purpose: 'Chứng minh sự đồng ý của bạn theo Nghị định 356/2025/NĐ-CP',
    kept: 'Đến khi bạn xoá tài khoản',
  },
  {
    id: 'sessions',
    data: 'Phiên đăng nhập và thiết bị: mã phiên (chỉ lưu mã băm), trình duyệt (User-Agent), thời điểm đăng nhập',
    purpose: 'Giữ bạn đăng nhập; danh sách "Thiết bị" để bạn đăng xuất từ xa',
    kept: `Mỗi mã phiên bị xoá khi hết hạn, ${days(RETENTION_DAYS.session)} sau khi được cấp`,
  },
  {
    id: 'email_links',
    data: 'Liên kết gửi qua email (xác minh địa chỉ, đặt lại mật khẩu): mã băm và địa chỉ email',
    purpose: 'Xác minh email, khôi phục mật khẩu',
    kept: `${days(RETENTION_DAYS.emailLink)} sau khi được dùng hoặc hết hạn`,
  },
  {
    id: 'passkeys',
    data: 'Passkey: mã khoá, khoá công khai (không có khoá bí mật), tên bạn đặt, lần dùng gần nhất',
    purpose: 'Đăng nhập không cần mật khẩu',
    kept: 'Đến khi bạn gỡ passkey hoặc xoá tài khoản; thử thách đăng nhập bị xoá khi hết hạn (vài phút)',
  },
  {
    id: 'push',
    data: 'Đăng ký thông báo đẩy: địa chỉ nhận (endpoint) của trình duyệt và khoá mã hoá',
    purpose: 'Báo tập phim mới, nhắc gói VIP sắp hết hạn',
    kept: 'Đến khi bạn tắt thông báo, hoặc dịch vụ đẩy báo địa chỉ không còn dùng được',
  },
  {
    id: 'history',
    data: 'Lịch sử xem và vị trí đang xem: phim, tập, giây đang xem, thời điểm',
    purpose: 'Xem tiếp, mục "Lịch sử"',
    kept: `${days(RETENTION_DAYS.watchHistory)} kể từ lần xem gần nhất của mỗi tập; bạn có thể xoá bất cứ lúc nào`,
  },
  {
    id: 'library',
    data: 'Tủ phim (danh sách muốn xem) và đánh giá sao của bạn',
    purpose: 'Lưu phim bạn chọn, điểm đánh giá chung của phim',
    kept: 'Đến khi bạn bỏ phim/đánh giá hoặc xoá tài khoản',
  },
  {
    id: 'comments',
    data: 'Bình luận (kể cả bản gốc của bình luận bị che từ ngữ), báo cáo bình luận bạn gửi, danh sách người bạn đã ẩn',
    purpose: 'Hiển thị thảo luận, kiểm duyệt',
    kept: 'Đến khi bình luận bị xoá hoặc bạn xoá tài khoản',
  },
  {
    id: 'error_reports',
    data: 'Báo lỗi phim: phim, tập, lý do, lời nhắn, tài khoản gửi',
    purpose: 'Sửa link phim hỏng',
    kept: 'Đến khi quản trị viên xoá báo lỗi',
  },
  {
    id: 'orders',
    data: 'Đơn hàng và gói VIP: gói, số tháng, số tiền, phương thức, mã giao dịch của cổng thanh toán, kết quả cổng gửi về (nguyên văn)',
    purpose: 'Kích hoạt gói VIP, hỗ trợ khi có sự cố thanh toán, đối soát kế toán',
    kept: 'Lưu lâu dài: chứng từ kế toán phải giữ tối thiểu 10 năm (Luật Kế toán 2015)',
  },
  {
    id: 'bank_transfers',
    data: 'Thông báo chuyển khoản từ SePay: nội dung chuyển khoản, số tài khoản, ngân hàng, số tiền, mã tham chiếu (nguyên văn)',
    purpose: 'Tự xác nhận đơn chuyển khoản, đối soát',
    kept: 'Lưu lâu dài: chứng từ kế toán phải giữ tối thiểu 10 năm',
  },
  {
    id: 'mail',
    data: 'Thư gửi cho bạn: địa chỉ, tên, loại thư (nội dung liên kết được mã hoá và xoá ngay khi gửi)',
    purpose: 'Gửi thư xác minh, đặt lại mật khẩu, biên nhận, nhắc gia hạn',
    kept: `Thư đã gửi: ${days(RETENTION_DAYS.mailSent)}; thư không gửi được: ${days(RETENTION_DAYS.mailFailed)}`,
  },
  {
    id: 'rate_limits',
    data: 'Bộ đếm chống lạm dụng: khoá chứa địa chỉ IP hoặc email (ví dụ số lần đăng nhập sai)',
    purpose: 'Chặn dò mật khẩu, spam đăng ký',
    kept: `${days(RETENTION_DAYS.rateLimits)}`,
  },
  {
    id: 'ip',
    data: 'Địa chỉ IP: không ghi nhật ký truy cập; chỉ nằm trong bộ đếm chống lạm dụng và được gửi cho VNPay khi bạn thanh toán qua VNPay',
    purpose: 'Chống lạm dụng; VNPay yêu cầu để chống gian lận',
    kept: `${days(RETENTION_DAYS.rateLimits)} (bộ đếm)`,
  },
  {
    id: 'view_events',
    data: 'Lượt xem ẩn danh: phim và thời điểm, không gắn với tài khoản',
    purpose: 'Danh sách phim thịnh hành',
    kept: `${days(RETENTION_DAYS.viewEvents)}`,
  },
  {
    id: 'audit',
    data: 'Nhật ký quản trị: email quản trị viên, thao tác và trạng thái trước/sau (ví dụ khoá tài khoản, xác nhận thanh toán)',
    purpose: 'Truy vết và hoàn tác thao tác quản trị',
    kept: 'Lưu lâu dài',
  },
  {
    id: 'privacy_requests',
    data: 'Yêu cầu về dữ liệu cá nhân bạn gửi qua biểu mẫu: email, loại yêu cầu, nội dung',
    purpose: 'Xử lý yêu cầu đúng hạn và chứng minh đã xử lý',
    kept: 'Lưu lâu dài',
  },
  {
    id: 'device',
    data: 'Trên thiết bị của bạn (không gửi lên máy chủ): lịch sử xem gần đây, danh sách tải về và các tập đã tải, thay đổi tủ phim chờ đồng bộ',
    purpose: 'Xem tiếp và xem ngoại tuyến',
    kept: 'Đến khi bạn xoá dữ liệu trang web trên trình duyệt',
  },
];

export interface PrivacyProcessor {
  name: string;
  role: string;
  data: string;
}

/** Who processes personal data for PhimViet. */
export const PRIVACY_PROCESSORS: readonly PrivacyProcessor[] = [
  {
    name: 'VNPay',
    role: 'Cổng thanh toán thẻ/tài khoản ngân hàng',
    data: 'Mã đơn hàng, số tiền, nội dung đơn, địa chỉ IP; thông tin thẻ do VNPay xử lý, PhimViet không nhận',
  },
  { name: 'MoMo', role: 'Ví điện tử', data: 'Mã đơn hàng, số tiền, nội dung đơn; thông tin ví do MoMo xử lý' },
  { name: 'SePay', role: 'Báo giao dịch chuyển khoản ngân hàng', data: 'Nội dung chuyển khoản, số tiền, số tài khoản, ngân hàng' },
  { name: 'Dịch vụ gửi email (SMTP hoặc Resend)', role: 'Gửi thư', data: 'Địa chỉ email, tên, nội dung thư' },
  { name: 'Cloudflare', role: 'Máy chủ chạy trang web và API', data: 'Mọi yêu cầu từ trình duyệt, gồm địa chỉ IP' },
  { name: 'Turso', role: 'Lưu trữ cơ sở dữ liệu', data: 'Toàn bộ dữ liệu trong bảng trên' },
  { name: 'Google', role: 'Đăng nhập bằng Google', data: 'Google cho chúng tôi biết email, tên và mã tài khoản Google của bạn' },
];

/** Acknowledge a request within this many working days (Decree 356/2025/ND-CP). */
export const ACKNOWLEDGE_WORKING_DAYS = 2;
/** Settle a withdrawal, restriction, objection or correction within this many days (20 when a processor is involved). */
export const SETTLE_DAYS = 15;
export const SETTLE_DAYS_WITH_PROCESSORS = 20;
/** A breach is reported to the authority within this many hours. */
export const BREACH_NOTICE_HOURS = 72;

export interface PrivacyRight {
  right: string;
  how: string;
  /** A page of the product that does it, when there is one. */
  link?: { to: string; text: string };
  deadline: string;
}

const formDeadline = `Xác nhận trong ${ACKNOWLEDGE_WORKING_DAYS} ngày làm việc; xử lý trong ${SETTLE_DAYS} ngày (${SETTLE_DAYS_WITH_PROCESSORS} ngày khi cần bên xử lý khác), gia hạn tối đa một lần 15 ngày`;

export const PRIVACY_RIGHTS: readonly PrivacyRight[] = [
  {
    right: 'Xoá dữ liệu',
    how: 'Tự xoá tài khoản; đơn hàng được giữ lại không kèm thông tin của bạn theo Luật Kế toán',
    link: { to: '/xoa-tai-khoan', text: 'Xóa tài khoản' },
    deadline: 'Bắt đầu ngay khi bạn yêu cầu',
  },
  {
    right: 'Nhận bản sao dữ liệu',
    how: 'Tải một tệp JSON chứa dữ liệu của bạn trong trang Tài khoản',
    link: { to: '/account', text: 'Tải dữ liệu của tôi' },
    deadline: 'Ngay lập tức',
  },
  {
    right: 'Xem và sửa dữ liệu',
    how: 'Xem và đổi email, mật khẩu, thiết bị, passkey trong trang Tài khoản; yêu cầu sửa khác qua biểu mẫu bên dưới',
    link: { to: '/account', text: 'Tài khoản' },
    deadline: formDeadline,
  },
  { right: 'Rút lại sự đồng ý', how: 'Gửi biểu mẫu bên dưới', deadline: formDeadline },
  { right: 'Hạn chế xử lý', how: 'Gửi biểu mẫu bên dưới', deadline: formDeadline },
  { right: 'Phản đối xử lý', how: 'Gửi biểu mẫu bên dưới', deadline: formDeadline },
  {
    right: 'Được thông báo khi có sự cố',
    how: 'Khi dữ liệu bị lộ, chúng tôi báo cơ quan chức năng (Bộ Công an, A05) và báo cho bạn',
    deadline: `Trong ${BREACH_NOTICE_HOURS} giờ kể từ khi phát hiện`,
  },
];

export const PRIVACY_PAGE_TEXTS = {
  dataHeading: 'Dữ liệu chúng tôi lưu',
  dataColumns: ['Dữ liệu', 'Mục đích', 'Thời gian lưu'] as const,
  processorsHeading: 'Bên xử lý dữ liệu',
  processorColumns: ['Bên xử lý', 'Vai trò', 'Dữ liệu nhận'] as const,
  rightsHeading: 'Quyền của bạn',
  rightColumns: ['Quyền', 'Cách thực hiện', 'Thời hạn'] as const,
  version: (v: string) => `Phiên bản chính sách: ${v}`,
  requestHeading: 'Gửi yêu cầu về dữ liệu cá nhân',
  requestKind: 'Loại yêu cầu',
  requestEmail: 'Email liên hệ',
  requestMessage: 'Nội dung yêu cầu',
  requestSubmit: 'Gửi yêu cầu',
  requestSent: (ackBy: string) => `Đã nhận yêu cầu. Chúng tôi sẽ xác nhận trước ngày ${ackBy}.`,
} as const;

// ---- data-subject requests (the form; the back office's list) ----

export const PRIVACY_REQUEST_KINDS = ['correct', 'restrict', 'object', 'withdraw', 'other'] as const;
export type PrivacyRequestKind = (typeof PRIVACY_REQUEST_KINDS)[number];
export const PRIVACY_REQUEST_KIND_TEXT: Record<PrivacyRequestKind, string> = {
  correct: 'Sửa dữ liệu',
  restrict: 'Hạn chế xử lý',
  object: 'Phản đối xử lý',
  withdraw: 'Rút lại sự đồng ý',
  other: 'Yêu cầu khác',
};

export const PRIVACY_REQUEST_STATUSES = ['new', 'acknowledged', 'done'] as const;
export type PrivacyRequestStatus = (typeof PRIVACY_REQUEST_STATUSES)[number];
export const PRIVACY_REQUEST_STATUS_TEXT: Record<PrivacyRequestStatus, string> = {
  new: 'Mới',
  acknowledged: 'Đã xác nhận',
  done: 'Đã xử lý',
};

export const PRIVACY_REQUEST_MESSAGE_MAX = 2000;

export interface PrivacyRequestReceipt {
  id: number;
  acknowledgeBy: number;
  dueAt: number;
}

export interface AdminPrivacyRequest {
  id: number;
  userId: number | null;
  email: string;
  kind: PrivacyRequestKind;
  message: string;
  status: PrivacyRequestStatus;
  createdAt: number;
  acknowledgeBy: number;
  dueAt: number;
  acknowledgedAt: number | null;
  doneAt: number | null;
}

export interface AdminPrivacyRequestsResponse {
  data: AdminPrivacyRequest[];
}
