// The signed-in member's own library under /api/me (docs/decisions/0800-member-library.md). Personal:
// every answer is Cache-Control: no-store (the app's default), never a shared cache's.
import { Hono } from 'hono';
import { requireSession, requireViewer } from '../lib/auth-middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import {
  historyQuerySchema,
  progressPutSchema,
  progressQuerySchema,
  pushSubscriptionSchema,
  pushUnsubscribeSchema,
  slugParamSchema,
  watchlistPutSchema,
} from '../schemas/library';
import { clearHistory, deleteFilmHistory, filmProgress, history, saveProgress } from '../services/library/progress';
import { deleteWatchlist, listWatchlist, markWatchlistSeen, putWatchlist } from '../services/library/watchlist';
import { deleteSubscription, saveSubscription } from '../services/push/subscriptions';

/** Mounted under /api/me. */
export const meRoutes = new Hono<AppEnv>()
  // The reads load the member in their own batch (services/auth/viewer.ts: batchAsMember), no round trip of their own.
  .get('/watchlist', requireSession, async (c) => {
    return c.json(await listWatchlist(c.var.db, c.var.session, c.var.deps.now()), 200);
  })
  .post('/watchlist/seen', requireViewer, async (c) => {
    return c.json(await markWatchlistSeen(c.var.db, c.var.viewer.id, c.var.deps.now()), 200);
  })
  .put('/watchlist/:slug', requireViewer, validate('param', slugParamSchema), validate('json', watchlistPutSchema), async (c) => {
    const { slug } = c.req.valid('param');
    const { notify } = c.req.valid('json');
    const entry = await putWatchlist(c.var.db, { userId: c.var.viewer.id, slug, notify, now: c.var.deps.now() });
    return c.json(entry, 200);
  })
  .delete('/watchlist/:slug', requireViewer, validate('param', slugParamSchema), async (c) => {
    return c.json(await deleteWatchlist(c.var.db, { userId: c.var.viewer.id, slug: c.req.valid('param').slug }), 200);
  })
  .put('/progress', requireViewer, validate('json', progressPutSchema), async (c) => {
    const { items } = c.req.valid('json');
    return c.json(await saveProgress(c.var.db, { userId: c.var.viewer.id, items, now: c.var.deps.now() }), 200);
  })
  .get('/progress', requireSession, validate('query', progressQuerySchema), async (c) => {
    return c.json(await filmProgress(c.var.db, c.var.session, c.var.deps.now(), c.req.valid('query').slug), 200);
  })
  .get('/history', requireSession, validate('query', historyQuerySchema), async (c) => {
    return c.json(await history(c.var.db, c.var.session, c.var.deps.now(), c.req.valid('query').page), 200);
  })
  .delete('/history/:slug', requireViewer, validate('param', slugParamSchema), async (c) => {
    return c.json(await deleteFilmHistory(c.var.db, c.var.viewer.id, c.req.valid('param').slug), 200);
  })
  .delete('/history', requireViewer, async (c) => {
    return c.json(await clearHistory(c.var.db, c.var.viewer.id), 200);
  })
  .post('/push-subscriptions', requireViewer, validate('json', pushSubscriptionSchema), async (c) => {
    const result = await saveSubscription(c.var.deps, {
      userId: c.var.viewer.id,
      subscription: c.req.valid('json'),
      now: c.var.deps.now(),
    });
    return c.json(result, 201);
  })
  .delete('/push-subscriptions', requireViewer, validate('json', pushUnsubscribeSchema), async (c) => {
    return c.json(await deleteSubscription(c.var.db, { userId: c.var.viewer.id, endpoint: c.req.valid('json').endpoint }), 200);
  });
