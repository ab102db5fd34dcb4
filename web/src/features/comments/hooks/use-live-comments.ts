import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { COMMENTS_PARTY } from '../../../../../worker/schemas/values';
import { partyEndpoint } from '../../../lib/party-host';
import { fetchCommentsSince, fetchRoomAccess, lastCommentId, mergeComments, withdrawComment } from '../api/comments-api';

export interface LiveComments {
  /** Why the room refused this member (muted or banned): the page shows it instead of the form. */
  refused: string | null;
  /** Members whose comments this member hid (from the room access, on every connect). */
  hiddenAuthors: number[];
}

/**
 * Joins the film's live room while the page is open (one PartyKit room per slug, docs/decisions/0201) and applies
 * what it sends to the film's cache: new, approved and restored comments, and removals (docs/decisions/0230). A
 * signed-in member connects with a member token asked of the API on every (re)connect, so the room can tell them why
 * their comment was removed, or refuse their socket when they are muted. Each time the socket opens (first connect,
 * and every reconnect after a network loss) the page asks the API for what it missed since its newest comment
 * (GET …/comments?since=), and for what it holds that was taken down meanwhile. partysocket and the message schemas
 * load here, after the page shows: never on other pages.
 */
export function useLiveComments(slug: string, viewerId: number): LiveComments {
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveComments>({ refused: null, hiddenAuthors: [] });
  useEffect(() => {
    let closed = false;
    let socket: { close(): void; reconnect(): void } | undefined;
    setState({ refused: null, hiddenAuthors: [] });
    const catchUp = () =>
      fetchCommentsSince(slug, lastCommentId(queryClient, slug))
        .then(({ data, withdrawn }) => {
          mergeComments(queryClient, slug, data);
          for (const w of withdrawn) withdrawComment(queryClient, slug, w, viewerId);
        })
        .catch((error: unknown) => console.warn('[comments] catch-up failed', error));
    // A member's identity for the room, asked for on every (re)connect; a reader without a session has none.
    const query = async (): Promise<Record<string, string>> => {
      if (viewerId === 0) return {};
      try {
        const access = await fetchRoomAccess(slug);
        if (!closed) setState((s) => ({ refused: access.mute?.message ?? s.refused, hiddenAuthors: access.hiddenAuthors }));
        return { token: access.token };
      } catch (error) {
        console.warn('[comments] no member token; listening as a reader', error);
        return {};
      }
    };

    Promise.all([import('partysocket'), import('../../../../../party/messages')])
      .then(([{ PartySocket }, { parseRoomEvent }]) => {
        if (closed) return;
        const live = new PartySocket({ ...partyEndpoint(), party: COMMENTS_PARTY, room: slug, query });
        live.addEventListener('open', () => void catchUp());
        live.addEventListener('message', (event: MessageEvent) => {
          const message = parseRoomEvent(event.data);
          if (message?.type === 'comment') mergeComments(queryClient, slug, [{ user_id: 0, ...message.comment }]);
          else if (message?.type === 'withdraw') withdrawComment(queryClient, slug, message, viewerId);
          else if (message?.type === 'refused') {
            // Muted or banned: the room closes this socket; the page stops asking for another and says why.
            setState((s) => ({ ...s, refused: message.message }));
            closed = true;
            live.close();
          }
        });
        socket = live;
      })
      .catch((error: unknown) => console.warn('[comments] live room unavailable', error));

    // Back online (Wi-Fi to mobile data, a tunnel): the old socket may be dead without knowing it for
    // a long while. A fresh one at once, and its 'open' catches up.
    const reconnect = () => {
      if (!closed) socket?.reconnect();
    };
    window.addEventListener('online', reconnect);

    return () => {
      closed = true;
      window.removeEventListener('online', reconnect);
      socket?.close();
    };
  }, [slug, queryClient, viewerId]);
  return state;
}
