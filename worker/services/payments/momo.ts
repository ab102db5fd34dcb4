// MoMo v2 captureWallet (docs/decisions/0400-payments.md): create request, IPN and redirect signatures.
import { constantTimeEqual, hmacHex } from './signing';

export interface MomoConfig {
  partnerCode: string;
  accessKey: string;
  secretKey: string;
  endpoint: string;
}

export interface MomoCreateRequest {
  partnerCode: string;
  requestId: string;
  amount: number;
  orderId: string;
  orderInfo: string;
  redirectUrl: string;
  ipnUrl: string;
  extraData: string;
  requestType: 'captureWallet';
  signature: string;
  lang: 'vi' | 'en';
}

/** The IPN body (and the redirect query) MoMo sends back. */
export interface MomoResult {
  partnerCode: string;
  orderId: string;
  requestId: string;
  amount: number | string;
  orderInfo: string;
  orderType: string;
  transId: number | string;
  resultCode: number | string;
  message: string;
  payType: string;
  responseTime: number | string;
  extraData: string;
  signature: string;
}

/** accessKey=…&amount=…&extraData=…&ipnUrl=…&orderId=…&orderInfo=…&partnerCode=…&redirectUrl=…&requestId=…&requestType=… (raw values). */
export function momoCreateSignData(accessKey: string, r: Omit<MomoCreateRequest, 'signature' | 'lang'>): string {
  return (
    `accessKey=${accessKey}&amount=${r.amount}&extraData=${r.extraData}&ipnUrl=${r.ipnUrl}&orderId=${r.orderId}` +
    `&orderInfo=${r.orderInfo}&partnerCode=${r.partnerCode}&redirectUrl=${r.redirectUrl}&requestId=${r.requestId}&requestType=${r.requestType}`
  );
}

/** accessKey, amount, extraData, message, orderId, orderInfo, orderType, partnerCode, payType, requestId, responseTime, resultCode, transId. */
export function momoResultSignData(accessKey: string, r: Omit<MomoResult, 'signature'>): string {
  return (
    `accessKey=${accessKey}&amount=${r.amount}&extraData=${r.extraData}&message=${r.message}&orderId=${r.orderId}` +
    `&orderInfo=${r.orderInfo}&orderType=${r.orderType}&partnerCode=${r.partnerCode}&payType=${r.payType}` +
    `&requestId=${r.requestId}&responseTime=${r.responseTime}&resultCode=${r.resultCode}&transId=${r.transId}`
  );
}

export async function momoCreateRequest(
  config: MomoConfig,
  input: { orderId: string; amount: number; orderInfo: string; redirectUrl: string; ipnUrl: string },
): Promise<MomoCreateRequest> {
  const unsigned = {
    partnerCode: config.partnerCode,
    requestId: input.orderId,
    amount: input.amount,
    orderId: input.orderId,
    orderInfo: input.orderInfo,
    redirectUrl: input.redirectUrl,
    ipnUrl: input.ipnUrl,
    extraData: '',
    requestType: 'captureWallet' as const,
  };
  const signature = await hmacHex('SHA-256', config.secretKey, momoCreateSignData(config.accessKey, unsigned));
  return { ...unsigned, signature, lang: 'vi' };
}

export const momoSignResult = (config: Pick<MomoConfig, 'accessKey' | 'secretKey'>, r: Omit<MomoResult, 'signature'>) =>
  hmacHex('SHA-256', config.secretKey, momoResultSignData(config.accessKey, r));

export async function momoVerifyResult(config: Pick<MomoConfig, 'accessKey' | 'secretKey'>, r: MomoResult): Promise<boolean> {
  if (typeof r.signature !== 'string' || !r.signature) return false;
  return constantTimeEqual(await momoSignResult(config, r), r.signature);
}

export const MOMO_PAID_CODES = new Set([0, 9000]);
/** Not final: the payment is still being processed or awaits the user's confirmation. */
export const MOMO_PENDING_CODES = new Set([1000, 7000, 7002]);

// ---- the v2 query API: asking MoMo about an order whose IPN never came (docs/decisions/1051) ----

export interface MomoQueryRequest {
  partnerCode: string;
  requestId: string;
  orderId: string;
  lang: 'vi' | 'en';
  signature: string;
}

/** accessKey=…&orderId=…&partnerCode=…&requestId=… (raw values), HMAC-SHA256. */
export const momoQuerySignData = (accessKey: string, r: Pick<MomoQueryRequest, 'orderId' | 'partnerCode' | 'requestId'>): string =>
  `accessKey=${accessKey}&orderId=${r.orderId}&partnerCode=${r.partnerCode}&requestId=${r.requestId}`;

export async function momoQueryRequest(
  config: Pick<MomoConfig, 'partnerCode' | 'accessKey' | 'secretKey'>,
  input: { orderId: string; requestId: string },
): Promise<MomoQueryRequest> {
  const unsigned = { partnerCode: config.partnerCode, requestId: input.requestId, orderId: input.orderId };
  const signature = await hmacHex('SHA-256', config.secretKey, momoQuerySignData(config.accessKey, unsigned));
  return { ...unsigned, lang: 'vi', signature };
}

/** The query endpoint next to the create endpoint (…/v2/gateway/api/create → …/v2/gateway/api/query). */
export const momoQueryEndpoint = (createEndpoint: string): string => createEndpoint.replace(/\/create\/?$/, '/query');
