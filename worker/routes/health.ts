import { Hono } from 'hono';
import type { AppEnv } from '../lib/context';
import { checkDatabase } from '../services/health';

export const healthRoutes = new Hono<AppEnv>().get('/', async (c) => {
  await checkDatabase(c.var.db);
  return c.json({ ok: true, db: 'ok' } as const, 200);
});
