// Local stand-ins for VNPay 2.1.0 and MoMo v2 (captureWallet) on loopback, so the demo takes a payment
// offline (docs/decisions/0400-payments.md). Each verifies our signed request, shows a payment page with
// "Thanh toán" and "Hủy", calls our IPN with a correctly signed result (before redirecting, as the real
// gateways do), then sends the browser to the return URL with the signed result query. The signatures
// here are written with node:crypto from the published rules, independently of worker/services/payments.
// A bank ("Ngân hàng mô phỏng", /bank) lets a tester transfer an amount with a note to the demo account;
// it then posts SePay's transaction notification to our webhook with the API key, retrying on failure as
// SePay does (docs/decisions/0403-bank-notifications.md).
// Both gateways also answer the merchant's status queries (docs/decisions/1051): VNPay's querydr at
// /merchant_webapi/api/transaction (pipe-joined HMAC-SHA512 both ways) and MoMo's /momo/v2/gateway/api/query
// (HMAC-SHA256 request signature), from what was paid or cancelled on their pages, whether or not the IPN arrived.
import { createHmac, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml } from '../worker/lib/html';

export interface PaymentStandinOptions {
  port?: number;
  host?: string;
  /** Where our API lives: the VNPay IPN URL is {publicUrl}/api/payment/vnpay-ipn (set in VNPay's merchant portal). */
  publicUrl: string;
  vnpay: { tmnCode: string; hashSecret: string };
  momo: { partnerCode: string; accessKey: string; secretKey: string };
  /** The bank stand-in: the account it credits and the key SePay would send (no bank page without it). */
  sepay?: { apiKey: string; accountNumber: string; bankName: string; retryDelaysMs?: number[] };
  log?: (line: string) => void;
  /**
   * The inbox at /mail: the local mail catcher's (demo/mail-catcher.ts), or, when SMTP_URL sends mail
   * elsewhere, a page that says where it goes.
   */
  mail?: { handle: (req: IncomingMessage, res: ServerResponse, url: URL) => boolean } | { elsewhere: string };
}

export interface PaymentStandins {
  url: string;
  close: () => Promise<void>;
}

interface MomoPending {
  partnerCode: string;
  orderId: string;
  requestId: string;
  amount: number;
  orderInfo: string;
  redirectUrl: string;
  ipnUrl: string;
  extraData: string;
}

const hmac = (alg: 'sha256' | 'sha512', secret: string, data: string) => createHmac(alg, secret).update(data, 'utf8').digest('hex');

