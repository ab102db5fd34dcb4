import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../lib/context';
import { validate } from '../../lib/validate';
import { sendMailSoon } from '../../lib/mail-soon';
import { updatePermissionsSchema, updateRolesSchema, usersQuerySchema } from '../../schemas/admin';
import { listUsers, resetPassword, updatePermissions, updateRoles } from '../../services/admin/users';
import { adminOnly } from './access';

const idParam = z.object({ id: z.coerce.number({ error: 'must be a user id' }).int('must be a user id').positive('must be a user id') });

/** Mounted under /api (the spec's paths) — admin only. */
export const adminUserRoutes = new Hono<AppEnv>()
  .get('/getalluser', adminOnly, validate('query', usersQuerySchema), async (c) => {
    return c.json(await listUsers(c.var.db, c.req.valid('query'), c.var.deps.now()), 200);
  })
  .post('/update_roles', adminOnly, validate('json', updateRolesSchema), async (c) => {
    const user = await updateRoles(c.var.db, c.var.viewer, c.req.valid('json'), c.var.deps.now());
    return c.json({ message: `Đã cập nhật vai trò của ${user.email}`, user }, 200);
  })
  .post('/update_permissions', adminOnly, validate('json', updatePermissionsSchema), async (c) => {
    const user = await updatePermissions(c.var.db, c.var.viewer, c.req.valid('json'), c.var.deps.now());
    return c.json({ message: `Đã cập nhật quyền của ${user.email}`, user }, 200);
  })
  .post('/admin/users/:id/reset-password', adminOnly, validate('param', idParam), async (c) => {
    const temporaryPassword = await resetPassword(c.var.db, c.var.viewer, c.req.valid('param').id, c.var.deps.now(), c.var.deps.config);
    sendMailSoon(c);
    return c.json({ message: 'Đã đặt lại mật khẩu; mọi phiên đăng nhập của người dùng đã kết thúc.', temporaryPassword }, 200);
  });
