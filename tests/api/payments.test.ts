// VIP orders and payments through the API: VNPay and MoMo IPNs (the only thing that pays), the return
// redirect (grants nothing), bank transfer confirmed by an admin, expiry on a fake clock, bad input.
// Gateway callbacks are signed here with node:crypto from the published rules, not with the app's code.
import { createHmac } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PAYMENT_SECRETS, loadConfig } from '../../worker/config';
import { films, payments, subscriptions } from '../../worker/db/schema';
import type { BankTransferResponse, GatewayOrderResponse, Order, PaymentReturnResponse } from '../../worker/schemas/vip';
import { runScheduledJobs } from '../../worker/scheduled';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, fakeClock, insertFilm, login, signedInUser } from '../helpers/auth';

const START = Date.UTC(2026, 0, 15, 5, 0, 0); // 12:00 in Ha Noi
const DAY = 24 * 60 * 60 * 1000;

let t: TestApp;
let clock: ReturnType<typeof fakeClock>;

beforeEach(async () => {
  clock = fakeClock(START);
  t = await createTestApp({ now: clock.now });
});

const cfg = () => t.deps.config;

/** VNPay's hash: sorted non-empty vnp_* keys, form-encoded (space → '+'), HMAC-SHA512 hex. */
function vnpaySigned(params: Record<string, string>, secret = cfg().VNPAY_HASH_SECRET as string): URLSearchParams {
  const keys = Object.keys(params)
    .filter((k) => params[k] !== '')
    .sort();
  const data = keys.map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k] as string).replace(/%20/g, '+')}`).join('&');
  const query = new URLSearchParams(params);
  query.set('vnp_SecureHash', createHmac('sha512', secret).update(data).digest('hex'));
  return query;
}

function vnpayResult(orderId: string, amountVnd: number, overrides: Record<string, string> = {}): URLSearchParams {
  return vnpaySigned({
    vnp_Amount: String(amountVnd * 100),
    vnp_BankCode: 'NCB',
    vnp_CardType: 'ATM',
    vnp_OrderInfo: 'Thanh toan goi VIP1 3 thang',
    vnp_PayDate: '20260115120500',
    vnp_ResponseCode: '00',
    vnp_TmnCode: cfg().VNPAY_TMN_CODE as string,
    vnp_TransactionNo: '14123456',
    vnp_TransactionStatus: '00',
    vnp_TxnRef: orderId,
    ...overrides,
  });
}

const ipn = async (query: URLSearchParams) => {
  const res = await t.request(`/api/payment/vnpay-ipn?${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { RspCode: string; Message: string };
};

async function buyer(permissions = '') {
  const user = await signedInUser(t, { permissions });
  return { ...user, auth: bearer(user.session.token) };
}

async function startVnpay(auth: Record<string, string>, body: unknown = { plan: 'VIP1', months: 3 }) {
  const res = await t.request('/api/product/vnpay', { json: body, headers: auth });
  expect(res.status).toBe(200);
  return (await res.json()) as GatewayOrderResponse;
}

async function order(auth: Record<string, string>, orderId: string): Promise<Order> {
  const res = await t.request(`/api/vip/orders/${orderId}`, { headers: auth });
  expect(res.status).toBe(200);
  return (await res.json()) as Order;
}

async function account(auth: Record<string, string>) {
  const res = await t.request('/api/account', { headers: auth });
  expect(res.status).toBe(200);
  return (await res.json()) as { permissions: string[]; subscription: { plan: string; expiresAt: number } | null };
}

const subscriptionCount = async () => (await t.deps.db.select({ n: sql<number>`count(*)` }).from(subscriptions))[0]?.n;

describe('GET /api/vip/plans', () => {
  it('lists both plans with the server prices and the durations', async () => {
    const res = await t.request('/api/vip/plans');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { plans: { id: string; monthlyPrice: number; recommended: boolean }[]; durations: number[] };
    expect(body.plans.map((p) => [p.id, p.monthlyPrice, p.recommended])).toEqual([
      ['VIP1', 69_000, false],
      ['VIP2', 99_000, true],
    ]);
    expect(body.durations).toEqual([1, 3, 6, 12]);
  });
});

