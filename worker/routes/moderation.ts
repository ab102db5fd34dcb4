// Comment moderation (issue 33, docs/decisions/0230-comment-moderation.md): members' reports and hidden authors,
// and the moderators' queue, decisions and word list. What the rooms must hear is sent after the answer.
import { Hono } from 'hono';
import { afterResponse } from '../lib/after-response';
import { requireViewer } from '../lib/auth-middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import {
  approveBodySchema,
  banBodySchema,
  commentIdParamSchema,
  moderationQueueQuerySchema,
  muteBodySchema,
  removeBodySchema,
  reportBodySchema,
  slowModeBodySchema,
  slowModeParamSchema,
  userIdParamSchema,
  wordBodySchema,
  wordCheckSchema,
  wordIdParamSchema,
} from '../schemas/moderation';
import { MODERATION_TEXTS } from '../schemas/values';
import { approveComment, banMember, moderationQueue, muteMember, removeComment } from '../services/comments/moderation';
import { hideAuthor, listHiddenAuthors, reportComment, unhideAuthor } from '../services/comments/reports';
import { pushAll } from '../services/comments/room-push';
import { readSlowMode, setSlowMode } from '../services/comments/slow-mode';
import { addWord, checkText, listWords, removeWord } from '../services/comments/words';
import { adminOnly, adminOrVip2 } from './admin/access';

/** Mounted under /api/comments: what a member does about a comment. */
export const commentActionRoutes = new Hono<AppEnv>().post(
  '/:id/report',
  requireViewer,
  validate('param', commentIdParamSchema),
  validate('json', reportBodySchema),
  async (c) => {
    const { push, ...body } = await reportComment(c.var.db, c.var.viewer, c.req.valid('param').id, c.req.valid('json'), c.var.deps.now());
    if (push) afterResponse(c, pushAll(c.var.deps, [push]));
    return c.json(body, 201);
  },
);

/** Mounted under /api/me/hidden-authors: "Ẩn bình luận của người này", kept with the account (every device). */
export const hiddenAuthorRoutes = new Hono<AppEnv>()
  .get('/', requireViewer, async (c) => {
    return c.json({ data: await listHiddenAuthors(c.var.db, c.var.viewer.id) }, 200);
  })
  .put('/:id', requireViewer, validate('param', userIdParamSchema), async (c) => {
    await hideAuthor(c.var.db, c.var.viewer.id, c.req.valid('param').id, c.var.deps.now());
    return c.json({ message: MODERATION_TEXTS.authorHidden }, 200);
  })
  .delete('/:id', requireViewer, validate('param', userIdParamSchema), async (c) => {
    await unhideAuthor(c.var.db, c.var.viewer.id, c.req.valid('param').id);
    return c.json({ message: MODERATION_TEXTS.authorUnhidden }, 200);
  });

/** Mounted under /api/admin: the moderation queue (admins; VIP2 uploaders for their own films), members, the word list. */
export const moderationRoutes = new Hono<AppEnv>()
  .get('/comments', adminOrVip2, validate('query', moderationQueueQuerySchema), async (c) => {
    return c.json(await moderationQueue(c.var.db, c.var.viewer, c.req.valid('query'), c.var.deps.now()), 200);
  })
  .post('/comments/:id/approve', adminOrVip2, validate('param', commentIdParamSchema), validate('json', approveBodySchema), async (c) => {
    const { pushes, ...body } = await approveComment(
      c.var.db,
      c.var.viewer,
      c.req.valid('param').id,
      c.req.valid('json'),
      c.var.deps.now(),
    );
    afterResponse(c, pushAll(c.var.deps, pushes));
    return c.json(body, 200);
  })
  .post('/comments/:id/remove', adminOrVip2, validate('param', commentIdParamSchema), validate('json', removeBodySchema), async (c) => {
    const { pushes, ...body } = await removeComment(c.var.db, c.var.viewer, c.req.valid('param').id, c.req.valid('json'), c.var.deps.now());
    afterResponse(c, pushAll(c.var.deps, pushes));
    return c.json(body, 200);
  })
  // The same removal as a DELETE of the comment (a reason in the body).
  .delete('/comments/:id', adminOrVip2, validate('param', commentIdParamSchema), validate('json', removeBodySchema), async (c) => {
    const { pushes, ...body } = await removeComment(c.var.db, c.var.viewer, c.req.valid('param').id, c.req.valid('json'), c.var.deps.now());
    afterResponse(c, pushAll(c.var.deps, pushes));
    return c.json(body, 200);
  })
  .post('/users/:id/mute', adminOrVip2, validate('param', userIdParamSchema), validate('json', muteBodySchema), async (c) => {
    const { pushes, ...body } = await muteMember(c.var.db, c.var.viewer, c.req.valid('param').id, c.req.valid('json'), c.var.deps.now());
    afterResponse(c, pushAll(c.var.deps, pushes));
    return c.json(body, 200);
  })
  .post('/users/:id/ban', adminOnly, validate('param', userIdParamSchema), validate('json', banBodySchema), async (c) => {
    const { pushes, ...body } = await banMember(c.var.db, c.var.viewer, c.req.valid('param').id, c.req.valid('json'), c.var.deps.now());
    afterResponse(c, pushAll(c.var.deps, pushes));
    return c.json(body, 200);
  })
  // "Chế độ chậm" of a film (issue 38): admins for every film, a VIP2 uploader for their own.
  .get('/comments/slow-mode/:slug', adminOrVip2, validate('param', slowModeParamSchema), async (c) => {
    return c.json(await readSlowMode(c.var.db, c.var.viewer, c.req.valid('param').slug, c.var.deps.now()), 200);
  })
  .put(
    '/comments/slow-mode/:slug',
    adminOrVip2,
    validate('param', slowModeParamSchema),
    validate('json', slowModeBodySchema),
    async (c) => {
      const { announce, ...body } = await setSlowMode(
        c.var.db,
        c.var.viewer,
        c.req.valid('param').slug,
        c.req.valid('json').mode,
        c.var.deps.now(),
      );
      if (announce !== null)
        afterResponse(c, pushAll(c.var.deps, [{ slug: body.slug, message: { type: 'slow-mode', seconds: announce } }]));
      return c.json(body, 200);
    },
  )
  .get('/comment-words', adminOnly, async (c) => {
    return c.json({ data: await listWords(c.var.db) }, 200);
  })
  .post('/comment-words', adminOnly, validate('json', wordBodySchema), async (c) => {
    const { auditId, ...word } = await addWord(c.var.db, c.var.viewer, c.req.valid('json'), c.var.deps.now());
    return c.json({ message: MODERATION_TEXTS.wordAdded, data: word, auditId }, 201);
  })
  .post('/comment-words/check', adminOnly, validate('json', wordCheckSchema), async (c) => {
    return c.json(await checkText(c.var.db, c.req.valid('json').text), 200);
  })
  .delete('/comment-words/:id', adminOnly, validate('param', wordIdParamSchema), async (c) => {
    const { auditId } = await removeWord(c.var.db, c.var.viewer, c.req.valid('param').id, c.var.deps.now());
    return c.json({ message: MODERATION_TEXTS.wordRemoved, auditId }, 200);
  });
