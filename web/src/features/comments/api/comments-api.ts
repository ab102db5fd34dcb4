import type { QueryClient } from '@tanstack/react-query';
import type { FilmDetailResponse } from '../../../../../worker/schemas/catalogue';
import type { CommentDto, CommentsSinceResponse } from '../../../../../worker/schemas/comments';
import type { CommentRoomAccess, HiddenAuthorsResponse, ReportResponse } from '../../../../../worker/schemas/moderation';
import type { CommentReportReason } from '../../../../../worker/schemas/values';
import { api, unwrap } from '../../../lib/api-client';
import { authedCall, readHeaders } from '../../../lib/auth-request';

/** POST /api/product/comment (Bearer, refreshed and retried once on 401/403): a comment or a reply. */
export async function postComment(
  slug: string,
  text: string,
  parentId: number | null,
  extra: { spoiler?: boolean; episode?: number; clientId?: string } = {},
): Promise<CommentDto> {
  return unwrap(
    authedCall((headers) =>
      api.api.product.comment.$post(
        {
          json: {
            titlefilm: slug,
            contentcomment: text,
            ...(parentId ? { parent_id: parentId } : {}),
            ...(extra.spoiler ? { spoiler: true } : {}),
            ...(extra.episode !== undefined ? { episode: extra.episode } : {}),
            // The same id on every retry of this comment: the server answers the first one (issue 39).
            ...(extra.clientId ? { client_id: extra.clientId } : {}),
          },
        },
        { headers },
      ),
    ),
  );
}

/** GET /api/product/{slug}/comments?since=<id>: what a reconnecting page missed, and what it holds that was taken down. */
export async function fetchCommentsSince(slug: string, sinceId: number): Promise<CommentsSinceResponse> {
  // Personal only when signed in (the viewer's own held comments); signed out it is the public list.
  const headers = await readHeaders();
  return unwrap(api.api.product[':slug'].comments.$get({ param: { slug }, query: { since: String(sinceId) } }, { headers }));
}

/** A comment's client id: chosen when the member starts it, sent again on each retry. */
export function newClientId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** GET /api/product/{slug}/comments?before=<id>: the threads older than the page's oldest ("Xem thêm bình luận"). */
export async function fetchOlderComments(slug: string, before: number): Promise<CommentsSinceResponse> {
  const headers = await readHeaders();
  return unwrap(api.api.product[':slug'].comments.$get({ param: { slug }, query: { before: String(before) } }, { headers }));
}

/** The newest threads again ("+N bình luận mới": what the room skipped for this page). */
export const fetchNewestComments = (slug: string) => fetchOlderComments(slug, Number.MAX_SAFE_INTEGER);

/**
 * An older page merged in: its comments join the thread, and the cursor moves to where the next page starts. The
 * count stays: those comments were counted already.
 */
export function mergeOlderPage(queryClient: QueryClient, slug: string, page: CommentsSinceResponse): void {
  mergeComments(queryClient, slug, page.data, { counted: true });
  queryClient.setQueriesData<FilmDetailResponse>({ queryKey: ['film', slug] }, (old) =>
    old ? { ...old, comments_cursor: page.next_before ?? null, comments_total: page.total ?? old.comments_total } : old,
  );
}

/** GET /api/product/{slug}/comments/token: the member's identity for the film's room, their mute and hidden authors. */
export function fetchRoomAccess(slug: string): Promise<CommentRoomAccess> {
  return unwrap(authedCall((headers) => api.api.product[':slug'].comments.token.$get({ param: { slug } }, { headers })));
}

/** POST /api/comments/{id}/report: "Báo cáo". */
export function reportComment(id: number, reason: CommentReportReason, note?: string): Promise<ReportResponse> {
  return unwrap(
    authedCall((headers) =>
      api.api.comments[':id'].report.$post({ param: { id: String(id) }, json: { reason, ...(note ? { note } : {}) } }, { headers }),
    ),
  );
}

/** GET /api/me/hidden-authors: the members whose comments the viewer hid. */
export function fetchHiddenAuthors(): Promise<HiddenAuthorsResponse> {
  return unwrap(authedCall((headers) => api.api.me['hidden-authors'].$get({}, { headers })));
}