describe('POST /api/product/vnpay', () => {
  it('without a token: 401 with the spec message', async () => {
    const res = await t.request('/api/product/vnpay', { json: { plan: 'VIP1', months: 1 } });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toBe('Bạn cần đăng nhập để có thể đăng ký gói cao cấp');
  });

  it('prices the order on the server, ignores the client amount and return URL, and signs the URL', async () => {
    const { auth } = await buyer();
    const answer = await startVnpay(auth, {
      plan: 'VIP1',
      months: 3,
      amount: 1,
      returnUrl: 'https://evil.example/steal',
      ipAddr: '1.1.1.1',
    });
    expect(answer.orderId).toMatch(/^[0-9a-f]{32}$/);
    const url = new URL(answer.paymentUrl);
    expect(`${url.origin}${url.pathname}`).toBe(cfg().VNPAY_URL);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      vnp_Version: '2.1.0',
      vnp_Command: 'pay',
      vnp_Amount: '20700000',
      vnp_CurrCode: 'VND',
      vnp_TxnRef: answer.orderId,
      vnp_ReturnUrl: 'http://localhost:8787/dang-ky-goi-vip/VIP1/payment/vnpay-return',
      vnp_CreateDate: '20260115120000',
      vnp_ExpireDate: '20260115121500',
      vnp_Locale: 'vn',
      vnp_OrderType: 'other',
    });
    expect(q.vnp_OrderInfo).toMatch(/^[A-Za-z0-9 :_.-]+$/);
    const { vnp_SecureHash, ...rest } = q;
    expect(vnpaySigned(rest).get('vnp_SecureHash')).toBe(vnp_SecureHash);
    const mine = await order(auth, answer.orderId);
    expect(mine).toMatchObject({ plan: 'VIP1', months: 3, amount: 207_000, method: 'vnpay', status: 'pending' });
  });

  it('refuses bad input with 400 naming the field, never 500', async () => {
    const { auth } = await buyer();
    const cases: [unknown, string][] = [
      [{ plan: 'VIP3', months: 1 }, 'plan'],
      [{ plan: 'VIP1', months: 2 }, 'months'],
      [{ plan: 'VIP1', months: 'abc' }, 'months'],
      [{ plan: 'VIP1' }, 'months'],
      [{ months: 1 }, 'plan'],
      [[1, 2], ''],
    ];
    for (const path of ['/api/product/vnpay', '/api/product/momo', '/api/product/bank_transfer']) {
      for (const [body, field] of cases) {
        const res = await t.request(path, { json: body, headers: auth });
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
        expect((await errorOf(res)).message).toContain(field);
      }
      const malformed = await t.request(path, { method: 'POST', body: '{nope', headers: { ...auth, 'content-type': 'application/json' } });
      expect(malformed.status).toBe(400);
    }
  });

  it('answers 503 JSON when the gateway is not configured', async () => {
    t = await createTestApp({
      now: clock.now,
      config: { VNPAY_HASH_SECRET: undefined, MOMO_SECRET_KEY: undefined, BANK_ACCOUNT_NUMBER: undefined },
    });
    const { auth } = await buyer();
    for (const path of ['/api/product/vnpay', '/api/product/momo', '/api/product/bank_transfer']) {
      const res = await t.request(path, { json: { plan: 'VIP1', months: 1 }, headers: auth });
      expect(res.status).toBe(503);
      expect((await errorOf(res)).code).toBe('payment_unavailable');
    }
  });
});

