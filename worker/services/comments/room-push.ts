import type { Config } from '../../config';
import { COMMENTS_PARTY, PARTY_SECRET_HEADER, type CommentDto } from '../../schemas/comments';
import type { RoomPush } from '../../../party/messages';

const PUSH_TIMEOUT_MS = 3000;

/** The room URL of a film: one PartyKit room per film slug (docs/decisions/0201-live-comment-rooms.md). */
export function roomUrl(partykitHost: string, slug: string): string {
  return `${partykitHost.replace(/\/+$/, '')}/parties/${COMMENTS_PARTY}/${encodeURIComponent(slug)}`;
}

/**
 * Sends a stored comment to its film's room, which broadcasts it to everyone watching. Never
 * throws: the comment is already saved, and a reconnecting client refetches with ?since=.
 */
export async function pushCommentToRoom(
  deps: { config: Pick<Config, 'PARTYKIT_HOST' | 'PARTY_SECRET'>; fetch: typeof fetch },
  filmSlug: string,
  comment: CommentDto,
): Promise<boolean> {
  const message: RoomPush = { type: 'comment', comment };
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