/** PUT /api/me/hidden-authors/{id}: "Ẩn bình luận của người này". */
export function hideAuthor(userId: number): Promise<{ message: string }> {
  return unwrap(authedCall((headers) => api.api.me['hidden-authors'][':id'].$put({ param: { id: String(userId) } }, { headers })));
}

/** DELETE /api/me/hidden-authors/{id}: "Bỏ ẩn". */
export function unhideAuthor(userId: number): Promise<{ message: string }> {
  return unwrap(authedCall((headers) => api.api.me['hidden-authors'][':id'].$delete({ param: { id: String(userId) } }, { headers })));
}

/**
 * Applies `change` to every cached copy of the film's comments; `change` answers the new list and how the film's
 * visible count moves. Comments that did not change keep their objects, so the thread re-renders only what changed.
 */
function updateComments(
  queryClient: QueryClient,
  slug: string,
  change: (comments: CommentDto[]) => { comments: CommentDto[]; counted: number },
): void {
  queryClient.setQueriesData<FilmDetailResponse>({ queryKey: ['film', slug] }, (old) => {
    if (!old) return old;
    const next = change(old.comments);
    return next.comments === old.comments
      ? old
      : { ...old, comments: next.comments, comments_total: Math.max(0, (old.comments_total ?? 0) + next.counted) };
  });
}

const visibleToAll = (c: CommentDto | undefined) => c !== undefined && c.state === undefined;

/**
 * Adds comments to every cached copy of the film, once each: the poster's own comment comes back both in the POST
 * answer and from the live room, and a catch-up may repeat what the room sent. A comment already there is replaced
 * by the incoming copy when it is a comment coming back (approved, restored) or a change of its spoiler mark.
 */
export function mergeComments(queryClient: QueryClient, slug: string, incoming: CommentDto[], options: { counted?: boolean } = {}): void {
  if (incoming.length === 0) return;
  updateComments(queryClient, slug, (comments) => {
    const byId = new Map(comments.map((c) => [c.id, c]));
    let changed = false;
    let counted = 0;
    let appendOnly = true;
    const last = comments.at(-1)?.id ?? 0;
    for (const c of incoming) {
      const known = byId.get(c.id);
      if (known && known.state === c.state && known.spoiler === c.spoiler && known.comment === c.comment) continue;
      // The author's own removed comment keeps its reason until a copy everyone sees replaces it.
      byId.set(c.id, known?.state === 'removed' && known.removal_reason && c.state === 'removed' ? known : c);
      if (!options.counted) counted += Number(visibleToAll(c)) - Number(visibleToAll(known));
      if (known || c.id < last) appendOnly = false;
      changed = true;
    }
    if (!changed) return { comments, counted: 0 };
    // A live comment is the newest: appended in place, no sort of the whole list.
    const next = appendOnly
      ? [...comments, ...new Map(incoming.filter((c) => c.id > last).map((c) => [c.id, byId.get(c.id) ?? c])).values()].sort(
          (a, b) => a.id - b.id,
        )
      : [...byId.values()].sort((a, b) => a.id - b.id);
    return { comments: next, counted };
  });
}

/**
 * A comment taken down (removed, or hidden by reports) on every cached copy: its author keeps it, marked (with the
 * moderator's reason when the room sent it); others keep a placeholder when it has replies, else it goes.
 */
export function withdrawComment(
  queryClient: QueryClient,
  slug: string,
  event: { id: number; state: 'removed' | 'hidden'; reason?: string },
  viewerId: number,
): void {
  updateComments(queryClient, slug, (comments) => {
    const target = comments.find((c) => c.id === event.id);
    if (!target) return { comments, counted: 0 };
    const counted = visibleToAll(target) ? -1 : 0;
    const own = viewerId !== 0 && target.user_id === viewerId;
    let next: CommentDto | null;
    if (own)
      next =
        event.state === 'removed'
          ? { ...target, state: 'removed', removal_reason: event.reason ?? target.removal_reason ?? '' }
          : { ...target, state: 'pending' };
    else if (comments.some((c) => c.parent_id === event.id))
      next = {
        id: target.id,
        parent_id: target.parent_id,
        comment: '',
        createdAt: target.createdAt,
        users: { username: '' },
        user_id: 0,
        state: event.state,
      };
    else next = null;
    return { comments: next ? comments.map((c) => (c.id === event.id ? next : c)) : comments.filter((c) => c.id !== event.id), counted };
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