describe('GET /api/payment/vnpay-ipn', () => {
  it('97 on a bad checksum, and nothing is recorded', async () => {
    const { auth } = await buyer();
    const { orderId } = await startVnpay(auth);
    const query = vnpayResult(orderId, 207_000);
    query.set('vnp_ResponseCode', '24');
    expect(await ipn(query)).toEqual({ RspCode: '97', Message: 'Invalid Checksum' });
    const wrongSecret = vnpaySigned(
      Object.fromEntries([...vnpayResult(orderId, 207_000)].filter(([k]) => k !== 'vnp_SecureHash')),
      'wrong-secret',
    );
    expect(await ipn(wrongSecret)).toMatchObject({ RspCode: '97' });
    const unsigned = vnpayResult(orderId, 207_000);
    unsigned.delete('vnp_SecureHash');
    expect(await ipn(unsigned)).toMatchObject({ RspCode: '97' });
    expect(await ipn(new URLSearchParams())).toMatchObject({ RspCode: '97' });
    expect((await order(auth, orderId)).status).toBe('pending');
  });

  it('01 for an unknown order, 04 for an amount that is not the order amount × 100', async () => {
    const { auth } = await buyer();
    const { orderId } = await startVnpay(auth);
    expect(await ipn(vnpayResult('f'.repeat(32), 207_000))).toEqual({ RspCode: '01', Message: 'Order not found' });
    expect(await ipn(vnpayResult(orderId, 2_070))).toEqual({ RspCode: '04', Message: 'Invalid amount' });
    expect((await order(auth, orderId)).status).toBe('pending');
  });

  it('00 paid: grants the plan until now + 3 calendar months; a replay answers 02 and credits nothing more', async () => {
    const { auth } = await buyer();
    const { orderId } = await startVnpay(auth);
    expect((await account(auth)).permissions).not.toContain('VIP1');
    clock.advance(60_000);
    expect(await ipn(vnpayResult(orderId, 207_000))).toEqual({ RspCode: '00', Message: 'Confirm Success' });
    const paid = await order(auth, orderId);
    const expiresAt = Date.UTC(2026, 3, 15, 5, 1, 0);
    expect(paid).toMatchObject({ status: 'paid', transactionNo: '14123456', paidAt: START + 60_000, expiresAt });
    expect(await account(auth)).toMatchObject({ subscription: { plan: 'VIP1', expiresAt } });
    expect((await account(auth)).permissions).toContain('VIP1');
    expect(await ipn(vnpayResult(orderId, 207_000))).toEqual({ RspCode: '02', Message: 'Order already confirmed' });
    expect(await ipn(vnpayResult(orderId, 207_000, { vnp_ResponseCode: '24', vnp_TransactionStatus: '02' }))).toMatchObject({
      RspCode: '02',
    });
    expect(await subscriptionCount()).toBe(1);
    expect((await order(auth, orderId)).status).toBe('paid');
  });

  it('00 failed when the response or transaction status is not 00: no VIP, the reason kept', async () => {
    const { auth } = await buyer();
    const { orderId } = await startVnpay(auth);
    expect(await ipn(vnpayResult(orderId, 207_000, { vnp_ResponseCode: '24', vnp_TransactionStatus: '02' }))).toEqual({
      RspCode: '00',
      Message: 'Confirm Success',
    });
    expect(await order(auth, orderId)).toMatchObject({ status: 'failed', reason: 'Khách hàng hủy giao dịch', expiresAt: null });
    const second = await startVnpay(auth);
    expect(await ipn(vnpayResult(second.orderId, 207_000, { vnp_ResponseCode: '00', vnp_TransactionStatus: '01' }))).toMatchObject({
      RspCode: '00',
    });
    expect((await order(auth, second.orderId)).status).toBe('failed');
    expect((await account(auth)).permissions).not.toContain('VIP1');
    expect(await subscriptionCount()).toBe(0);
  });

  it('99 on an unexpected error', async () => {
    const { auth } = await buyer();
    const { orderId } = await startVnpay(auth);
    await t.deps.db.run(sql`alter table payments rename to payments_elsewhere`);
    expect(await ipn(vnpayResult(orderId, 207_000))).toEqual({ RspCode: '99', Message: 'Unknown error' });
  });

  it('a sign-in after paying lists the plan in permissions, as the API applies them', async () => {
    const user = await buyer();
    const { orderId } = await startVnpay(user.auth, { plan: 'VIP2', months: 1 });
    expect(user.session.permissions).toEqual([]);
    expect(await ipn(vnpayResult(orderId, 99_000))).toMatchObject({ RspCode: '00' });
    const again = await login(t, user);
    expect(again.permissions.sort()).toEqual(['VIP1', 'VIP2']);
  });

  it('two identical IPNs at once credit the order once', async () => {
    const { auth } = await buyer();
    const { orderId } = await startVnpay(auth);
    const answers = await Promise.all([
      ipn(vnpayResult(orderId, 207_000)),
      ipn(vnpayResult(orderId, 207_000)),
      ipn(vnpayResult(orderId, 207_000)),
    ]);
    expect(answers.map((a) => a.RspCode).sort()).toEqual(['00', '02', '02']);
    expect(await subscriptionCount()).toBe(1);
    expect((await account(auth)).subscription?.expiresAt).toBe(Date.UTC(2026, 3, 15, 5, 0, 0));
  });

  it('two different orders of the same plan paid at once both extend it', async () => {
    const { auth } = await buyer();
    const a = await startVnpay(auth, { plan: 'VIP1', months: 1 });
    const b = await startVnpay(auth, { plan: 'VIP1', months: 3 });
    await Promise.all([ipn(vnpayResult(a.orderId, 69_000)), ipn(vnpayResult(b.orderId, 207_000))]);
    expect((await account(auth)).subscription?.expiresAt).toBe(Date.UTC(2026, 4, 15, 5, 0, 0));
  });
});

