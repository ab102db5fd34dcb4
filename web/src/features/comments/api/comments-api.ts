import type { QueryClient } from '@tanstack/react-query';
import type { FilmDetailResponse } from '../../../../../worker/schemas/catalogue';
import type { CommentDto } from '../../../../../worker/schemas/comments';
import { api, unwrap } from '../../../lib/api-client';
import { authedCall } from '../../../lib/auth-request';

/** POST /api/product/comment (Bearer, refreshed and retried once on 401/403): a comment or a reply. */
export async function postComment(slug: string, text: string, parentId: number | null): Promise<CommentDto> {
  return unwrap(
    authedCall((headers) =>
      api.api.product.comment.$post(
        { json: { titlefilm: slug, contentcomment: text, ...(parentId ? { parent_id: parentId } : {}) } },
        { headers },
      ),
    ),
  );
}

/** GET /api/product/{slug}/comments?since=<id>: what a reconnecting page missed. */
export async function fetchCommentsSince(slug: string, sinceId: number): Promise<CommentDto[]> {
  const body = await unwrap(api.api.product[':slug'].comments.$get({ param: { slug }, query: { since: String(sinceId) } }));
  return body.data;
}

/**
 * Adds comments to every cached copy of the film, once each: the poster's own comment comes back
 * both in the POST answer and from the live room, and a catch-up may repeat what the room sent.
 */
export function mergeComments(queryClient: QueryClient, slug: string, incoming: CommentDto[]): void {
  if (incoming.length === 0) return;
  queryClient.setQueriesData<FilmDetailResponse>({ queryKey: ['film', slug] }, (old) => {
    if (!old) return old;
    const known = new Set(old.comments.map((c) => c.id));
    const fresh: CommentDto[] = [];
    for (const c of incoming) {
      if (known.has(c.id)) continue;
      known.add(c.id);
      fresh.push(c);
    }
    if (fresh.length === 0) return old;
    return { ...old, comments: [...old.comments, ...fresh].sort((a, b) => a.id - b.id) };
  });
}

/** The newest comment id any cached copy of the film holds (0 when none). */
export function lastCommentId(queryClient: QueryClient, slug: string): number {
  let last = 0;
  for (const [, data] of queryClient.getQueriesData<FilmDetailResponse>({ queryKey: ['film', slug] })) {
    for (const c of data?.comments ?? []) if (c.id > last) last = c.id;
  }
  return last;
}
