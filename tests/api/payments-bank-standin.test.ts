// The demo's bank stand-in (demo/payment-gateways.ts, /bank) against the real API over HTTP: a transfer
// made on its page reaches our webhook as SePay's notification, with the API key, and is retried when
// our side fails, so the order is paid once.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentStandins, type PaymentStandins } from '../../demo/payment-gateways';
import { bankTransactions, subscriptions } from '../../worker/db/schema';
import type { BankTransferResponse, Order } from '../../worker/schemas/vip';
import { createTestApp, type TestApp } from '../helpers/app';
import { bearer, signedInUser } from '../helpers/auth';

let t: TestApp;
let api: Server;
let standins: PaymentStandins;
/** Webhook calls our side answers 503 before it takes them (a deploy, an outage). */
let failWebhook = 0;
const webhookCalls: { authorization: string | undefined }[] = [];

beforeAll(async () => {
  let handler: RequestListener | undefined;
  api = createServer((req, res) => {
    if (req.url === '/api/payment/sepay-webhook') {
      webhookCalls.push({ authorization: req.headers.authorization });
      if (failWebhook > 0) {
        failWebhook -= 1;
        res.writeHead(503, { 'content-type': 'application/json' });
        return res.end('{"error":{"code":"unavailable","message":"down"}}');
      }
    }
    handler?.(req, res);
  });
  await new Promise<void>((done) => api.listen(0, '127.0.0.1', done));
  const publicUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  t = await createTestApp({ config: { PUBLIC_URL: publicUrl } });
  const { config } = t.deps;
  standins = await startPaymentStandins({
    port: 0,
    publicUrl,
    vnpay: { tmnCode: config.VNPAY_TMN_CODE as string, hashSecret: config.VNPAY_HASH_SECRET as string },
    momo: {
      partnerCode: config.MOMO_PARTNER_CODE as string,
      accessKey: config.MOMO_ACCESS_KEY as string,
      secretKey: config.MOMO_SECRET_KEY as string,
    },
    sepay: {
      apiKey: config.SEPAY_API_KEY as string,
      accountNumber: config.BANK_ACCOUNT_NUMBER as string,
      bankName: config.BANK_NAME as string,
      retryDelaysMs: [50, 50, 100],
    },
  });
  handler = getRequestListener(t.app.fetch);
});

afterAll(async () => {
  await standins?.close();
  await new Promise((done) => api?.close(done));
});

async function transfer(fields: Record<string, string>): Promise<string> {
  const res = await fetch(`${standins.url}/bank/transfer`, { method: 'POST', body: new URLSearchParams(fields) });
  expect(res.status).toBe(200);
  return res.text();
}

describe('the bank stand-in', () => {
  it('shows a transfer form for the demo account', async () => {
    const res = await fetch(`${standins.url}/bank?amount=207000&note=PV23456789`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(t.deps.config.BANK_ACCOUNT_NUMBER as string);
    expect(html).toContain('value="207000"');
    expect(html).toContain('Chuyển khoản');
  });

  it('a transfer with the code pays the order through our webhook, with the key, retried after a failure, once', async () => {
    const user = await signedInUser(t);
    const auth = bearer(user.session.token);
    const details = (await (
      await t.request('/api/product/bank_transfer', { json: { plan: 'VIP1', months: 3 }, headers: auth })
    ).json()) as BankTransferResponse;
    failWebhook = 1;
    webhookCalls.length = 0;
    const page = await transfer({ accountNumber: details.bank.accountNumber, amount: '207.000', note: details.note });
    expect(page).toContain('sẽ thử lại');
    await expect
      .poll(async () => ((await (await t.request(`/api/vip/orders/${details.orderId}`, { headers: auth })).json()) as Order).status, {
        timeout: 5_000,
      })
      .toBe('paid');
    expect(webhookCalls.length).toBe(2);
    expect(webhookCalls.every((c) => c.authorization === `Apikey ${t.deps.config.SEPAY_API_KEY}`)).toBe(true);
    expect(await t.deps.db.select().from(subscriptions)).toHaveLength(1);
    const [stored] = await t.deps.db.select().from(bankTransactions);
    expect(stored).toMatchObject({ status: 'matched', transferAmount: 207_000, matchedCode: details.paymentCode });
    expect(stored?.content).toContain(details.paymentCode);
  });
});
