import { queryOptions } from '@tanstack/react-query';
import type { ModerationQueueQuery, MuteDuration, SlowModeSetting, WordBody } from '../../../../../worker/schemas/moderation';
import { api } from '../../../lib/api-client';
import { adminCall } from './admin-request';

/** GET /api/admin/comments (admin, or VIP2 for their own films): the moderation queue. */
export const moderationQueueQuery = (query: ModerationQueueQuery) =>
  queryOptions({
    queryKey: ['admin', 'comments', query],
    queryFn: () =>
      adminCall((headers) =>
        api.api.admin.comments.$get({ query: { filter: query.filter, sort: query.sort, page: String(query.page) } }, { headers }),
      ),
    placeholderData: (previous) => previous,
  });

export const approveComment = (id: number, input: { reason?: string; spoiler?: boolean } = {}) =>
  adminCall((headers) => api.api.admin.comments[':id'].approve.$post({ param: { id: String(id) }, json: input }, { headers }));

export const removeComment = (id: number, reason: string) =>
  adminCall((headers) => api.api.admin.comments[':id'].remove.$post({ param: { id: String(id) }, json: { reason } }, { headers }));

export const muteMember = (userId: number, input: { duration: MuteDuration; reason: string; commentId?: number }) =>
  adminCall((headers) => api.api.admin.users[':id'].mute.$post({ param: { id: String(userId) }, json: input }, { headers }));

export const banMember = (userId: number, input: { reason: string; commentId?: number }) =>
  adminCall((headers) => api.api.admin.users[':id'].ban.$post({ param: { id: String(userId) }, json: input }, { headers }));

/** GET /api/admin/comment-words (admin): the filter's word list. */
export const commentWordsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'comment-words'],
    queryFn: () => adminCall((headers) => api.api.admin['comment-words'].$get({}, { headers })),
  });

export const addCommentWord = (input: WordBody) =>
  adminCall((headers) => api.api.admin['comment-words'].$post({ json: input }, { headers }));

export const removeCommentWord = (id: number) =>
  adminCall((headers) => api.api.admin['comment-words'][':id'].$delete({ param: { id: String(id) } }, { headers }));

export const checkCommentText = (text: string) =>
  adminCall((headers) => api.api.admin['comment-words'].check.$post({ json: { text } }, { headers }));

/** GET /api/admin/comments/slow-mode/{slug} (admin, or VIP2 for their own films): a film's "Chế độ chậm". */
export const readSlowMode = (slug: string) =>
  adminCall((headers) => api.api.admin.comments['slow-mode'][':slug'].$get({ param: { slug } }, { headers }));

/** PUT /api/admin/comments/slow-mode/{slug}: on, off, or back to the rate ('auto'); audited. */
export const saveSlowMode = (slug: string, mode: SlowModeSetting) =>
  adminCall((headers) => api.api.admin.comments['slow-mode'][':slug'].$put({ param: { slug }, json: { mode } }, { headers }));
