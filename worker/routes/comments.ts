import { Hono } from 'hono';
import { afterResponse } from '../lib/after-response';
import { requireSession, requireViewer } from '../lib/auth-middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { createComment, listCommentsBySlug } from '../services/comments/comments';
import { commentRoomAccess } from '../services/comments/reports';
import { pushCommentToRoom } from '../services/comments/room-push';
import { slugParamSchema } from '../schemas/catalogue';
import { commentsQuerySchema, createCommentBodySchema } from '../schemas/comments';

/** Mounted under /api/product, ahead of the catalogue's /:slug/:episode. */
export const commentRoutes = new Hono<AppEnv>()
  .post('/comment', requireViewer, validate('json', createCommentBodySchema), async (c) => {
    const body = c.req.valid('json');
    const { deps } = c.var;
    const { filmSlug, comment, visible } = await createComment(c.var.db, {
      filmSlug: body.titlefilm,
      viewer: c.var.viewer,
      text: body.contentcomment,
      parentId: body.parent_id ?? null,
      spoiler: body.spoiler,
      episode: body.episode,
      now: deps.now(),
    });
    // The push runs after the response: on Workers via waitUntil, on Node as a floating promise. A comment held
    // for review goes to nobody: its author has it from this answer.
    if (visible) afterResponse(c, pushCommentToRoom(deps, filmSlug, comment));
    return c.json(comment, 201);
  })
  .get('/:slug/comments', validate('param', slugParamSchema), validate('query', commentsQuerySchema), async (c) => {
    const body = await listCommentsBySlug(c.var.db, c.req.valid('param').slug, {
      session: c.var.session,
      now: c.var.deps.now(),
      sinceId: c.req.valid('query').since,
    });
    return c.json(body, 200);
  })
  // The live room's member token (and the member's mute and hidden authors), asked for on every (re)connect.
  .get('/:slug/comments/token', requireSession, validate('param', slugParamSchema), async (c) => {
    return c.json(await commentRoomAccess(c.var.deps, c.var.db, c.var.session, c.req.valid('param').slug), 200);
  });
