// Wire contract of VIP plans, orders and payments. Pure zod and types: importable by web/.
// Prices live here once; the server computes every amount it charges from plan and months.
import { z } from 'zod';

import { PLAN_IDS } from './values';

export { PLAN_IDS };
export type PlanId = (typeof PLAN_IDS)[number];

export const DURATIONS = [1, 3, 6, 12] as const;
export type Duration = (typeof DURATIONS)[number];

export const PAYMENT_METHODS = ['vnpay', 'momo', 'bank_transfer'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const GATEWAYS = ['vnpay', 'momo'] as const;
export type Gateway = (typeof GATEWAYS)[number];

export const ORDER_STATUSES = ['pending', 'paid', 'failed', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface Plan {
  id: PlanId;
  name: string;
  /** VND per month. */
  monthlyPrice: number;
  channels: string;
  description: string;
  benefits: string[];
  recommended: boolean;
  /** Plans this one also grants (VIP 2 includes VIP 1). */
  includes: PlanId[];
}

export const PLANS: Record<PlanId, Plan> = {
  VIP1: {
    id: 'VIP1',
    name: 'VIP 1',
    monthlyPrice: 69_000,
    channels: '120+ kênh',
    description: 'Xem toàn bộ phim VIP với chất lượng cao, không quảng cáo.',
    benefits: [
      'Xem mọi phim VIP',
      'Hơn 120 kênh truyền hình',
      'Chất lượng Full HD',
      'Xem trên điện thoại, máy tính và TV',
      'Tải phim về xem offline',
    ],
    recommended: false,
    includes: [],
  },
  VIP2: {
    id: 'VIP2',
    name: 'VIP 2',
    monthlyPrice: 99_000,
    channels: '150+ kênh',
    description: 'Mọi quyền lợi của VIP 1, thêm đăng tải phim và kho phim cao cấp mới nhất.',
    benefits: [
      'Mọi quyền lợi của gói VIP 1',
      'Tải phim về xem offline',
      'Hơn 150 kênh truyền hình',
      'Đăng tải phim lên PhimViet',
      'Kho phim của các kênh cao cấp mới nhất',
    ],
    recommended: true,
    includes: ['VIP1'],
  },
};

export const PLAN_LIST: Plan[] = PLAN_IDS.map((id) => PLANS[id]);

/** The true VND amount of an order, never "× 10" (docs/decisions/0400-payments.md). */
export const orderAmount = (plan: PlanId, months: number): number => PLANS[plan].monthlyPrice * months;

export const VIP_TEXTS = {
  loginRequired: 'Bạn cần đăng nhập để có thể đăng ký gói cao cấp',
  verifying: 'Verifying payment...',
  verificationFailed: 'Payment verification failed',
  validity: 'Thanh toán một lần, không tự động gia hạn',
  discount: '0 VND',
  promotions: [
    'Giảm 10% tối đa 20.000đ khi thanh toán bằng ví MoMo với mã khuyến mãi.',
    'Giảm 15% tối đa 20.000đ khi quét mã QR qua cổng VNPay với mã khuyến mãi.',
  ],
  hotlineHint: 'Nếu sau vài phút giao dịch chưa được ghi nhận, vui lòng gọi hotline',
  gatewayUnavailable: 'Phương thức thanh toán này hiện chưa được cấu hình. Vui lòng chọn phương thức khác.',
  gatewayError: 'Cổng thanh toán không phản hồi. Vui lòng thử lại sau.',
  tooManyOrders: 'Bạn đã tạo quá nhiều đơn hàng trong ít phút. Vui lòng thử lại sau.',
  bankNotificationsUnavailable: 'Chưa cấu hình nhận thông báo chuyển khoản (SEPAY_API_KEY).',
  bankNotificationKey: 'Authorization: thiếu hoặc sai API key (Apikey <key>)',
} as const;

/**
 * The short payment code of a bank transfer, the whole transfer note (docs/decisions/0403): "PV" and 8
 * characters of an alphabet without look-alikes (no 0/O, 1/I/L), upper case and digits only, 10 in all,
 * within VietQR's 19 characters and the 25 of EMVCo's purpose field.
 */
export const PAYMENT_CODE_PREFIX = 'PV';
export const PAYMENT_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const PAYMENT_CODE_RANDOM_LENGTH = 8;
export const PAYMENT_CODE_PATTERN = new RegExp(`^${PAYMENT_CODE_PREFIX}[${PAYMENT_CODE_ALPHABET}]{${PAYMENT_CODE_RANDOM_LENGTH}}$`);

export const METHOD_LABELS: Record<PaymentMethod, string> = {
  vnpay: 'VNPay (thẻ ATM, QR ngân hàng)',
  momo: 'Ví MoMo',
  bank_transfer: 'Chuyển khoản ngân hàng',
};

export const STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Đang chờ thanh toán',
  paid: 'Đã thanh toán',
  failed: 'Thất bại',
  cancelled: 'Đã hủy',
};

/**
 * POST /api/product/{vnpay|momo|bank_transfer}. The spec's amount, orderInfo, returnUrl and ipAddr are
 * accepted and ignored: the server prices the order and builds the return URL itself.
 */
export const createOrderBodySchema = z.object({
  plan: z.enum(PLAN_IDS, { message: 'phải là VIP1 hoặc VIP2' }),
  months: z.coerce
    .number({ message: 'phải là 1, 3, 6 hoặc 12' })
    .int()
    .refine((m): m is Duration => (DURATIONS as readonly number[]).includes(m), 'phải là 1, 3, 6 hoặc 12'),
  amount: z.unknown().optional(),
  orderInfo: z.unknown().optional(),
  returnUrl: z.unknown().optional(),
  ipAddr: z.unknown().optional(),
});
export type CreateOrderBody = z.infer<typeof createOrderBodySchema>;

/** Order ids are 32 lowercase hex characters (128 random bits). */
export const orderIdSchema = z.string().regex(/^[0-9a-f]{32}$/, 'mã đơn hàng không hợp lệ');
export const orderIdParamSchema = z.object({ orderId: orderIdSchema });

/**
 * POST /api/payment/sepay-webhook: SePay's transaction notification as SePay documents it. Only what the
 * matching reads is required; the rest is kept raw. Strings may be null where banks leave them empty.
 */
const optionalText = z.string({ message: 'phải là chuỗi' }).max(2_000, 'quá dài').nullish();
export const sepayWebhookSchema = z.object({
  id: z.number({ message: 'phải là số' }).int('phải là số nguyên').nonnegative('phải là số không âm'),
  gateway: z.string({ message: 'phải là chuỗi' }).max(200, 'quá dài'),
  transactionDate: z.string({ message: 'phải là chuỗi' }).max(40, 'quá dài'),
  accountNumber: z.string({ message: 'phải là chuỗi' }).max(40, 'quá dài'),
  code: z.string({ message: 'phải là chuỗi hoặc null' }).max(100, 'quá dài').nullable(),
  content: z.string({ message: 'phải là chuỗi' }).max(2_000, 'quá dài'),
  transferType: z.enum(['in', 'out'], { message: 'phải là "in" hoặc "out"' }),
  transferAmount: z.number({ message: 'phải là số' }).int('phải là số nguyên (VND)').nonnegative('phải là số không âm'),
  accumulated: z.number({ message: 'phải là số' }).nullish(),
  subAccount: optionalText,
  referenceCode: z.string({ message: 'phải là chuỗi' }).max(200, 'quá dài'),
  description: optionalText,
});
export type SepayNotification = z.infer<typeof sepayWebhookSchema>;

export const BANK_TRANSACTION_STATUSES = ['received', 'matched', 'unmatched', 'ignored', 'attached', 'dismissed'] as const;
export type BankTransactionStatus = (typeof BANK_TRANSACTION_STATUSES)[number];

export const BANK_TRANSACTION_REASONS = {
  no_code: 'Nội dung không có mã thanh toán',
  unknown_code: 'Mã thanh toán không thuộc đơn nào',
  amount_mismatch: 'Số tiền không khớp với đơn hàng',
  order_not_pending: 'Đơn hàng không còn chờ thanh toán (đã hết hạn, đã hủy hoặc đã thanh toán)',
  money_out: 'Tiền ra',
  other_account: 'Tài khoản khác',
} as const;
export type BankTransactionReason = keyof typeof BANK_TRANSACTION_REASONS;

export const adminBankTransactionsQuerySchema = z.object({
  status: z.preprocess(
    (v) => (v === '' || v === undefined ? 'unmatched' : v),
    z.enum(BANK_TRANSACTION_STATUSES, { message: 'phải là received, matched, unmatched, ignored, attached hoặc dismissed' }),
  ),
  page: z.coerce.number({ message: 'phải là số trang' }).int().min(1, 'phải từ 1').max(10_000).default(1),
});
export const bankTransactionIdParamSchema = z.object({
  id: z.coerce.number({ message: 'phải là số' }).int('phải là số nguyên').positive('phải là số dương'),
});
/** Attach: the order by its id or by its payment code. */
export const attachBankTransactionBodySchema = z.object({
  orderId: z
    .string({ message: 'phải là mã đơn hàng hoặc mã thanh toán' })
    .trim()
    .transform((v) => (/^[0-9a-fA-F]{32}$/.test(v) ? v.toLowerCase() : v.toUpperCase()))
    .refine((v) => /^[0-9a-f]{32}$/.test(v) || PAYMENT_CODE_PATTERN.test(v), 'phải là mã đơn hàng hoặc mã thanh toán'),
});
export const dismissBankTransactionBodySchema = z.object({
  reason: z.string({ message: 'phải nhập lý do' }).trim().min(3, 'phải nhập lý do (ít nhất 3 ký tự)').max(500, 'tối đa 500 ký tự'),
});

export interface AdminBankTransaction {
  id: number;
  providerId: string;
  gateway: string;
  transactionDate: string;
  accountNumber: string;
  content: string;
  code: string | null;
  transferType: 'in' | 'out';
  amount: number;
  referenceCode: string;
  status: BankTransactionStatus;
  reason: BankTransactionReason | null;
  /** The payment code read from the note and its order, when there is one. */
  matchedCode: string | null;
  order: { orderId: string; paymentCode: string | null; amount: number; status: OrderStatus; userEmail: string } | null;
  receivedAt: number;
  resolvedBy: { id: number | null; email: string } | null;
  resolvedAt: number | null;
  resolution: string | null;
}

export interface AdminBankTransactionsResponse {
  data: AdminBankTransaction[];
  pagination: { page: number; pageSize: number; totalItems: number; totalPages: number };
}

export const adminOrdersQuerySchema = z.object({
  status: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(ORDER_STATUSES, { message: 'phải là pending, paid, failed hoặc cancelled' }).optional(),
  ),
  method: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.enum(PAYMENT_METHODS, { message: 'phải là vnpay, momo hoặc bank_transfer' }).optional(),
  ),
  page: z.coerce.number({ message: 'phải là số trang' }).int().min(1, 'phải từ 1').max(10_000).default(1),
});