describe('expiry', () => {
  it('extends from the current expiry while active, from now once lapsed, and lapses exactly', async () => {
    const user = await buyer();
    // Access tokens last 15 minutes: sign in again after each jump of the clock.
    const auth = async () => bearer((await login(t, user)).token);
    const first = await startVnpay(user.auth, { plan: 'VIP1', months: 1 });
    await ipn(vnpayResult(first.orderId, 69_000));
    expect((await account(user.auth)).subscription?.expiresAt).toBe(Date.UTC(2026, 1, 15, 5, 0, 0));
    clock.advance(10 * DAY);
    const second = await startVnpay(await auth(), { plan: 'VIP1', months: 12 });
    await ipn(vnpayResult(second.orderId, 828_000));
    const until = Date.UTC(2027, 1, 15, 5, 0, 0);
    expect((await account(await auth())).subscription?.expiresAt).toBe(until);
    clock.advance(until - clock.now() - 1);
    const token = await auth();
    expect((await account(token)).permissions).toContain('VIP1');
    clock.advance(1);
    const lapsed = await account(token);
    expect(lapsed.permissions).not.toContain('VIP1');
    expect(lapsed.subscription).toBeNull();
    clock.advance(DAY);
    const third = await startVnpay(await auth(), { plan: 'VIP1', months: 1 });
    await ipn(vnpayResult(third.orderId, 69_000));
    expect((await account(await auth())).subscription?.expiresAt).toBe(until + DAY + 28 * DAY); // Feb 2027 has 28 days
  });

  it('VIP 2 includes VIP 1; a month from 31 January ends on the last day of February', async () => {
    clock.advance(Date.UTC(2026, 0, 31, 3, 0, 0) - START);
    const { auth } = await buyer();
    const { orderId } = await startVnpay(auth, { plan: 'VIP2', months: 1 });
    await ipn(vnpayResult(orderId, 99_000));
    const me = await account(auth);
    expect(me.permissions).toEqual(expect.arrayContaining(['VIP1', 'VIP2']));
    expect(me.subscription).toEqual({ plan: 'VIP2', expiresAt: Date.UTC(2026, 1, 28, 3, 0, 0) });
  });
});

describe('GET /api/payment/vnpay-return', () => {
  it('verifies and reports the order but grants nothing; a tampered query is refused', async () => {
    const { auth } = await buyer();
    const { orderId } = await startVnpay(auth);
    const res = await t.request(`/api/payment/vnpay-return?${vnpayResult(orderId, 207_000)}`);
    expect(res.status).toBe(200);
    expect((await res.json()) as PaymentReturnResponse).toEqual({
      message: 'Giao dịch thành công',
      orderId,
      status: 'pending',
      gatewayResult: 'success',
    });
    expect((await order(auth, orderId)).status).toBe('pending');
    expect((await account(auth)).permissions).not.toContain('VIP1');
    const tampered = vnpayResult(orderId, 207_000);
    tampered.set('vnp_Amount', '100');
    const bad = await t.request(`/api/payment/vnpay-return?${tampered}`);
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toBe('Payment verification failed');
    expect((await t.request('/api/payment/vnpay-return')).status).toBe(400);
  });
});

