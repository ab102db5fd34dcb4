import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { viewerOf } from '../lib/auth-middleware';
import type { AppEnv, Viewer } from '../lib/context';
import { badRequest, unauthorized } from '../lib/errors';
import { validate } from '../lib/validate';
import { clientIp } from '../services/rate-limit';
import { handleMomoIpn, handleVnpayIpn, paymentReturn, startBankTransfer, startMomo, startVnpay } from '../services/payments/checkout';
import { createOrderBodySchema, VIP_TEXTS } from '../schemas/vip';

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

/** Gateway callbacks (no auth: the signature is the proof) and the return redirect check. */
export const paymentRoutes = new Hono<AppEnv>()
  // VNPay expects HTTP 200 with { RspCode, Message } whatever happened.
  .get('/vnpay-ipn', async (c) => c.json(await handleVnpayIpn(c.var.deps, c.req.query()), 200))
  .post('/momo-ipn', async (c) => {
    const body: unknown = await c.req.json().catch(() => null);
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('body', 'phải là JSON object');
    await handleMomoIpn(c.var.deps, body as Record<string, unknown>);
    return c.body(null, 204);
  })
  .get('/vnpay-return', async (c) => c.json(await paymentReturn(c.var.deps, 'vnpay', c.req.query()), 200))
  .get('/momo-return', async (c) => c.json(await paymentReturn(c.var.deps, 'momo', c.req.query()), 200));
