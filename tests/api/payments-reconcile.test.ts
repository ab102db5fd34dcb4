// Reconciliation against the gateway stand-ins (demo/payment-gateways.ts): the stand-ins' IPNs go to a port where
// nothing listens (the IPN is lost), so only the scheduled job's queries (VNPay querydr, MoMo query) can settle the
// orders paid or cancelled on their pages. Settling goes through the IPN's own conditional update: replays change nothing.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentStandins, type PaymentStandins } from '../../demo/payment-gateways';
import { mailOutbox, payments, subscriptions } from '../../worker/db/schema';
import { reconcileOrders } from '../../worker/scheduled';
import type { GatewayOrderResponse, Order } from '../../worker/schemas/vip';
import { createTestApp, type TestApp } from '../helpers/app';
import { bearer, signedInUser } from '../helpers/auth';

let t: TestApp;
let standins: PaymentStandins;
const MINUTE = 60_000;

beforeAll(async () => {
  const base = await createTestApp();
  const { VNPAY_TMN_CODE, VNPAY_HASH_SECRET, MOMO_PARTNER_CODE, MOMO_ACCESS_KEY, MOMO_SECRET_KEY } = base.deps.config;
  standins = await startPaymentStandins({
    port: 0,
    // Port 9 (discard): nothing answers there, so every IPN the stand-ins send is lost.
    publicUrl: 'http://127.0.0.1:9',
    vnpay: { tmnCode: VNPAY_TMN_CODE as string, hashSecret: VNPAY_HASH_SECRET as string },
    momo: { partnerCode: MOMO_PARTNER_CODE as string, accessKey: MOMO_ACCESS_KEY as string, secretKey: MOMO_SECRET_KEY as string },
  });
  t = await createTestApp({
    config: {
      PUBLIC_URL: 'http://127.0.0.1:9',
      VNPAY_URL: `${standins.url}/vnpay/paymentv2/vpcpay.html`,
      MOMO_ENDPOINT: `${standins.url}/momo/v2/gateway/api/create`,
    },
  });
});

afterAll(async () => {
  await standins?.close();
});

async function checkout(gateway: 'vnpay' | 'momo', auth: Record<string, string>) {
  const res = await t.request(`/api/product/${gateway}`, { json: { plan: 'VIP1', months: 3 }, headers: auth });
  expect(res.status).toBe(200);
  return (await res.json()) as GatewayOrderResponse;
}

/** Presses "Thanh toán" or "Hủy" on the stand-in's page; answers the signed redirect query (what the IPN carried too). */
async function pressButton(paymentUrl: string, choice: 'pay' | 'cancel'): Promise<URLSearchParams> {
  const html = await (await fetch(paymentUrl)).text();
  const action = html.match(/action="([^"]+)"/)?.[1]?.replace(/&#38;/g, '&') as string;
  const hidden = [...html.matchAll(/type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(([, k, v]) => [
    k as string,
    (v as string).replace(/&#38;/g, '&'),
  ]);
  const res = await fetch(new URL(action, paymentUrl), {
    method: 'POST',
    body: new URLSearchParams([...hidden, ['choice', choice]]),
    redirect: 'manual',
  });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location') as string).searchParams;
}

const orderOf = async (orderId: string, auth: Record<string, string>) =>
  (await (await t.request(`/api/vip/orders/${orderId}`, { headers: auth })).json()) as Order;
const rowOf = async (orderId: string) => (await t.deps.db.select().from(payments).where(eq(payments.txnRef, orderId)))[0]!;
const grantsOf = async (orderId: string) => {
  const row = await rowOf(orderId);
  return t.deps.db.select().from(subscriptions).where(eq(subscriptions.paymentId, row.id));
};
const receiptsOf = async (orderId: string) =>
  t.deps.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.dedupeKey, `receipt:${orderId}`));
/** The job as the scheduler runs it, `minutes` after now. */
const runJob = (minutes: number) => reconcileOrders.run(t.deps, t.deps.now() + minutes * MINUTE);

