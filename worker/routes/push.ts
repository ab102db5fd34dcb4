import { Hono } from 'hono';
import type { AppEnv } from '../lib/context';
import { vapidKeys } from '../services/push/vapid';

/** Mounted under /api/push: the VAPID public key browsers subscribe with (applicationServerKey). */
export const pushRoutes = new Hono<AppEnv>().get('/public-key', async (c) => {
  const { publicKey } = await vapidKeys(c.var.deps.config);
  return c.json({ key: publicKey }, 200);
});
