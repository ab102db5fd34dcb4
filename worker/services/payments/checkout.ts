// The payment flows: start an order with a gateway or by bank transfer, take the gateway's IPN (the only
// thing that pays an order), show the return redirect, confirm a bank transfer (docs/decisions/0400-payments.md).
import type { Config } from '../../config';
import type { AppDeps } from '../../lib/context';
import { ApiError, conflict, notFound } from '../../lib/errors';
import { readSettings } from '../admin/settings';
import {
  type BankTransferResponse,
  type Gateway,
  type GatewayOrderResponse,
  type OrderStatus,
  type PaymentReturnResponse,
  PLANS,
  type PlanId,
  VIP_TEXTS,
} from '../../schemas/vip';
import { MOMO_PAID_CODES, MOMO_PENDING_CODES, type MomoConfig, type MomoResult, momoCreateRequest, momoVerifyResult } from './momo';
import { type Confirmer, createOrder, failOrder, findOrder, type OrderRow, payOrder } from './orders';
import { VNPAY_RESPONSE_TEXTS, type VnpayConfig, vnpayPaymentUrl, vnpayVerify } from './vnpay';

export type PaymentDeps = Pick<AppDeps, 'db' | 'config' | 'now' | 'fetch'>;

export interface Buyer {
  id: number;
  email: string;
  name: string;
}

const unavailable = () => new ApiError(503, 'payment_unavailable', VIP_TEXTS.gatewayUnavailable);

export function vnpayConfig(config: Config): VnpayConfig | null {
  if (!config.VNPAY_TMN_CODE || !config.VNPAY_HASH_SECRET || !config.VNPAY_URL) return null;
  return { tmnCode: config.VNPAY_TMN_CODE, hashSecret: config.VNPAY_HASH_SECRET, url: config.VNPAY_URL };
}

export function momoConfig(config: Config): MomoConfig | null {
  if (!config.MOMO_PARTNER_CODE || !config.MOMO_ACCESS_KEY || !config.MOMO_SECRET_KEY || !config.MOMO_ENDPOINT) return null;
  return {
    partnerCode: config.MOMO_PARTNER_CODE,
    accessKey: config.MOMO_ACCESS_KEY,
    secretKey: config.MOMO_SECRET_KEY,
    endpoint: config.MOMO_ENDPOINT,
  };
}

/** Never taken from the client: {PUBLIC_URL}/dang-ky-goi-vip/{plan}/payment/{gateway}-return. */
export const returnUrlOf = (config: Config, plan: PlanId, gateway: Gateway) =>
  `${config.PUBLIC_URL.replace(/\/$/, '')}/dang-ky-goi-vip/${plan}/payment/${gateway}-return`;

const orderInfoOf = (order: OrderRow) => `Thanh toan goi ${order.plan} ${order.months} thang don ${order.txnRef}`;

export async function startVnpay(
  deps: PaymentDeps,
  input: { buyer: Buyer; plan: PlanId; months: number; ipAddr: string },
): Promise<GatewayOrderResponse> {
  const config = vnpayConfig(deps.config);
  if (!config) throw unavailable();
  const now = deps.now();
  const order = await createOrder(deps.db, { userId: input.buyer.id, plan: input.plan, months: input.months, method: 'vnpay', now });
  const paymentUrl = await vnpayPaymentUrl(config, {
    txnRef: order.txnRef,
    amount: order.amount,
    orderInfo: orderInfoOf(order),
    returnUrl: returnUrlOf(deps.config, input.plan, 'vnpay'),
    // VNPay wants an IP address; behind no proxy header (tests, a local call) loopback stands in.
    ipAddr: /^[0-9a-fA-F:.]+$/.test(input.ipAddr) ? input.ipAddr : '127.0.0.1',
    now,
  });
  return { paymentUrl, orderId: order.txnRef };
}

