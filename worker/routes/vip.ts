import { Hono } from 'hono';
import { requireViewer } from '../lib/auth-middleware';
import type { AppEnv } from '../lib/context';
import { notFound } from '../lib/errors';
import { validate } from '../lib/validate';
import { getOwnOrder, listOrders } from '../services/payments/orders';
import { DURATIONS, orderIdParamSchema, PLAN_LIST } from '../schemas/vip';

/** /api/vip: the plans (public) and the signed-in user's own orders. */
export const vipRoutes = new Hono<AppEnv>()
  .get('/plans', (c) => c.json({ plans: PLAN_LIST, durations: [...DURATIONS] }, 200))
  .get('/orders', requireViewer, async (c) => c.json({ orders: await listOrders(c.var.db, c.var.viewer.id, c.var.deps.now()) }, 200))
  .get('/orders/:orderId', requireViewer, validate('param', orderIdParamSchema), async (c) => {
    const order = await getOwnOrder(c.var.db, c.var.viewer.id, c.req.valid('param').orderId, c.var.deps.now());
    // Someone else's order answers like a missing one: order ids are not to be probed.
    if (!order) throw notFound('Không tìm thấy đơn hàng');
    return c.json(order, 200);
  });
