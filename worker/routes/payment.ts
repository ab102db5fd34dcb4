import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { viewerOf } from '../lib/auth-middleware';
import type { AppEnv, Viewer } from '../lib/context';
import { badRequest, unauthorized } from '../lib/errors';
import { validate } from '../lib/validate';
import { sendMailSoon } from '../lib/mail-soon';
import { clientIp } from '../services/rate-limit';
import { checkSepayKey, receiveSepayNotification } from '../services/payments/bank-notifications';
import { handleMomoIpn, handleVnpayIpn, paymentReturn, startBankTransfer, startMomo, startVnpay } from '../services/payments/checkout';
import { createOrderBodySchema, sepayWebhookSchema, VIP_TEXTS } from '../schemas/vip';

type BuyerEnv = AppEnv & { Variables: { viewer: Viewer } };

/** Subscribing and paying need a signed-in user, told so in the product's own words. */
const requireBuyer = createMiddleware<BuyerEnv>(async (c, next) => {
  const viewer = await viewerOf(c.var);
  if (!viewer) throw unauthorized(VIP_TEXTS.loginRequired);
  c.set('viewer', viewer);
  await next();
});

/** POST /api/product/{vnpay|momo|bank_transfer}: a pending order priced on the server. */
export const checkoutRoutes = new Hono<AppEnv>()
  .post('/vnpay', requireBuyer, validate('json', createOrderBodySchema), async (c) => {
    const { plan, months } = c.req.valid('json');
    const answer = await startVnpay(c.var.deps, { buyer: c.var.viewer, plan, months, ipAddr: clientIp(c.req.raw.headers) });
    return c.json(answer, 200);
  })
  .post('/momo', requireBuyer, validate('json', createOrderBodySchema), async (c) => {
    const { plan, months } = c.req.valid('json');
    return c.json(await startMomo(c.var.deps, { buyer: c.var.viewer, plan, months }), 200);
  })
  .post('/bank_transfer', requireBuyer, validate('json', createOrderBodySchema), async (c) => {
    const { plan, months } = c.req.valid('json');
    return c.json(await startBankTransfer(c.var.deps, { buyer: c.var.viewer, plan, months }), 200);
  });

/** SePay's API key before anything is read: 503 when none is configured, 401 when it is wrong or missing. */
const requireSepayKey = createMiddleware<AppEnv>(async (c, next) => {
  checkSepayKey(c.var.deps.config, c.req.header('authorization'));
  await next();
});

/** Gateway callbacks (no auth: the signature is the proof), the bank's notifications and the return redirect check. */
export const paymentRoutes = new Hono<AppEnv>()
  // VNPay expects HTTP 200 with { RspCode, Message } whatever happened.
  // A payment puts its receipt in the mail outbox (services/payments/orders.ts payOrder): sent after the answer.
  .get('/vnpay-ipn', async (c) => {
    const answer = await handleVnpayIpn(c.var.deps, c.req.query());
    sendMailSoon(c);
    return c.json(answer, 200);
  })
  .post('/momo-ipn', async (c) => {
    const body: unknown = await c.req.json().catch(() => null);
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('body', 'phải là JSON object');
    await handleMomoIpn(c.var.deps, body as Record<string, unknown>);
    sendMailSoon(c);
    return c.body(null, 204);
  })
  // SePay retries anything but a 2xx: a stored notification is answered { success: true }, decided or not.
  .post('/sepay-webhook', requireSepayKey, validate('json', sepayWebhookSchema), async (c) => {
    await receiveSepayNotification(c.var.deps, c.req.valid('json'), await c.req.json());
    sendMailSoon(c);
    return c.json({ success: true as const }, 200);
  })
  .get('/vnpay-return', async (c) => c.json(await paymentReturn(c.var.deps, 'vnpay', c.req.query()), 200))
  .get('/momo-return', async (c) => c.json(await paymentReturn(c.var.deps, 'momo', c.req.query()), 200));