describe('reconciling orders whose IPN was lost', () => {
  it('VNPay: an order paid at the gateway is paid by the job (querydr), once, however often it runs or the IPN replays', async () => {
    const user = await signedInUser(t);
    const auth = bearer(user.session.token);
    const { orderId, paymentUrl } = await checkout('vnpay', auth);
    const ipn = await pressButton(paymentUrl, 'pay');
    expect((await orderOf(orderId, auth)).status).toBe('pending');

    // Younger than 15 minutes: left to its IPN.
    await runJob(10);
    expect((await orderOf(orderId, auth)).status).toBe('pending');

    await runJob(16);
    const paid = await orderOf(orderId, auth);
    expect(paid).toMatchObject({ status: 'paid', transactionNo: ipn.get('vnp_TransactionNo') });
    expect(await grantsOf(orderId)).toHaveLength(1);
    expect(await receiptsOf(orderId)).toHaveLength(1);
    // VNPay's own answer is kept with the order.
    const raw = JSON.parse((await rowOf(orderId)).gatewayRaw ?? '{}');
    expect(raw).toMatchObject({ vnp_Command: 'querydr', vnp_ResponseCode: '00', vnp_TxnRef: orderId, vnp_TransactionStatus: '00' });
    expect(raw.vnp_SecureHash).toMatch(/^[0-9a-f]{128}$/);

    // Replays: the job again, and the lost IPN arriving late.
    await runJob(40);
    const late = await t.request(`/api/payment/vnpay-ipn?${ipn}`);
    expect(await late.json()).toEqual({ RspCode: '02', Message: 'Order already confirmed' });
    expect(await grantsOf(orderId)).toHaveLength(1);
    expect(await receiptsOf(orderId)).toHaveLength(1);
    expect(await orderOf(orderId, auth)).toEqual(paid);
  });

  it("VNPay: an order cancelled at the gateway is marked failed with VNPay's status", async () => {
    const user = await signedInUser(t);
    const auth = bearer(user.session.token);
    const { orderId, paymentUrl } = await checkout('vnpay', auth);
    await pressButton(paymentUrl, 'cancel');
    await runJob(16);
    const order = await orderOf(orderId, auth);
    expect(order.status).toBe('failed');
    expect(order.reason).toBeTruthy();
    expect(await grantsOf(orderId)).toHaveLength(0);
  });

  it('MoMo: an order paid in the wallet is paid by the job (v2 query); the late IPN changes nothing', async () => {
    const user = await signedInUser(t);
    const auth = bearer(user.session.token);
    const { orderId, paymentUrl } = await checkout('momo', auth);
    const result = await pressButton(paymentUrl, 'pay');
    expect((await orderOf(orderId, auth)).status).toBe('pending');

    await runJob(16);
    const paid = await orderOf(orderId, auth);
    expect(paid).toMatchObject({ status: 'paid', transactionNo: result.get('transId') });
    expect(await grantsOf(orderId)).toHaveLength(1);
    expect(JSON.parse((await rowOf(orderId)).gatewayRaw ?? '{}')).toMatchObject({ orderId, resultCode: 0 });

    const late = await t.request('/api/payment/momo-ipn', { json: Object.fromEntries(result) });
    expect(late.status).toBe(204);
    await runJob(40);
    expect(await grantsOf(orderId)).toHaveLength(1);
    expect(await receiptsOf(orderId)).toHaveLength(1);
    expect(await orderOf(orderId, auth)).toEqual(paid);
  });

  it('MoMo: a payment page still open stays pending (1000); refused in the wallet, it is marked failed', async () => {
    const user = await signedInUser(t);
    const auth = bearer(user.session.token);
    const open = await checkout('momo', auth);
    const refused = await checkout('momo', auth);
    await pressButton(refused.paymentUrl, 'cancel');
    await runJob(16);
    expect((await orderOf(open.orderId, auth)).status).toBe('pending');
    expect(await orderOf(refused.orderId, auth)).toMatchObject({ status: 'failed', reason: 'Giao dịch bị từ chối bởi người dùng.' });
  });
});