export interface GatewayOrderResponse {
  paymentUrl: string;
  orderId: string;
}

export interface BankTransferResponse {
  orderId: string;
  plan: PlanId;
  planName: string;
  months: number;
  amount: number;
  /** `bin`: the bank's NAPAS BIN for the VietQR code (null when the operator has not configured it). */
  bank: { name: string; accountNumber: string; accountHolder: string; bin: string | null };
  /** The transfer note: the order's payment code, to be kept as the whole note (docs/decisions/0403). */
  note: string;
  paymentCode: string;
  /** True when bank notifications (SePay) confirm the transfer by themselves; false: an admin confirms by hand. */
  autoConfirm: boolean;
  name: string;
  email: string;
  hotline: string;
}

export interface Order {
  orderId: string;
  plan: PlanId;
  months: number;
  amount: number;
  method: PaymentMethod;
  status: OrderStatus;
  /** The gateway's transaction number once known. */
  transactionNo: string | null;
  /** Why a gateway order failed, in words for the user (null otherwise). */
  reason: string | null;
  /** Bank transfers: the payment code of the transfer note (null for gateway orders). */
  paymentCode: string | null;
  createdAt: number;
  paidAt: number | null;
  /** When paid: the plan's expiry right now (may be later than this order's own months). */
  expiresAt: number | null;
}

export interface AdminOrder extends Order {
  /** Null (and the email and name empty) for an erased member's order, kept without the person. */
  userId: number | null;
  userEmail: string;
  userName: string;
  /** The admin who confirmed a bank transfer (paidAt is when); null for gateway orders and unconfirmed ones. */
  confirmedBy: { id: number | null; email: string } | null;
  /** Only a pending bank transfer can be confirmed by an admin. */
  confirmable: boolean;
}

export interface AdminOrdersResponse {
  data: AdminOrder[];
  pagination: { page: number; pageSize: number; totalItems: number; totalPages: number };
}

/** GET /api/payment/{gateway}-return: display only; the order is decided by the IPN. */
export interface PaymentReturnResponse {
  message: string;
  orderId: string;
  status: OrderStatus;
  /** What the gateway said on the redirect (the IPN may not have arrived yet). */
  gatewayResult: 'success' | 'failed';
}

export interface Subscription {
  plan: PlanId;
  expiresAt: number;
}

/** Added to GET /api/account: the active subscriptions, highest plan first. */
export interface AccountSubscription {
  subscription: Subscription | null;
  subscriptions: Subscription[];
}
