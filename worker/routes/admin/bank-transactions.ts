import { Hono } from 'hono';
import { requireRole } from '../../lib/auth-middleware';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import { sendMailSoon } from '../../lib/mail-soon';
import { attachBankTransaction, dismissBankTransaction, listBankTransactions } from '../../services/payments/bank-notifications';
import {
  adminBankTransactionsQuerySchema,
  attachBankTransactionBodySchema,
  bankTransactionIdParamSchema,
  dismissBankTransactionBodySchema,
} from '../../schemas/vip';

/**
 * /api/admin/bank-transactions?status=unmatched&page=: the bank's notifications ("Giao dịch chưa khớp" by
 * default); attach one to an order or dismiss it with a reason (role admin, both audited).
 */
export const adminBankTransactionRoutes = new Hono<AppEnv>()
  .use(requireRole('admin'))
  .get('/', validate('query', adminBankTransactionsQuerySchema), async (c) => {
    return c.json(await listBankTransactions(c.var.deps, c.req.valid('query')), 200);
  })
  .post('/:id/attach', validate('param', bankTransactionIdParamSchema), validate('json', attachBankTransactionBodySchema), async (c) => {
    const { id, email } = c.var.viewer;
    const order = await attachBankTransaction(c.var.deps, c.req.valid('param').id, c.req.valid('json').orderId, { id, email });
    sendMailSoon(c);
    return c.json(
      { ok: true as const, orderId: order.txnRef, paymentCode: order.paymentCode, message: 'Đã gắn giao dịch vào đơn hàng' },
      200,
    );
  })
  .post('/:id/dismiss', validate('param', bankTransactionIdParamSchema), validate('json', dismissBankTransactionBodySchema), async (c) => {
    const { id, email } = c.var.viewer;
    await dismissBankTransaction(c.var.deps, c.req.valid('param').id, c.req.valid('json').reason, { id, email });
    return c.json({ ok: true as const, message: 'Đã bỏ qua giao dịch' }, 200);
  });
