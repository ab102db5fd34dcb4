import type { Config } from '../../config';
import { COMMENTS_PARTY, PARTY_SECRET_HEADER, type CommentDto } from '../../schemas/comments';
import type { RoomPush } from '../../../party/messages';

const PUSH_TIMEOUT_MS = 3000;

export type RoomDeps = { config: Pick<Config, 'PARTYKIT_HOST' | 'PARTY_SECRET'>; fetch: typeof fetch };

/** The room URL of a film: one PartyKit room per film slug (docs/decisions/0201-live-comment-rooms.md). */
export function roomUrl(partykitHost: string, slug: string): string {
  return `${partykitHost.replace(/\/+$/, '')}/parties/${COMMENTS_PARTY}/${encodeURIComponent(slug)}`;
}

/**
 * Sends one message to a film's room (a comment to show, a removal, a refused member), which passes it to every
 * page watching. Never throws: the change is already stored, and a reconnecting page catches up from the API.
 */
export async function pushToRoom(deps: RoomDeps, filmSlug: string, message: RoomPush): Promise<boolean> {
  try {
    const res = await deps.fetch(roomUrl(deps.config.PARTYKIT_HOST, filmSlug), {
      method: 'POST',
      headers: { 'content-type': 'application/json', [PARTY_SECRET_HEADER]: deps.config.PARTY_SECRET },
      body: JSON.stringify(message),
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    });
    // Release the connection for reuse; the room's answer carries nothing we need.
    await res.body?.cancel().catch(() => undefined);
    if (!res.ok) {
      console.warn('[comments] room push answered', res.status, 'for', filmSlug);
      return false;
    }
    return true;
  } catch (err) {
    console.warn('[comments] room push failed for', filmSlug, err instanceof Error ? err.message : err);
    return false;
  }
}

/**
 * A stored comment everyone may see, as its room's push: what every reader may see (never an author's own state or
 * reason), with the parent's author and whether staff wrote it, whom the room's per-socket cap never skips.
 */
export function commentPush(comment: CommentDto, about: { parentAuthorId?: number | null; fromStaff?: boolean } = {}): RoomPush {
  const { state: _state, removal_reason: _reason, ...visible } = comment;
  return {
    type: 'comment',
    comment: visible,
    ...(about.parentAuthorId ? { parentAuthorId: about.parentAuthorId } : {}),
    ...(about.fromStaff ? { fromStaff: true as const } : {}),
  };
}

/** Several pushes after a response, in order per room; resolves when all are done (never rejects). */
export async function pushAll(deps: RoomDeps, pushes: readonly { slug: string; message: RoomPush }[]): Promise<void> {
  for (const p of pushes) await pushToRoom(deps, p.slug, p.message);
}
