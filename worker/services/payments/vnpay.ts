// VNPay 2.1.0 (docs/decisions/0400-payments.md): the payment URL and the verification of what comes back.
import { constantTimeEqual, hmacHex } from './signing';

export interface VnpayConfig {
  tmnCode: string;
  hashSecret: string;
  url: string;
}

export interface VnpayPaymentInput {
  txnRef: string;
  /** True VND amount; vnp_Amount carries it × 100. */
  amount: number;
  orderInfo: string;
  returnUrl: string;
  ipAddr: string;
  /** Unix ms. */
  now: number;
}

const GMT7_MS = 7 * 60 * 60 * 1000;
const EXPIRY_MS = 15 * 60 * 1000;

/** yyyyMMddHHmmss on the GMT+7 wall clock, as VNPay expects for vnp_CreateDate / vnp_ExpireDate. */
export function vnpayDate(ms: number): string {
  const d = new Date(ms + GMT7_MS);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

/** VNPay rejects anything but ASCII letters, digits, space and `:_.-` in vnp_OrderInfo. */
export function asciiOrderInfo(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D')
    .replace(/[^A-Za-z0-9 :_.-]/g, '')
    .slice(0, 255);
}

/**
 * The string VNPay hashes: every non-empty vnp_* parameter except the hash itself, keys sorted
 * ascending, form-encoded as URLSearchParams does (space → '+').
 */
export function vnpaySignData(params: Record<string, string>): string {
  const keys = Object.keys(params)
    .filter((k) => k.startsWith('vnp_') && k !== 'vnp_SecureHash' && k !== 'vnp_SecureHashType' && params[k] !== '')
    .sort();
  const search = new URLSearchParams();
  for (const key of keys) search.append(key, params[key] as string);
  return search.toString();
}

export const vnpaySign = (hashSecret: string, params: Record<string, string>): Promise<string> =>
  hmacHex('SHA-512', hashSecret, vnpaySignData(params));

/** True when vnp_SecureHash matches the other (decoded) parameters. */
export async function vnpayVerify(hashSecret: string, params: Record<string, string>): Promise<boolean> {
  const given = params.vnp_SecureHash;
  if (!given) return false;
  return constantTimeEqual(await vnpaySign(hashSecret, params), given);
}

/** The signed URL the browser is sent to. */
export async function vnpayPaymentUrl(config: VnpayConfig, input: VnpayPaymentInput): Promise<string> {
  const params: Record<string, string> = {
    vnp_Version: '2.1.0',
    vnp_Command: 'pay',
    vnp_TmnCode: config.tmnCode,
    vnp_Amount: String(input.amount * 100),
    vnp_CurrCode: 'VND',
    vnp_TxnRef: input.txnRef,
    vnp_OrderInfo: asciiOrderInfo(input.orderInfo),
    vnp_OrderType: 'other',
    vnp_Locale: 'vn',
    vnp_ReturnUrl: input.returnUrl,
    vnp_IpAddr: input.ipAddr,
    vnp_CreateDate: vnpayDate(input.now),
    vnp_ExpireDate: vnpayDate(input.now + EXPIRY_MS),
  };
  const data = vnpaySignData(params);
  const hash = await hmacHex('SHA-512', config.hashSecret, data);
  const url = new URL(config.url);
  url.search = `${data}&vnp_SecureHash=${hash}`;
  return url.toString();
}

/** VNPay's vnp_ResponseCode meanings the user may see (the common ones). */
export const VNPAY_RESPONSE_TEXTS: Record<string, string> = {
  '00': 'Giao dịch thành công',
  '07': 'Giao dịch bị nghi ngờ gian lận',
  '09': 'Thẻ/Tài khoản chưa đăng ký dịch vụ InternetBanking',
  '10': 'Xác thực thông tin thẻ/tài khoản không đúng quá 3 lần',
  '11': 'Đã hết hạn chờ thanh toán',
  '12': 'Thẻ/Tài khoản bị khóa',
  '13': 'Nhập sai mật khẩu xác thực giao dịch (OTP)',
  '24': 'Khách hàng hủy giao dịch',
  '51': 'Tài khoản không đủ số dư',
  '65': 'Tài khoản đã vượt quá hạn mức giao dịch trong ngày',
  '75': 'Ngân hàng thanh toán đang bảo trì',
  '79': 'Nhập sai mật khẩu thanh toán quá số lần quy định',
};

// ---- querydr: asking VNPay about an order whose IPN never came (docs/decisions/1051) ----

export interface VnpayQueryInput {
  /** Unique per request (at most 32 characters). */
  requestId: string;
  txnRef: string;
  /** Unix ms the payment was created: its vnp_CreateDate is the query's vnp_TransactionDate. */
  transactionAt: number;
  ipAddr: string;
  orderInfo: string;
  now: number;
}

export type VnpayQueryRequest = Record<
  | 'vnp_RequestId'
  | 'vnp_Version'
  | 'vnp_Command'
  | 'vnp_TmnCode'
  | 'vnp_TxnRef'
  | 'vnp_OrderInfo'
  | 'vnp_TransactionDate'
  | 'vnp_CreateDate'
  | 'vnp_IpAddr'
  | 'vnp_SecureHash',
  string
>;

/** What querydr's hash covers, in VNPay's order, joined by '|'. */
export const vnpayQuerySignData = (r: Omit<VnpayQueryRequest, 'vnp_SecureHash'>): string =>
  [
    r.vnp_RequestId,
    r.vnp_Version,
    r.vnp_Command,
    r.vnp_TmnCode,
    r.vnp_TxnRef,
    r.vnp_TransactionDate,
    r.vnp_CreateDate,
    r.vnp_IpAddr,
    r.vnp_OrderInfo,
  ].join('|');

/** The JSON body POSTed to VNPay's merchant API (vnp_Command querydr, API version 2.1.0). */
export async function vnpayQueryRequest(
  config: Pick<VnpayConfig, 'tmnCode' | 'hashSecret'>,
  input: VnpayQueryInput,
): Promise<VnpayQueryRequest> {
  const unsigned = {
    vnp_RequestId: input.requestId,
    vnp_Version: '2.1.0',
    vnp_Command: 'querydr',
    vnp_TmnCode: config.tmnCode,
    vnp_TxnRef: input.txnRef,
    vnp_OrderInfo: asciiOrderInfo(input.orderInfo),
    vnp_TransactionDate: vnpayDate(input.transactionAt),
    vnp_CreateDate: vnpayDate(input.now),
    vnp_IpAddr: input.ipAddr,
  };
  return { ...unsigned, vnp_SecureHash: await hmacHex('SHA-512', config.hashSecret, vnpayQuerySignData(unsigned)) };
}

/** The fields of querydr's answer its vnp_SecureHash covers, in VNPay's order (absent ones count as empty). */
export const VNPAY_QUERY_RESPONSE_FIELDS = [
  'vnp_ResponseId',
  'vnp_Command',
  'vnp_ResponseCode',
  'vnp_Message',
  'vnp_TmnCode',
  'vnp_TxnRef',
  'vnp_Amount',
  'vnp_BankCode',
  'vnp_PayDate',
  'vnp_TransactionNo',
  'vnp_TransactionType',
  'vnp_TransactionStatus',
  'vnp_OrderInfo',
  'vnp_PromotionCode',
  'vnp_PromotionAmount',
] as const;

export const vnpayQueryResponseSignData = (answer: Record<string, unknown>): string =>
  VNPAY_QUERY_RESPONSE_FIELDS.map((k) => (answer[k] === undefined || answer[k] === null ? '' : String(answer[k]))).join('|');

/** True when querydr's answer carries a vnp_SecureHash that matches its fields. */
export async function vnpayVerifyQueryResponse(hashSecret: string, answer: Record<string, unknown>): Promise<boolean> {
  const given = answer.vnp_SecureHash;
  if (typeof given !== 'string' || !given) return false;
  return constantTimeEqual(await hmacHex('SHA-512', hashSecret, vnpayQueryResponseSignData(answer)), given);
}

/** querydr's vnp_TransactionStatus: 00 paid, 01 not finished yet, 02 failed; the others (reversal, refund, fraud review) are left to a person. */
export const VNPAY_TRANSACTION_PAID = '00';
export const VNPAY_TRANSACTION_PENDING = '01';
export const VNPAY_TRANSACTION_FAILED = '02';
