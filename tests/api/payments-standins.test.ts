// The demo's gateway stand-ins (demo/payment-gateways.ts) against the real API over HTTP: the pages take
// our signed requests, call our IPN before redirecting, and the redirect query verifies on our side.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../worker/db/schema';
import { startPaymentStandins, type PaymentStandins } from '../../demo/payment-gateways';
import type { GatewayOrderResponse, Order, PaymentReturnResponse } from '../../worker/schemas/vip';
import { createTestApp, type TestApp } from '../helpers/app';
import { bearer, signedInUser } from '../helpers/auth';

let t: TestApp;
let api: Server;
let standins: PaymentStandins;

beforeAll(async () => {
  // The API on a real port (the stand-ins call its IPN), the app itself built once both ports are known.
  let handler: RequestListener | undefined;
  api = createServer((req, res) => handler?.(req, res));
  await new Promise<void>((done) => api.listen(0, '127.0.0.1', done));
  const publicUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  const base = await createTestApp();
  const { VNPAY_TMN_CODE, VNPAY_HASH_SECRET, MOMO_PARTNER_CODE, MOMO_ACCESS_KEY, MOMO_SECRET_KEY } = base.deps.config;
  standins = await startPaymentStandins({
    port: 0,
    publicUrl,
    vnpay: { tmnCode: VNPAY_TMN_CODE as string, hashSecret: VNPAY_HASH_SECRET as string },
    momo: { partnerCode: MOMO_PARTNER_CODE as string, accessKey: MOMO_ACCESS_KEY as string, secretKey: MOMO_SECRET_KEY as string },
  });
  t = await createTestApp({
    config: {
      PUBLIC_URL: publicUrl,
      VNPAY_URL: `${standins.url}/vnpay/paymentv2/vpcpay.html`,
      MOMO_ENDPOINT: `${standins.url}/momo/v2/gateway/api/create`,
    },
  });
  handler = getRequestListener(t.app.fetch);
});

afterAll(async () => {
  await standins?.close();
  await new Promise((done) => api?.close(done));
});

async function checkout(gateway: 'vnpay' | 'momo', auth: Record<string, string>) {
  const res = await t.request(`/api/product/${gateway}`, { json: { plan: 'VIP1', months: 3 }, headers: auth });
  expect(res.status).toBe(200);
  return (await res.json()) as GatewayOrderResponse;
}

/** Opens the stand-in's page, then presses one of its two buttons; answers the redirect target. */
async function pressButton(paymentUrl: string, choice: 'pay' | 'cancel'): Promise<URL> {
  const pageRes = await fetch(paymentUrl);
  expect(pageRes.status).toBe(200);
  const html = await pageRes.text();
  expect(html).toContain('207.000 VND');
  expect(html).toContain('Thanh toán');
  expect(html).toContain('Hủy');
  const action = html.match(/action="([^"]+)"/)?.[1]?.replace(/&#38;/g, '&') as string;
  const hidden = [...html.matchAll(/type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(([, k, v]) => [
    k as string,
    (v as string).replace(/&#38;/g, '&'),
  ]);
  const form = new URLSearchParams([...hidden, ['choice', choice]]);
  const res = await fetch(new URL(action, paymentUrl), { method: 'POST', body: form, redirect: 'manual' });
  expect(res.status).toBe(302);
  return new URL(res.headers.get('location') as string);
}

describe('gateway stand-ins', () => {
  it('VNPay: paying calls our IPN first (the order is paid on arrival) and the return query verifies', async () => {
    const user = await signedInUser(t);
    const auth = bearer(user.session.token);
    const { orderId, paymentUrl } = await checkout('vnpay', auth);
    const back = await pressButton(paymentUrl, 'pay');
    expect(back.pathname).toBe('/dang-ky-goi-vip/VIP1/payment/vnpay-return');
    const order = (await (await t.request(`/api/vip/orders/${orderId}`, { headers: auth })).json()) as Order;
    expect(order.status).toBe('paid');
    // VNPay's IPN parameters are kept with the order as they came, hash included (as SePay's notifications are).
    const [row] = await t.deps.db.select().from(payments).where(eq(payments.txnRef, orderId));
    expect(JSON.parse(row?.gatewayRaw ?? '{}')).toEqual(Object.fromEntries(back.searchParams));
    const shown = (await (await t.request(`/api/payment/vnpay-return${back.search}`)).json()) as PaymentReturnResponse;
    expect(shown).toMatchObject({ orderId, status: 'paid', gatewayResult: 'success' });
  });

  it('MoMo: cancelling fails the order through the IPN and the return query says why', async () => {
    const user = await signedInUser(t);
    const auth = bearer(user.session.token);
    const { orderId, paymentUrl } = await checkout('momo', auth);
    expect(paymentUrl.startsWith(standins.url)).toBe(true);
    const back = await pressButton(paymentUrl, 'cancel');
    expect(back.pathname).toBe('/dang-ky-goi-vip/VIP1/payment/momo-return');
    const order = (await (await t.request(`/api/vip/orders/${orderId}`, { headers: auth })).json()) as Order;
    expect(order).toMatchObject({ status: 'failed', reason: 'Giao dịch bị từ chối bởi người dùng.' });
    const shown = (await (await t.request(`/api/payment/momo-return${back.search}`)).json()) as PaymentReturnResponse;
    expect(shown).toMatchObject({ orderId, status: 'failed', gatewayResult: 'failed' });
  });

  it('refuses a payment page whose signature was tampered with', async () => {
    const user = await signedInUser(t);
    const { paymentUrl } = await checkout('vnpay', bearer(user.session.token));
    const tampered = new URL(paymentUrl);
    tampered.searchParams.set('vnp_Amount', '100');
    expect((await fetch(tampered)).status).toBe(400);
  });
});
