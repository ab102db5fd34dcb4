import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import { ACCOUNT_DATA_TEXTS } from '../../schemas/account-data';
import { adminEraseMember, listPendingErasures } from '../../services/account/erasure';
import { adminOnly } from './access';

const idParam = z.object({ id: z.coerce.number({ error: 'must be a user id' }).int('must be a user id').positive('must be a user id') });

/** /api/admin/account-deletions: members waiting for erasure; "Xóa ngay" for one who asked by phone (audited). */
export const adminAccountDeletionRoutes = new Hono<AppEnv>()
  .get('/', adminOnly, async (c) => c.json({ data: await listPendingErasures(c.var.db) }, 200))
  .post('/:id/erase', adminOnly, validate('param', idParam), async (c) => {
    await adminEraseMember(c.var.deps, c.var.duties.erase, c.var.viewer, c.req.valid('param').id, c.var.deps.now());
    return c.json({ ok: true as const, message: ACCOUNT_DATA_TEXTS.adminErased }, 200);
  });
