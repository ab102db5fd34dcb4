import { Hono } from 'hono';
import { requireRole } from '../lib/auth-middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { confirmBankTransfer } from '../services/payments/checkout';
import { listAllOrders } from '../services/payments/orders';
import { adminOrdersQuerySchema, orderIdParamSchema } from '../schemas/vip';

/** /api/admin/orders: every order with its user, and confirming a bank transfer (role admin). */
export const adminOrderRoutes = new Hono<AppEnv>()
  .use(requireRole('admin'))
  .get('/', validate('query', adminOrdersQuerySchema), async (c) => {
    const { status, page } = c.req.valid('query');
    return c.json(await listAllOrders(c.var.db, { status, page, now: c.var.deps.now() }), 200);
  })
  .post('/:orderId/confirm', validate('param', orderIdParamSchema), async (c) => {
    const { orderId } = c.req.valid('param');
    await confirmBankTransfer(c.var.deps, orderId, c.var.viewer.id);
    return c.json({ ok: true as const, orderId, message: 'Đã xác nhận thanh toán' }, 200);
  });