function vnpayHash(secret: string, params: Record<string, string>): string {
  const keys = Object.keys(params)
    .filter((k) => k.startsWith('vnp_') && k !== 'vnp_SecureHash' && k !== 'vnp_SecureHashType' && params[k] !== '')
    .sort();
  const data = keys.map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k] as string).replace(/%20/g, '+')}`).join('&');
  return hmac('sha512', secret, data);
}

function momoResultSignature(accessKey: string, secretKey: string, r: Record<string, string | number>): string {
  const order = [
    'amount',
    'extraData',
    'message',
    'orderId',
    'orderInfo',
    'orderType',
    'partnerCode',
    'payType',
    'requestId',
    'responseTime',
    'resultCode',
    'transId',
  ];
  return hmac('sha256', secretKey, `accessKey=${accessKey}&${order.map((k) => `${k}=${r[k]}`).join('&')}`);
}

/** querydr's request hash: vnp_RequestId|vnp_Version|vnp_Command|vnp_TmnCode|vnp_TxnRef|vnp_TransactionDate|vnp_CreateDate|vnp_IpAddr|vnp_OrderInfo. */
const VNPAY_QUERY_FIELDS = [
  'vnp_RequestId',
  'vnp_Version',
  'vnp_Command',
  'vnp_TmnCode',
  'vnp_TxnRef',
  'vnp_TransactionDate',
  'vnp_CreateDate',
  'vnp_IpAddr',
  'vnp_OrderInfo',
];
/** querydr's answer hash, in VNPay's published order. */
const VNPAY_ANSWER_FIELDS = [
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
];
const pipeHash = (secret: string, fields: string[], r: Record<string, unknown>) =>
  hmac('sha512', secret, fields.map((k) => (r[k] === undefined || r[k] === null ? '' : String(r[k]))).join('|'));

const vnd = (n: number) => `${n.toLocaleString('vi-VN')} VND`;

function page(title: string, brand: string, color: string, body: string): string {
  return `<!doctype html><html lang="vi"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{font-family:system-ui,sans-serif;background:#f3f4f6;margin:0;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border-radius:12px;box-shadow:0 4px 24px #0002;padding:28px;max-width:420px;width:calc(100% - 32px)}
h1{color:${color};margin:0 0 4px;font-size:22px}.note{color:#6b7280;font-size:13px;margin:0 0 18px}
dl{display:grid;grid-template-columns:auto 1fr;gap:8px 14px;margin:0 0 22px}dt{color:#6b7280}dd{margin:0;font-weight:600;word-break:break-all}
form{display:flex;gap:12px}button{flex:1;padding:12px;border:0;border-radius:8px;font-size:16px;cursor:pointer}
.pay{background:${color};color:#fff}.cancel{background:#e5e7eb}</style></head>
<body><main><h1>${escapeHtml(brand)}</h1><p class="note">Cổng thanh toán mô phỏng (chỉ dùng cho bản demo cục bộ)</p>${body}</main></body></html>`;
}

const buttons = (action: string, hidden: Record<string, string>) =>
  `<form method="post" action="${escapeHtml(action)}">${Object.entries(hidden)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join(
      '',
    )}<button class="pay" name="choice" value="pay">Thanh toán</button><button class="cancel" name="choice" value="cancel">Hủy</button></form>`;

async function readBody(req: IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** yyyyMMddHHmmss in GMT+7. */
function gmt7(ms: number): string {
  return new Date(ms + 7 * 3600_000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** SePay retries a failed delivery up to 7 times on Fibonacci intervals (minutes); the stand-in uses seconds. */
const SEPAY_RETRY_DELAYS_MS = [1, 1, 2, 3, 5, 8, 13].map((s) => s * 1000);

/** yyyy-MM-dd HH:mm:ss in GMT+7, as SePay writes transactionDate. */
function sepayDate(ms: number): string {
  return new Date(ms + 7 * 3600_000).toISOString().replace('T', ' ').slice(0, 19);
}

export async function startPaymentStandins(options: PaymentStandinOptions): Promise<PaymentStandins> {
  const log = options.log ?? (() => {});
  const momoOrders = new Map<string, MomoPending>();
  /** What each payment page ended with (paid or cancelled), for the status queries. */
  const vnpayResults = new Map<string, Record<string, string>>();
  const momoResults = new Map<string, Record<string, string | number>>();
  let base = '';
  let nextTransactionId = Date.now();
  const deliveries = new Set<NodeJS.Timeout>();

  const send = (res: ServerResponse, status: number, type: string, body: string) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(body);
  };
  const redirect = (res: ServerResponse, location: string) => {
    res.writeHead(302, { location, 'cache-control': 'no-store' });
    res.end();
  };

  async function vnpayPage(url: URL, res: ServerResponse) {
    const params = Object.fromEntries(url.searchParams);
    const given = params.vnp_SecureHash ?? '';
    if (params.vnp_TmnCode !== options.vnpay.tmnCode || given.toLowerCase() !== vnpayHash(options.vnpay.hashSecret, params)) {
      return send(
        res,
        400,
        'text/html; charset=utf-8',
        page('Lỗi', 'VNPay (mô phỏng)', '#005baa', '<p>Sai chữ ký (vnp_SecureHash) hoặc mã website.</p>'),
      );
    }
    const amount = Number(params.vnp_Amount) / 100;
    const body = `<dl><dt>Đơn hàng</dt><dd>${escapeHtml(params.vnp_TxnRef ?? '')}</dd><dt>Nội dung</dt><dd>${escapeHtml(params.vnp_OrderInfo ?? '')}</dd><dt>Số tiền</dt><dd data-testid="amount">${vnd(amount)}</dd></dl>${buttons(
      '/vnpay/pay',
      { request: url.searchParams.toString() },
    )}`;
    send(res, 200, 'text/html; charset=utf-8', page('VNPay - Thanh toán', 'VNPay (mô phỏng)', '#005baa', body));
  }

  async function vnpayPay(req: IncomingMessage, res: ServerResponse) {
    const form = new URLSearchParams(await readBody(req));
    const request = Object.fromEntries(new URLSearchParams(form.get('request') ?? ''));
    if (request.vnp_SecureHash?.toLowerCase() !== vnpayHash(options.vnpay.hashSecret, request))
      return send(res, 400, 'text/plain', 'bad request');
    const paid = form.get('choice') === 'pay';
    const result: Record<string, string> = {
      vnp_Amount: request.vnp_Amount ?? '',
      vnp_BankCode: paid ? 'NCB' : 'VNPAY',
      vnp_CardType: paid ? 'ATM' : '',
      vnp_OrderInfo: request.vnp_OrderInfo ?? '',
      vnp_PayDate: gmt7(Date.now()),
      vnp_ResponseCode: paid ? '00' : '24',
      vnp_TmnCode: options.vnpay.tmnCode,
      vnp_TransactionNo: paid ? String(randomInt(10_000_000, 99_999_999)) : '0',
      vnp_TransactionStatus: paid ? '00' : '02',
      vnp_TxnRef: request.vnp_TxnRef ?? '',
      ...(paid ? { vnp_BankTranNo: `VNP${randomInt(10_000_000, 99_999_999)}` } : {}),
    };
    vnpayResults.set(result.vnp_TxnRef as string, result);
    const query = new URLSearchParams(Object.entries(result).filter(([, v]) => v !== ''));
    query.set('vnp_SecureHash', vnpayHash(options.vnpay.hashSecret, result));
    try {
      const ipn = await fetch(`${options.publicUrl.replace(/\/$/, '')}/api/payment/vnpay-ipn?${query}`);
      log(`VNPay IPN ${result.vnp_TxnRef}: ${JSON.stringify(await ipn.json())}`);
    } catch (err) {
      log(`VNPay IPN ${result.vnp_TxnRef} failed: ${(err as Error).message}`);
    }
    redirect(res, `${request.vnp_ReturnUrl}?${query}`);
  }

  async function momoCreate(req: IncomingMessage, res: ServerResponse) {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    } catch {
      return send(res, 400, 'application/json', JSON.stringify({ resultCode: 20, message: 'Bad format request.' }));
    }
    const s = (k: string) => String(body[k] ?? '');
    const raw =
      `accessKey=${options.momo.accessKey}&amount=${s('amount')}&extraData=${s('extraData')}&ipnUrl=${s('ipnUrl')}&orderId=${s('orderId')}` +
      `&orderInfo=${s('orderInfo')}&partnerCode=${s('partnerCode')}&redirectUrl=${s('redirectUrl')}&requestId=${s('requestId')}&requestType=${s('requestType')}`;
    const answer = {
      partnerCode: s('partnerCode'),
      orderId: s('orderId'),
      requestId: s('requestId'),
      amount: Number(body.amount),
      responseTime: Date.now(),
    };
    if (s('partnerCode') !== options.momo.partnerCode || s('signature') !== hmac('sha256', options.momo.secretKey, raw)) {
      return send(res, 200, 'application/json', JSON.stringify({ ...answer, resultCode: 11, message: 'Truy cập bị từ chối: sai chữ ký.' }));
    }
    if (s('requestType') !== 'captureWallet' || !Number.isInteger(answer.amount) || answer.amount < 1000) {
      return send(res, 200, 'application/json', JSON.stringify({ ...answer, resultCode: 22, message: 'Số tiền giao dịch không hợp lệ.' }));
    }
    momoOrders.set(s('orderId'), {
      partnerCode: s('partnerCode'),
      orderId: s('orderId'),
      requestId: s('requestId'),
      amount: answer.amount,
      orderInfo: s('orderInfo'),
      redirectUrl: s('redirectUrl'),
      ipnUrl: s('ipnUrl'),
      extraData: s('extraData'),
    });
    const payUrl = `${base}/momo/pay/${encodeURIComponent(s('orderId'))}`;
    send(res, 200, 'application/json', JSON.stringify({ ...answer, resultCode: 0, message: 'Thành công.', payUrl, shortLink: payUrl }));
  }

  function momoPage(orderId: string, res: ServerResponse) {
    const order = momoOrders.get(orderId);
    if (!order)
      return send(res, 404, 'text/html; charset=utf-8', page('Lỗi', 'MoMo (mô phỏng)', '#a50064', '<p>Không tìm thấy giao dịch.</p>'));
    const body = `<dl><dt>Đơn hàng</dt><dd>${escapeHtml(order.orderId)}</dd><dt>Nội dung</dt><dd>${escapeHtml(order.orderInfo)}</dd><dt>Số tiền</dt><dd data-testid="amount">${vnd(order.amount)}</dd></dl>${buttons(
      `/momo/pay/${encodeURIComponent(orderId)}`,
      {},
    )}`;
    send(res, 200, 'text/html; charset=utf-8', page('MoMo - Thanh toán', 'MoMo (mô phỏng)', '#a50064', body));
  }

  async function momoPay(orderId: string, req: IncomingMessage, res: ServerResponse) {
    const order = momoOrders.get(orderId);
    if (!order) return send(res, 404, 'text/plain', 'not found');
    momoOrders.delete(orderId);
    const paid = new URLSearchParams(await readBody(req)).get('choice') === 'pay';
    const result: Record<string, string | number> = {
      partnerCode: order.partnerCode,
      orderId: order.orderId,
      requestId: order.requestId,
      amount: order.amount,
      orderInfo: order.orderInfo,
      orderType: 'momo_wallet',
      transId: paid ? randomInt(1_000_000_000, 9_999_999_999) : 0,
      resultCode: paid ? 0 : 1006,
      message: paid ? 'Thành công.' : 'Giao dịch bị từ chối bởi người dùng.',
      payType: 'qr',
      responseTime: Date.now(),
      extraData: order.extraData,
    };
    result.signature = momoResultSignature(options.momo.accessKey, options.momo.secretKey, result);
    momoResults.set(order.orderId, result);
    try {
      const ipn = await fetch(order.ipnUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(result),
      });
      log(`MoMo IPN ${order.orderId}: HTTP ${ipn.status}`);
    } catch (err) {
      log(`MoMo IPN ${order.orderId} failed: ${(err as Error).message}`);
    }
    const query = new URLSearchParams(Object.entries(result).map(([k, v]) => [k, String(v)]));
    redirect(res, `${order.redirectUrl}?${query}`);
  }

  /** VNPay querydr: the request's hash checked, the answer signed; 91 for an order never paid or cancelled here. */
  async function vnpayQuery(req: IncomingMessage, res: ServerResponse) {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    } catch {
      return send(res, 400, 'application/json', JSON.stringify({ vnp_ResponseCode: '03', vnp_Message: 'Invalid data format' }));
    }
    const secret = options.vnpay.hashSecret;
    const base = { vnp_ResponseId: String(randomInt(10_000_000, 99_999_999)), vnp_Command: 'querydr', vnp_TmnCode: options.vnpay.tmnCode };
    const answer = (fields: Record<string, string>) => {
      const all: Record<string, string> = { ...base, ...fields };
      return send(res, 200, 'application/json', JSON.stringify({ ...all, vnp_SecureHash: pipeHash(secret, VNPAY_ANSWER_FIELDS, all) }));
    };
    if (body.vnp_Command !== 'querydr' || body.vnp_Version !== '2.1.0' || body.vnp_TmnCode !== options.vnpay.tmnCode)
      return answer({ vnp_ResponseCode: '02', vnp_Message: 'Merchant is not valid' });
    if (String(body.vnp_SecureHash ?? '').toLowerCase() !== pipeHash(secret, VNPAY_QUERY_FIELDS, body))
      return answer({ vnp_ResponseCode: '97', vnp_Message: 'Invalid Checksum' });
    const result = vnpayResults.get(String(body.vnp_TxnRef ?? ''));
    if (!result) return answer({ vnp_ResponseCode: '91', vnp_Message: 'Transaction not found', vnp_TxnRef: String(body.vnp_TxnRef ?? '') });
    log(`VNPay querydr ${result.vnp_TxnRef}: ${result.vnp_TransactionStatus}`);
    return answer({
      vnp_ResponseCode: '00',
      vnp_Message: 'QueryDR Success',
      vnp_TxnRef: result.vnp_TxnRef ?? '',
      vnp_Amount: result.vnp_Amount ?? '',
      vnp_BankCode: result.vnp_BankCode ?? '',
      vnp_PayDate: result.vnp_PayDate ?? '',
      vnp_TransactionNo: result.vnp_TransactionNo ?? '',
      vnp_TransactionType: '01',
      vnp_TransactionStatus: result.vnp_TransactionStatus ?? '',
      vnp_OrderInfo: result.vnp_OrderInfo ?? '',
      vnp_PromotionCode: '',
      vnp_PromotionAmount: '',
    });
  }

  /** MoMo's v2 query: the request's signature checked; 1000 while the page is open, 42 for an order it never saw. */
  async function momoQuery(req: IncomingMessage, res: ServerResponse) {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    } catch {
      return send(res, 400, 'application/json', JSON.stringify({ resultCode: 20, message: 'Bad format request.' }));
    }
    const s = (k: string) => String(body[k] ?? '');
    const raw = `accessKey=${options.momo.accessKey}&orderId=${s('orderId')}&partnerCode=${s('partnerCode')}&requestId=${s('requestId')}`;
    const head = { partnerCode: s('partnerCode'), orderId: s('orderId'), requestId: s('requestId'), responseTime: Date.now() };
    const reply = (fields: Record<string, unknown>) => send(res, 200, 'application/json', JSON.stringify({ ...head, ...fields }));
    if (s('partnerCode') !== options.momo.partnerCode || s('signature') !== hmac('sha256', options.momo.secretKey, raw))
      return reply({ resultCode: 11, message: 'Truy cập bị từ chối: sai chữ ký.' });
    const result = momoResults.get(s('orderId'));
    if (result) {
      log(`MoMo query ${s('orderId')}: ${result.resultCode}`);
      return reply({
        extraData: result.extraData,
        amount: result.amount,
        transId: result.transId,
        payType: result.payType,
        resultCode: result.resultCode,
        refundTrans: [],
        message: result.message,
        lastUpdated: result.responseTime,
      });
    }
    const open = momoOrders.get(s('orderId'));
    if (open)
      return reply({
        extraData: open.extraData,
        amount: open.amount,
        transId: 0,
        payType: '',
        resultCode: 1000,
        refundTrans: [],
        message: 'Giao dịch đang chờ người dùng xác nhận.',
      });
    return reply({ resultCode: 42, message: 'Không tìm thấy mã đơn hàng.' });
  }

  function bankPage(url: URL, res: ServerResponse) {
    const sepay = options.sepay;
    if (!sepay) return send(res, 404, 'text/plain', 'not found');
    const field = (name: string, label: string, value: string, attrs = '') =>
      `<label style="display:block;margin:0 0 12px">${escapeHtml(label)}<input name="${name}" value="${escapeHtml(value)}" ${attrs} style="display:block;width:100%;box-sizing:border-box;padding:10px;margin-top:4px;font-size:16px;border:1px solid #d1d5db;border-radius:8px"></label>`;
    const body = `<p>Chuyển khoản tới tài khoản mẫu <strong>${escapeHtml(sepay.accountNumber)}</strong> (${escapeHtml(sepay.bankName)}). Ngân hàng sẽ báo giao dịch cho PhimViet như SePay.</p>
<form method="post" action="/bank/transfer" style="display:block">${field('accountNumber', 'Số tài khoản nhận', url.searchParams.get('accountNumber') ?? sepay.accountNumber, 'inputmode="numeric" required')}${field('amount', 'Số tiền (VND)', url.searchParams.get('amount') ?? '', 'inputmode="numeric" required')}${field('note', 'Nội dung chuyển khoản', url.searchParams.get('note') ?? '', 'maxlength="140"')}<button class="pay" style="width:100%">Chuyển khoản</button></form>`;
    send(res, 200, 'text/html; charset=utf-8', page('Ngân hàng mô phỏng', 'Ngân hàng mô phỏng', '#047857', body));
  }

  /** Posts the notification as SePay does; on a network error or a non-2xx answer tries again later. */
  function deliverNotification(notification: Record<string, unknown>, apiKey: string, attempt = 0): Promise<string> {
    const delays = options.sepay?.retryDelaysMs ?? SEPAY_RETRY_DELAYS_MS;
    const retry = (why: string) => {
      const delay = delays[attempt];
      if (delay === undefined) {
        log(`SePay webhook ${notification.id}: gave up after ${attempt + 1} attempts (${why})`);
        return `${why}; đã thử ${attempt + 1} lần`;
      }
      const timer = setTimeout(() => {
        deliveries.delete(timer);
        void deliverNotification(notification, apiKey, attempt + 1);
      }, delay);
      deliveries.add(timer);
      log(`SePay webhook ${notification.id}: ${why}, retrying in ${delay} ms`);
      return `${why}; sẽ thử lại`;
    };
    return fetch(`${options.publicUrl.replace(/\/$/, '')}/api/payment/sepay-webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Apikey ${apiKey}` },
      body: JSON.stringify(notification),
    }).then(
      async (answer) => {
        const text = await answer.text();
        if (!answer.ok) return retry(`HTTP ${answer.status}`);
        log(`SePay webhook ${notification.id}: HTTP ${answer.status} ${text}`);
        return `HTTP ${answer.status}`;
      },
      (err: Error) => retry(err.message),
    );
  }

  async function bankTransfer(req: IncomingMessage, res: ServerResponse) {
    const sepay = options.sepay;
    if (!sepay) return send(res, 404, 'text/plain', 'not found');
    const form = new URLSearchParams(await readBody(req));
    const amount = Number((form.get('amount') ?? '').replace(/[^0-9]/g, ''));
    const accountNumber = (form.get('accountNumber') ?? '').trim();
    const note = (form.get('note') ?? '').trim();
    if (!Number.isSafeInteger(amount) || amount <= 0 || !accountNumber) {
      return send(
        res,
        400,
        'text/html; charset=utf-8',
        page('Lỗi', 'Ngân hàng mô phỏng', '#047857', '<p>Nhập số tài khoản và số tiền.</p>'),
      );
    }
    nextTransactionId += 1;
    const reference = `FT${randomInt(10_000_000, 99_999_999)}`;
    // Banks put their own words around the payer's note, as a real statement line does.
    const content = `${reference}.${note}.CT tu 0011223344 NGUYEN VAN A toi ${accountNumber}`;
    const notification = {
      id: nextTransactionId,
      gateway: sepay.bankName.split(' ')[0],
      transactionDate: sepayDate(Date.now()),
      accountNumber,
      code: null,
      content,
      transferType: 'in',
      transferAmount: amount,
      accumulated: 0,
      subAccount: null,
      referenceCode: reference,
      description: `BankAPINotify ${content}`,
    };
    const result = await deliverNotification(notification, sepay.apiKey);
    const body = `<p data-testid="bank-done">Đã chuyển <strong>${vnd(amount)}</strong> tới tài khoản ${escapeHtml(accountNumber)}.</p>
<dl><dt>Nội dung</dt><dd>${escapeHtml(content)}</dd><dt>Mã giao dịch</dt><dd>${escapeHtml(reference)}</dd><dt>Báo cho PhimViet</dt><dd data-testid="bank-webhook">${escapeHtml(result)}</dd></dl>
<p><a href="/bank">Chuyển khoản khác</a></p>`;
    send(res, 200, 'text/html; charset=utf-8', page('Ngân hàng mô phỏng', 'Ngân hàng mô phỏng', '#047857', body));
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://standin');
    const momoPay_ = url.pathname.match(/^\/momo\/pay\/([^/]+)$/);
    const route = async () => {
      const mail = options.mail;
      if (mail && 'handle' in mail && mail.handle(req, res, url)) return;
      if (mail && 'elsewhere' in mail && url.pathname.startsWith('/mail')) {
        return send(
          res,
          200,
          'text/html; charset=utf-8',
          page(
            'Hộp thư mô phỏng',
            'Hộp thư mô phỏng',
            '#b91c1c',
            `<p>SMTP_URL đã được đặt: thư được gửi tới ${escapeHtml(mail.elsewhere)}, không qua hộp thư này.</p>`,
          ),
        );
      }
      if (req.method === 'GET' && url.pathname === '/vnpay/paymentv2/vpcpay.html') return vnpayPage(url, res);
      if (req.method === 'POST' && url.pathname === '/vnpay/pay') return vnpayPay(req, res);
      if (req.method === 'POST' && url.pathname === '/momo/v2/gateway/api/create') return momoCreate(req, res);
      if (req.method === 'POST' && url.pathname === '/merchant_webapi/api/transaction') return vnpayQuery(req, res);
      if (req.method === 'POST' && url.pathname === '/momo/v2/gateway/api/query') return momoQuery(req, res);
      if (req.method === 'GET' && momoPay_) return momoPage(decodeURIComponent(momoPay_[1] as string), res);
      if (req.method === 'POST' && momoPay_) return momoPay(decodeURIComponent(momoPay_[1] as string), req, res);
      if (req.method === 'GET' && url.pathname === '/bank') return bankPage(url, res);
      if (req.method === 'POST' && url.pathname === '/bank/transfer') return bankTransfer(req, res);
      send(res, 404, 'text/plain', 'not found');
    };
    route().catch((err: Error) => {
      log(`stand-in error: ${err.message}`);
      if (!res.headersSent) send(res, 500, 'text/plain', 'error');
    });
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 8789, options.host ?? '127.0.0.1', () => done());
  });
  const { port } = server.address() as AddressInfo;
  base = `http://${options.host ?? '127.0.0.1'}:${port}`;
  return {
    url: base,
    close: () =>
      new Promise<void>((done) => {
        for (const timer of deliveries) clearTimeout(timer);
        deliveries.clear();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