export async function startMomo(deps: PaymentDeps, input: { buyer: Buyer; plan: PlanId; months: number }): Promise<GatewayOrderResponse> {
  const config = momoConfig(deps.config);
  if (!config) throw unavailable();
  const now = deps.now();
  const order = await createOrder(deps.db, { userId: input.buyer.id, plan: input.plan, months: input.months, method: 'momo', now });
  const request = await momoCreateRequest(config, {
    orderId: order.txnRef,
    amount: order.amount,
    orderInfo: `Thanh toán gói ${PLANS[order.plan].name} ${order.months} tháng`,
    redirectUrl: returnUrlOf(deps.config, input.plan, 'momo'),
    ipnUrl: `${deps.config.PUBLIC_URL.replace(/\/$/, '')}/api/payment/momo-ipn`,
  });
  let answer: { resultCode?: unknown; payUrl?: unknown; message?: unknown };
  try {
    const res = await deps.fetch(config.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body: JSON.stringify(request),
      signal: AbortSignal.timeout(30_000),
    });
    answer = (await res.json()) as typeof answer;
  } catch (err) {
    console.error('[payments] MoMo create failed', err);
    await failOrder(deps.db, order, { providerTxnId: null, responseCode: 'network', reason: VIP_TEXTS.gatewayError });
    throw new ApiError(502, 'payment_gateway_error', VIP_TEXTS.gatewayError);
  }
  if (Number(answer.resultCode) !== 0 || typeof answer.payUrl !== 'string' || !/^https?:\/\//.test(answer.payUrl)) {
    const reason = typeof answer.message === 'string' && answer.message ? answer.message : VIP_TEXTS.gatewayError;
    await failOrder(deps.db, order, { providerTxnId: null, responseCode: String(answer.resultCode ?? ''), reason });
    throw new ApiError(502, 'payment_gateway_error', reason);
  }
  return { paymentUrl: answer.payUrl, orderId: order.txnRef };
}

export async function startBankTransfer(
  deps: PaymentDeps,
  input: { buyer: Buyer; plan: PlanId; months: number },
): Promise<BankTransferResponse> {
  // The operator's settings page overrides the environment's account (services/admin/settings.ts).
  const { bankName, bankAccount, bankHolder, bankBin, hotline } = await readSettings(deps.db, deps.config);
  if (!bankName || !bankAccount || !bankHolder) throw unavailable();
  const order = await createOrder(deps.db, {
    userId: input.buyer.id,
    plan: input.plan,
    months: input.months,
    method: 'bank_transfer',
    now: deps.now(),
  });
  return {
    orderId: order.txnRef,
    plan: order.plan,
    planName: PLANS[order.plan].name,
    months: order.months,
    amount: order.amount,
    bank: { name: bankName, accountNumber: bankAccount, accountHolder: bankHolder, bin: bankBin || null },
    // The payment code is the whole note: short, plain ASCII, kept by every banking app (docs/decisions/0403).
    note: order.paymentCode ?? '',
    paymentCode: order.paymentCode ?? '',
    autoConfirm: !!deps.config.SEPAY_API_KEY,
    name: input.buyer.name,
    email: input.buyer.email,
    hotline,
  };
}

export interface VnpayIpnAnswer {
  RspCode: '00' | '01' | '02' | '04' | '97' | '99';
  Message: string;
}

/**
 * GET /api/payment/vnpay-ipn, checks in VNPay's order: checksum (97), order (01), amount (04), already
 * decided (02), then record the outcome (00); anything unexpected is 99. Nothing is recorded on 97.
 */
export async function handleVnpayIpn(deps: PaymentDeps, params: Record<string, string>): Promise<VnpayIpnAnswer> {
  try {
    const config = vnpayConfig(deps.config);
    if (!config || !(await vnpayVerify(config.hashSecret, params))) return { RspCode: '97', Message: 'Invalid Checksum' };
    const order = params.vnp_TxnRef ? await findOrder(deps.db, params.vnp_TxnRef) : undefined;
    if (order?.method !== 'vnpay') return { RspCode: '01', Message: 'Order not found' };
    if (params.vnp_Amount !== String(order.amount * 100)) return { RspCode: '04', Message: 'Invalid amount' };
    if (order.status !== 'pending') return { RspCode: '02', Message: 'Order already confirmed' };
    const code = params.vnp_ResponseCode ?? '';
    const outcome = {
      providerTxnId: params.vnp_TransactionNo || null,
      responseCode: code,
      reason: code === '00' ? null : (VNPAY_RESPONSE_TEXTS[code] ?? `Giao dịch không thành công (mã ${code})`),
      // VNPay's parameters as they came, kept with the order as SePay's notifications are.
      raw: JSON.stringify(params),
    };
    const success = code === '00' && params.vnp_TransactionStatus === '00';
    const result = success ? await payOrder(deps.db, order, outcome, deps.now()) : await failOrder(deps.db, order, outcome);
    if (result === 'not_pending') return { RspCode: '02', Message: 'Order already confirmed' };
    return { RspCode: '00', Message: 'Confirm Success' };
  } catch (err) {
    console.error('[payments] VNPay IPN failed', err);
    return { RspCode: '99', Message: 'Unknown error' };
  }
}

/** Reads a MoMo result (IPN body or redirect query) into the shape its signature covers. */
export function momoResultOf(input: Record<string, unknown>): MomoResult | null {
  const fields = [
    'partnerCode',
    'orderId',
    'requestId',
    'amount',
    'orderInfo',
    'orderType',
    'transId',
    'resultCode',
    'message',
    'payType',
    'responseTime',
    'extraData',
    'signature',
  ] as const;
  const out: Record<string, string | number> = {};
  for (const field of fields) {
    const value = input[field] ?? (field === 'extraData' ? '' : undefined);
    if (typeof value !== 'string' && typeof value !== 'number') return null;
    out[field] = value;
  }
  return out as unknown as MomoResult;
}

