import { Hono } from 'hono';
import { afterResponse } from '../lib/after-response';
import { requireSession } from '../lib/auth-middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { createComment, listCommentsBySlug } from '../services/comments/comments';
import { commentRoomAccess } from '../services/comments/reports';
import { commentPush, pushAll } from '../services/comments/room-push';
import type { RoomPush } from '../../party/messages';
import { slugParamSchema } from '../schemas/catalogue';
import { commentsQuerySchema, createCommentBodySchema } from '../schemas/comments';

/** Mounted under /api/product, ahead of the catalogue's /:slug/:episode. */
export const commentRoutes = new Hono<AppEnv>()
  // The viewer is read in the post's own first batch (services/comments/comments.ts: two round trips a comment).
  .post('/comment', requireSession, validate('json', createCommentBodySchema), async (c) => {
    const body = c.req.valid('json');
    const { deps } = c.var;
    const posted = await createComment(c.var.db, {
      filmSlug: body.titlefilm,
      session: c.var.session,
      text: body.contentcomment,
      parentId: body.parent_id ?? null,
      spoiler: body.spoiler,
      episode: body.episode,
      ...(body.client_id ? { clientId: body.client_id } : {}),
      now: deps.now(),
    });
    const { filmSlug, comment } = posted;
    // A retry of a stored comment: the first answer again, nothing stored or pushed twice.
    if (!posted.created) return c.json(comment, 200);
    // The push runs after the response: on Workers via waitUntil, on Node as a floating promise. A comment held
    // for review goes to nobody: its author has it from this answer. A change of slow mode is announced first.
    const pushes: RoomPush[] = [];
    if (posted.slowMode !== null) pushes.push({ type: 'slow-mode', seconds: posted.slowMode });
    if (posted.visible) pushes.push(commentPush(comment, posted));
    if (pushes.length)
      afterResponse(
        c,
        pushAll(
          deps,
          pushes.map((message) => ({ slug: filmSlug, message })),
        ),
      );
    return c.json(comment, 201);
  })
  .get('/:slug/comments', validate('param', slugParamSchema), validate('query', commentsQuerySchema), async (c) => {
    const body = await listCommentsBySlug(c.var.db, c.req.valid('param').slug, {
      session: c.var.session,
      now: c.var.deps.now(),
      sinceId: c.req.valid('query').since,
      before: c.req.valid('query').before,
    });
    return c.json(body, 200);
  })
  // The live room's member token (and the member's mute and hidden authors), asked for on every (re)connect.
  .get('/:slug/comments/token', requireSession, validate('param', slugParamSchema), async (c) => {
    return c.json(await commentRoomAccess(c.var.deps, c.var.db, c.var.session, c.req.valid('param').slug), 200);
  });
