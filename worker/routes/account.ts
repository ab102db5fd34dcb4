import { Hono } from 'hono';
import { requireViewer } from '../lib/auth-middleware';
import type { AppEnv } from '../lib/context';
import { setRefreshCookie } from '../lib/refresh-cookie';
import { validate } from '../lib/validate';
import { changePassword, getAccount, logoutEverywhere } from '../services/auth/accounts';
import { type AccountResponse, changePasswordBodySchema } from '../schemas/account';
import type { LoginResponse } from '../schemas/auth';

/** The signed-in user's own account: /api/account. */
export const accountRoutes = new Hono<AppEnv>()
  .use(requireViewer)
  .get('/', async (c) => {
    const account = await getAccount(c.var.db, c.var.viewer.id);
    // Subscriptions as the viewer was read for this request (no second query).
    const { subscriptions } = c.var.viewer;
    // Permissions as the API applies them (admin-granted ∪ subscriptions), plus the subscriptions themselves.
    const body: AccountResponse = {
      ...account,
      permissions: c.var.viewer.permissions,
      subscription: subscriptions[0] ?? null,
      subscriptions,
    };
    return c.json(body, 200);
  })
  .post('/password', validate('json', changePasswordBodySchema), async (c) => {
    const input = c.req.valid('json');
    const { refreshToken, ...session } = await changePassword(c.var.deps, c.var.viewer.id, input);
    if (input.remember) setRefreshCookie(c, refreshToken);
    const body: LoginResponse = input.remember ? session : { ...session, refreshToken };
    return c.json({ message: 'Đổi mật khẩu thành công', ...body }, 200);
  })
  .post('/logout-all', async (c) => {
    await logoutEverywhere(c.var.deps, c.var.viewer.id);
    return c.json({ ok: true as const, message: 'Bạn đã đăng xuất khỏi mọi thiết bị.' }, 200);
  });