export type MomoIpnResult = 'recorded' | 'unchanged';

/** POST /api/payment/momo-ipn: signature, order, amount, then the same idempotent recording. */
export async function handleMomoIpn(deps: PaymentDeps, body: Record<string, unknown>): Promise<MomoIpnResult> {
  const config = momoConfig(deps.config);
  if (!config) throw unavailable();
  const result = momoResultOf(body);
  if (!result || !(await momoVerifyResult(config, result))) throw new ApiError(400, 'invalid_signature', 'signature: không hợp lệ');
  if (result.partnerCode !== config.partnerCode) throw new ApiError(400, 'invalid_signature', 'partnerCode: không khớp');
  const order = await findOrder(deps.db, String(result.orderId));
  if (order?.method !== 'momo') throw notFound('orderId: không tìm thấy đơn hàng');
  if (Number(result.amount) !== order.amount) throw new ApiError(400, 'invalid_amount', 'amount: không khớp với đơn hàng');
  if (order.status !== 'pending') return 'unchanged';
  const code = Number(result.resultCode);
  if (MOMO_PENDING_CODES.has(code)) return 'unchanged';
  const outcome = {
    providerTxnId: String(result.transId) || null,
    responseCode: String(code),
    reason: MOMO_PAID_CODES.has(code) ? null : result.message || `Mã lỗi ${code}`,
    raw: JSON.stringify(body),
  };
  const done = MOMO_PAID_CODES.has(code) ? await payOrder(deps.db, order, outcome, deps.now()) : await failOrder(deps.db, order, outcome);
  return done === 'not_pending' ? 'unchanged' : 'recorded';
}

const verificationFailed = () => new ApiError(400, 'invalid_signature', VIP_TEXTS.verificationFailed);

function returnAnswer(order: OrderRow, success: boolean, gatewayMessage: string): PaymentReturnResponse {
  const status: OrderStatus = order.status;
  return { message: gatewayMessage, orderId: order.txnRef, status, gatewayResult: success ? 'success' : 'failed' };
}

/** GET /api/payment/{gateway}-return: verifies the redirect and reports the order; grants nothing. */
export async function paymentReturn(deps: PaymentDeps, gateway: Gateway, query: Record<string, string>): Promise<PaymentReturnResponse> {
  if (gateway === 'vnpay') {
    const config = vnpayConfig(deps.config);
    if (!config) throw unavailable();
    if (!(await vnpayVerify(config.hashSecret, query))) throw verificationFailed();
    const order = await findOrder(deps.db, query.vnp_TxnRef ?? '');
    if (order?.method !== 'vnpay') throw notFound('vnp_TxnRef: không tìm thấy đơn hàng');
    const code = query.vnp_ResponseCode ?? '';
    const success = code === '00' && query.vnp_TransactionStatus === '00';
    return returnAnswer(order, success, VNPAY_RESPONSE_TEXTS[code] ?? `Giao dịch không thành công (mã ${code})`);
  }
  const config = momoConfig(deps.config);
  if (!config) throw unavailable();
  const result = momoResultOf(query);
  if (!result || !(await momoVerifyResult(config, result))) throw verificationFailed();
  const order = await findOrder(deps.db, String(result.orderId));
  if (order?.method !== 'momo') throw notFound('orderId: không tìm thấy đơn hàng');
  const success = MOMO_PAID_CODES.has(Number(result.resultCode));
  return returnAnswer(order, success, success ? 'Giao dịch thành công' : result.message || `Mã lỗi ${result.resultCode}`);
}

/** POST /api/admin/orders/{orderId}/confirm: the admin saw the transfer arrive. */
export async function confirmBankTransfer(deps: PaymentDeps, orderId: string, admin: Confirmer): Promise<void> {
  const order = await findOrder(deps.db, orderId);
  if (!order) throw notFound('orderId: không tìm thấy đơn hàng');
  if (order.method !== 'bank_transfer') throw conflict('Chỉ xác nhận được đơn chuyển khoản ngân hàng');
  if (order.status !== 'pending') throw conflict('Đơn hàng này đã được xử lý');
  const outcome = { providerTxnId: `admin:${admin.id}`, responseCode: 'admin', reason: null };
  const result = await payOrder(deps.db, order, outcome, deps.now(), { action: 'order.confirm', admin });
  if (result === 'not_pending') throw conflict('Đơn hàng này đã được xử lý');
}
