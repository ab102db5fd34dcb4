import { Hono } from 'hono';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { login, logout, refreshSession, registerUser } from '../services/auth/accounts';
import { loginBodySchema, refreshBodySchema, registerBodySchema } from '../schemas/auth';
import { clientIp } from '../services/rate-limit';

/** The product's account calls, at its paths (/api/dang-ky, /api/dang-nhap, /api/refresh_token) plus logout. */
export const authRoutes = new Hono<AppEnv>()
  .post('/dang-ky', validate('json', registerBodySchema), async (c) => {
    const user = await registerUser(c.var.deps, { ...c.req.valid('json'), ip: clientIp(c.req.raw.headers) });
    return c.json({ message: 'Đăng ký thành công', user }, 201);
  })
  .post('/dang-nhap', validate('json', loginBodySchema), async (c) => {
    const session = await login(c.var.deps, { ...c.req.valid('json'), ip: clientIp(c.req.raw.headers) });
    return c.json(session, 200);
  })
  .post('/refresh_token', validate('json', refreshBodySchema), async (c) => {
    const refreshed = await refreshSession(c.var.deps, c.req.valid('json').token);
    return c.json(refreshed, 200);
  })
  .post('/dang-xuat', validate('json', refreshBodySchema), async (c) => {
    await logout(c.var.deps, c.req.valid('json').token);
    return c.json({ ok: true as const, message: 'Bạn đã đăng xuất thành công!' }, 200);
  });