describe('MoMo', () => {
  const momoSign = (raw: string) =>
    createHmac('sha256', cfg().MOMO_SECRET_KEY as string)
      .update(raw)
      .digest('hex');

  function momoResult(orderId: string, amount: number, resultCode = 0, message = 'Thành công.') {
    const r = {
      partnerCode: cfg().MOMO_PARTNER_CODE as string,
      orderId,
      requestId: orderId,
      amount,
      orderInfo: 'Thanh toán gói VIP 1 1 tháng',
      orderType: 'momo_wallet',
      transId: 4088878653,
      resultCode,
      message,
      payType: 'qr',
      responseTime: 1768453200000,
      extraData: '',
    };
    const raw =
      `accessKey=${cfg().MOMO_ACCESS_KEY}&amount=${r.amount}&extraData=${r.extraData}&message=${r.message}&orderId=${r.orderId}` +
      `&orderInfo=${r.orderInfo}&orderType=${r.orderType}&partnerCode=${r.partnerCode}&payType=${r.payType}&requestId=${r.requestId}` +
      `&responseTime=${r.responseTime}&resultCode=${r.resultCode}&transId=${r.transId}`;
    return { ...r, signature: momoSign(raw) };
  }

  async function startMomo(auth: Record<string, string>, months = 1) {
    const res = await t.request('/api/product/momo', { json: { plan: 'VIP1', months }, headers: auth });
    expect(res.status).toBe(200);
    return (await res.json()) as GatewayOrderResponse;
  }

  let sent: Record<string, unknown>[];
  beforeEach(async () => {
    sent = [];
    const fetch = (async (_url: string | URL | Request, init?: RequestInit) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      sent.push(body);
      return Response.json({
        partnerCode: body.partnerCode,
        orderId: body.orderId,
        resultCode: 0,
        message: 'Thành công.',
        payUrl: `https://momo.example/pay/${body.orderId}`,
      });
    }) as typeof globalThis.fetch;
    t = await createTestApp({ now: clock.now, fetch });
  });

  it('creates the captureWallet request with the signature over the fixed field order and answers its payUrl', async () => {
    const { auth } = await buyer();
    const { orderId, paymentUrl } = await startMomo(auth, 6);
    expect(paymentUrl).toBe(`https://momo.example/pay/${orderId}`);
    const body = sent[0] as Record<string, string | number>;
    expect(body).toMatchObject({
      amount: 414_000,
      orderId,
      requestType: 'captureWallet',
      ipnUrl: 'http://localhost:8787/api/payment/momo-ipn',
      redirectUrl: 'http://localhost:8787/dang-ky-goi-vip/VIP1/payment/momo-return',
    });
    const raw =
      `accessKey=${cfg().MOMO_ACCESS_KEY}&amount=${body.amount}&extraData=${body.extraData}&ipnUrl=${body.ipnUrl}&orderId=${body.orderId}` +
      `&orderInfo=${body.orderInfo}&partnerCode=${body.partnerCode}&redirectUrl=${body.redirectUrl}&requestId=${body.requestId}&requestType=${body.requestType}`;
    expect(body.signature).toBe(momoSign(raw));
  });

  it('a gateway refusal fails the order with 502', async () => {
    t = await createTestApp({
      now: clock.now,
      fetch: (async () => Response.json({ resultCode: 22, message: 'Số tiền không hợp lệ' })) as typeof fetch,
    });
    const { auth } = await buyer();
    const res = await t.request('/api/product/momo', { json: { plan: 'VIP1', months: 1 }, headers: auth });
    expect(res.status).toBe(502);
    expect((await errorOf(res)).message).toBe('Số tiền không hợp lệ');
  });

  it('IPN resultCode 0 pays with 204 once; a replay changes nothing', async () => {
    const { auth } = await buyer();
    const { orderId } = await startMomo(auth);
    const post = (body: unknown) => t.request('/api/payment/momo-ipn', { json: body });
    const [a, b] = await Promise.all([post(momoResult(orderId, 69_000)), post(momoResult(orderId, 69_000))]);
    expect([a.status, b.status]).toEqual([204, 204]);
    expect(await order(auth, orderId)).toMatchObject({
      status: 'paid',
      transactionNo: '4088878653',
      expiresAt: Date.UTC(2026, 1, 15, 5, 0, 0),
    });
    expect((await post(momoResult(orderId, 69_000))).status).toBe(204);
    expect(await subscriptionCount()).toBe(1);
  });

  it('resultCode 9000 pays; 1006 (cancelled by the user) fails with its message; 7000 leaves it pending', async () => {
    const { auth } = await buyer();
    const paid = await startMomo(auth);
    expect((await t.request('/api/payment/momo-ipn', { json: momoResult(paid.orderId, 69_000, 9000) })).status).toBe(204);
    expect((await order(auth, paid.orderId)).status).toBe('paid');
    const cancelled = await startMomo(auth);
    expect((await t.request('/api/payment/momo-ipn', { json: momoResult(cancelled.orderId, 69_000, 7000, 'Đang xử lý') })).status).toBe(
      204,
    );
    expect((await order(auth, cancelled.orderId)).status).toBe('pending');
    const res = await t.request('/api/payment/momo-ipn', {
      json: momoResult(cancelled.orderId, 69_000, 1006, 'Người dùng đã hủy giao dịch.'),
    });
    expect(res.status).toBe(204);
    expect(await order(auth, cancelled.orderId)).toMatchObject({ status: 'failed', reason: 'Người dùng đã hủy giao dịch.' });
  });

  it('refuses a bad signature, a tampered amount, an unknown order and a non-object body; nothing recorded', async () => {
    const { auth } = await buyer();
    const { orderId } = await startMomo(auth);
    const tampered = { ...momoResult(orderId, 69_000), amount: 1_000 };
    expect((await t.request('/api/payment/momo-ipn', { json: tampered })).status).toBe(400);
    expect((await t.request('/api/payment/momo-ipn', { json: momoResult(orderId, 1_000) })).status).toBe(400);
    expect((await t.request('/api/payment/momo-ipn', { json: momoResult('a'.repeat(32), 69_000) })).status).toBe(404);
    expect((await t.request('/api/payment/momo-ipn', { json: [1] })).status).toBe(400);
    expect((await t.request('/api/payment/momo-ipn', { json: { orderId } })).status).toBe(400);
    expect(
      (await t.request('/api/payment/momo-ipn', { method: 'POST', body: 'x', headers: { 'content-type': 'application/json' } })).status,
    ).toBe(400);
    expect((await order(auth, orderId)).status).toBe('pending');
  });

  it('the return redirect shows the result and grants nothing', async () => {
    const { auth } = await buyer();
    const { orderId } = await startMomo(auth);
    const query = new URLSearchParams(
      Object.entries(momoResult(orderId, 69_000, 1006, 'Người dùng đã hủy giao dịch.')).map(([k, v]) => [k, String(v)]),
    );
    const res = await t.request(`/api/payment/momo-return?${query}`);
    expect((await res.json()) as PaymentReturnResponse).toEqual({
      message: 'Người dùng đã hủy giao dịch.',
      orderId,
      status: 'pending',
      gatewayResult: 'failed',
    });
    query.set('resultCode', '0');
    expect((await t.request(`/api/payment/momo-return?${query}`)).status).toBe(400);
    expect((await order(auth, orderId)).status).toBe('pending');
  });
});

