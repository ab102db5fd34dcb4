import { Hono } from 'hono';
import { requireViewer } from '../lib/auth-middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { createComment, listCommentsBySlug } from '../services/comments/comments';
import { pushCommentToRoom } from '../services/comments/room-push';
import { slugParamSchema } from '../schemas/catalogue';
import { commentsQuerySchema, createCommentBodySchema } from '../schemas/comments';

/** Mounted under /api/product, ahead of the catalogue's /:slug/:episode. */
export const commentRoutes = new Hono<AppEnv>()
  .post('/comment', requireViewer, validate('json', createCommentBodySchema), async (c) => {
    const body = c.req.valid('json');
    const { deps } = c.var;
    const { filmSlug, comment } = await createComment(c.var.db, {
      filmSlug: body.titlefilm,
      userId: c.var.viewer.id,
      authorName: c.var.viewer.name,
      text: body.contentcomment,
      parentId: body.parent_id ?? null,
      now: deps.now(),
    });
    // The push runs after the response: on Workers via waitUntil, on Node as a floating promise.
    const push = pushCommentToRoom(deps, filmSlug, comment);
    try {
      c.executionCtx.waitUntil(push);
    } catch {
      // No ExecutionContext outside Workers; pushCommentToRoom never rejects.
    }
    return c.json(comment, 201);
  })
  .get('/:slug/comments', validate('param', slugParamSchema), validate('query', commentsQuerySchema), async (c) => {
    const data = await listCommentsBySlug(c.var.db, c.req.valid('param').slug, { sinceId: c.req.valid('query').since });
    return c.json({ data }, 200);
  });
