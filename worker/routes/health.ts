import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../lib/context';

export const healthRoutes = new Hono<AppEnv>().get('/', async (c) => {
  await c.var.db.run(sql`select 1`);
  return c.json({ ok: true, db: 'ok' } as const, 200);
});