describe('bank transfer and admin confirmation', () => {
  it('answers the transfer details; an admin confirms and VIP applies on the next request', async () => {
    const user = await buyer();
    const res = await t.request('/api/product/bank_transfer', { json: { plan: 'VIP2', months: 6 }, headers: user.auth });
    expect(res.status).toBe(200);
    const details = (await res.json()) as BankTransferResponse;
    expect(details).toMatchObject({
      plan: 'VIP2',
      months: 6,
      amount: 594_000,
      email: user.email,
      autoConfirm: true,
      name: user.name,
      hotline: cfg().PAYMENT_HOTLINE,
      bank: { name: cfg().BANK_NAME, accountNumber: cfg().BANK_ACCOUNT_NUMBER, accountHolder: cfg().BANK_ACCOUNT_HOLDER },
    });
    // The note is the order's short payment code, not the email (docs/decisions/0403).
    expect(details.note).toMatch(/^PV[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
    expect(details.paymentCode).toBe(details.note);
    const confirm = `/api/admin/orders/${details.orderId}/confirm`;
    expect((await t.request(confirm, { method: 'POST' })).status).toBe(401);
    expect((await t.request(confirm, { method: 'POST', headers: user.auth })).status).toBe(403);
    const admin = await buyer();
    await t.deps.db.run(sql`update users set roles = 'user,admin' where id = ${admin.id}`);

    const list = await t.request('/api/admin/orders?status=pending', { headers: admin.auth });
    expect(list.status).toBe(200);
    const listed = (await list.json()) as { data: { orderId: string; userEmail: string }[]; pagination: { totalItems: number } };
    expect(listed.data.map((o) => [o.orderId, o.userEmail])).toEqual([[details.orderId, user.email]]);
    expect((await t.request('/api/admin/orders?status=nope', { headers: admin.auth })).status).toBe(400);
    expect((await t.request('/api/admin/orders?page=0', { headers: admin.auth })).status).toBe(400);
    expect((await t.request('/api/admin/orders', { headers: user.auth })).status).toBe(403);

    expect((await account(user.auth)).permissions).not.toContain('VIP2');
    const ok = await t.request(confirm, { method: 'POST', headers: admin.auth });
    expect(ok.status).toBe(200);
    expect((await account(user.auth)).subscription).toEqual({ plan: 'VIP2', expiresAt: Date.UTC(2026, 6, 15, 5, 0, 0) });
    expect((await t.request(confirm, { method: 'POST', headers: admin.auth })).status).toBe(409);
    expect((await t.request('/api/admin/orders/not-an-id/confirm', { method: 'POST', headers: admin.auth })).status).toBe(400);
    expect((await t.request(`/api/admin/orders/${'0'.repeat(32)}/confirm`, { method: 'POST', headers: admin.auth })).status).toBe(404);
    const vnpay = await startVnpay(user.auth);
    expect((await t.request(`/api/admin/orders/${vnpay.orderId}/confirm`, { method: 'POST', headers: admin.auth })).status).toBe(409);
    expect(await subscriptionCount()).toBe(1);
  });
});

describe('the VietQR bank BIN', () => {
  it("comes from the settings beside the account it belongs to: an admin's BIN reaches the transfer details, a bad one is refused by name, empty shows no code", async () => {
    const user = await buyer();
    const admin = await buyer();
    await t.deps.db.run(sql`update users set roles = 'user,admin' where id = ${admin.id}`);
    const transfer = async () =>
      (
        (await (
          await t.request('/api/product/bank_transfer', { json: { plan: 'VIP1', months: 1 }, headers: user.auth })
        ).json()) as BankTransferResponse
      ).bank;
    expect((await transfer()).bin).toBe(cfg().BANK_BIN ?? null);

    const save = (json: Record<string, string>) => t.request('/api/admin/settings', { method: 'PUT', json, headers: admin.auth });
    expect(
      (await save({ bankName: 'VietinBank', bankAccount: '1122334455', bankHolder: 'CONG TY PHIM VIET', bankBin: '970415' })).status,
    ).toBe(200);
    expect(await transfer()).toEqual({
      name: 'VietinBank',
      accountNumber: '1122334455',
      accountHolder: 'CONG TY PHIM VIET',
      bin: '970415',
    });

    for (const bad of ['97041', '9704155', 'abcdef']) {
      const refused = await save({ bankBin: bad });
      expect(refused.status).toBe(400);
      expect((await errorOf(refused)).message).toMatch(/^bankBin:/);
    }
    expect((await transfer()).bin).toBe('970415');

    expect((await save({ bankBin: '' })).status).toBe(200);
    expect((await transfer()).bin).toBeNull();
  });
});

describe('orders of the signed-in user', () => {
  it('a buyer opens at most 10 orders per 10 minutes: the 11th is 429 in the JSON error shape and writes no row', async () => {
    const user = await buyer();
    const other = await buyer();
    const methods = ['vnpay', 'bank_transfer'] as const;
    for (let i = 0; i < 10; i++) {
      const res = await t.request(`/api/product/${methods[i % 2]}`, { json: { plan: 'VIP1', months: 1 }, headers: user.auth });
      expect(res.status).toBe(200);
    }
    const orderRows = async () =>
      (await t.deps.db.select({ n: sql<number>`count(*)` }).from(payments).where(eq(payments.userId, user.id)))[0]?.n;
    const over = await t.request('/api/product/vnpay', { json: { plan: 'VIP2', months: 12 }, headers: user.auth });
    expect(over.status).toBe(429);
    expect(await errorOf(over)).toEqual({
      code: 'rate_limited',
      message: 'Bạn đã tạo quá nhiều đơn hàng trong ít phút. Vui lòng thử lại sau.',
    });
    expect(await orderRows()).toBe(10);
    // Another buyer is not held back, and the same buyer may order again in the next window.
    await startVnpay(other.auth);
    clock.advance(10 * 60_000);
    await startVnpay(user.auth);
    expect(await orderRows()).toBe(11);
  });
  it('lists only the owner’s orders; another user’s order is 404; bad ids 400; anonymous 401', async () => {
    const alice = await buyer();
    const bob = await buyer();
    const { orderId } = await startVnpay(alice.auth);
    const list = (await (await t.request('/api/vip/orders', { headers: alice.auth })).json()) as { orders: Order[] };
    expect(list.orders.map((o) => o.orderId)).toEqual([orderId]);
    expect(((await (await t.request('/api/vip/orders', { headers: bob.auth })).json()) as { orders: Order[] }).orders).toEqual([]);
    expect((await t.request(`/api/vip/orders/${orderId}`, { headers: bob.auth })).status).toBe(404);
    expect((await t.request('/api/vip/orders/xyz', { headers: alice.auth })).status).toBe(400);
    expect((await t.request(`/api/vip/orders/${orderId}`)).status).toBe(401);
    expect((await t.request('/api/vip/orders')).status).toBe(401);
  });
});

describe('unpaid orders', () => {
  it('the scheduled jobs cancel gateway orders after a day and bank transfers after a week; a late IPN then pays nothing', async () => {
    const user = await buyer();
    const vnpay = await startVnpay(user.auth);
    const transfer = (await (
      await t.request('/api/product/bank_transfer', { json: { plan: 'VIP1', months: 1 }, headers: user.auth })
    ).json()) as BankTransferResponse;
    // Read from the table: the buyer's access token expires long before a day passes.
    const statusOf = async (orderId: string) =>
      (
        await t.deps.db
          .select({ status: payments.status, payload: payments.providerPayload })
          .from(payments)
          .where(eq(payments.txnRef, orderId))
      )[0];
    clock.advance(DAY - 1);
    await runScheduledJobs(t.deps);
    expect((await statusOf(vnpay.orderId))?.status).toBe('pending');

    clock.advance(1);
    const results = await runScheduledJobs(t.deps);
    expect(results).toContainEqual({ name: 'stale-orders', ok: true });
    expect((await statusOf(vnpay.orderId))?.status).toBe('cancelled');
    expect((await statusOf(transfer.orderId))?.status).toBe('pending');
    expect(await ipn(vnpayResult(vnpay.orderId, 207_000))).toEqual({ RspCode: '02', Message: 'Order already confirmed' });

    clock.advance(6 * DAY);
    await runScheduledJobs(t.deps);
    expect((await statusOf(transfer.orderId))?.status).toBe('cancelled');
    // The buyer's history says why (signed in again: the old token expired).
    const again = bearer((await login(t, user)).token);
    expect(await order(again, vnpay.orderId)).toMatchObject({ status: 'cancelled', reason: 'Đơn hàng đã hết hạn thanh toán' });
    expect(await subscriptionCount()).toBe(0);
  });
});

describe('VIP-only films', () => {
  it('a signed-in user without VIP gets the error flag (not error1); after paying the film opens', async () => {
    const id = await insertFilm(t.deps.db, 'phim-vip', 'Phim VIP');
    await t.deps.db.update(films).set({ vipOnly: true }).where(eq(films.id, id));
    const { auth } = await buyer();
    const before = (await (await t.request('/api/product/phim-vip', { headers: auth })).json()) as { error?: boolean; error1?: boolean };
    expect(before.error).toBe(true);
    expect(before.error1).toBeUndefined();
    const { orderId } = await startVnpay(auth, { plan: 'VIP1', months: 1 });
    await ipn(vnpayResult(orderId, 69_000));
    const after = (await (await t.request('/api/product/phim-vip', { headers: auth })).json()) as { error?: boolean; error1?: boolean };
    expect(after.error).toBeUndefined();
    expect(after.error1).toBeUndefined();
    expect((await t.deps.db.select().from(payments)).length).toBe(1);
  });
});

describe('payment configuration', () => {
  const production = { APP_ENV: 'production', JWT_SECRET: 'p'.repeat(40), PARTY_SECRET: 'q'.repeat(20) };

  it('outside production points the gateways at the local stand-ins with the demo secrets', () => {
    const config = loadConfig({ APP_ENV: 'development', PAYMENT_STANDIN_PORT: '9123' });
    expect(config.VNPAY_URL).toBe('http://127.0.0.1:9123/vnpay/paymentv2/vpcpay.html');
    expect(config.MOMO_ENDPOINT).toBe('http://127.0.0.1:9123/momo/v2/gateway/api/create');
    expect(config.VNPAY_HASH_SECRET).toBe(DEMO_PAYMENT_SECRETS.VNPAY_HASH_SECRET);
    expect(loadConfig({ APP_ENV: 'test', VNPAY_HASH_SECRET: 'mine-0123456789' }).VNPAY_HASH_SECRET).toBe('mine-0123456789');
  });

  it('production leaves unset gateways unset and refuses demo secrets and loopback gateway URLs', () => {
    const config = loadConfig(production);
    expect([config.VNPAY_HASH_SECRET, config.MOMO_SECRET_KEY, config.BANK_ACCOUNT_NUMBER]).toEqual([undefined, undefined, undefined]);
    expect(() => loadConfig({ ...production, VNPAY_HASH_SECRET: DEMO_PAYMENT_SECRETS.VNPAY_HASH_SECRET })).toThrow(/VNPAY_HASH_SECRET/);
    expect(() => loadConfig({ ...production, MOMO_SECRET_KEY: DEMO_PAYMENT_SECRETS.MOMO_SECRET_KEY })).toThrow(/MOMO_SECRET_KEY/);
    expect(() => loadConfig({ ...production, VNPAY_URL: 'http://127.0.0.1:8789/vnpay/paymentv2/vpcpay.html' })).toThrow(/VNPAY_URL/);
    expect(loadConfig({ ...production, VNPAY_HASH_SECRET: 'real-secret-from-vnpay' }).VNPAY_URL).toBe(
      'https://sandbox.vnpayment.vn/paymentv2/vpcpay.html',
    );
  });
});
