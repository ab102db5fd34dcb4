import { Hono } from 'hono';
import { requireRole } from '../../lib/auth-middleware';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import { sendMailSoon } from '../../lib/mail-soon';
import { confirmBankTransfer } from '../../services/payments/checkout';
import { listAllOrders } from '../../services/payments/orders';
import { ADMIN_TEXTS } from '../../schemas/admin';
import { adminOrdersQuerySchema, orderIdParamSchema } from '../../schemas/vip';

/** /api/admin/orders?status=&method=&page=: every order with its user, and confirming a bank transfer (role admin). */
export const adminOrderRoutes = new Hono<AppEnv>()
  .use(requireRole('admin'))
  .get('/', validate('query', adminOrdersQuerySchema), async (c) => {
    const { status, method, page } = c.req.valid('query');
    return c.json(await listAllOrders(c.var.db, { status, method, page, now: c.var.deps.now() }), 200);
  })
  .post('/:orderId/confirm', validate('param', orderIdParamSchema), async (c) => {
    const { orderId } = c.req.valid('param');
    const { id, email } = c.var.viewer;
    await confirmBankTransfer(c.var.deps, orderId, { id, email });
    // The member's receipt (put in the outbox with the payment).
    sendMailSoon(c);
    return c.json({ ok: true as const, orderId, message: ADMIN_TEXTS.paymentConfirmed, confirmedBy: { id, email } }, 200);
  });
