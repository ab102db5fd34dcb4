import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { COMMENTS_PARTY } from '../../../../../worker/schemas/values';
import { partyEndpoint } from '../../../lib/party-host';
import { fetchCommentsSince, lastCommentId, mergeComments } from '../api/comments-api';

/**
 * Joins the film's live room while the page is open (one PartyKit
 * room per slug, docs/decisions/0201) and appends the comments it broadcasts to the film's cache.
 * Each time the socket opens (first connect, and every reconnect after a network loss) the page
 * asks the API for what it may have missed since its newest comment (GET …/comments?since=).
 * partysocket and the message schemas load here, after the page shows: never on other pages.
 */
export function useLiveComments(slug: string): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    let closed = false;
    let socket: { close(): void; reconnect(): void } | undefined;
    const catchUp = () =>
      fetchCommentsSince(slug, lastCommentId(queryClient, slug))
        .then((missed) => mergeComments(queryClient, slug, missed))
        .catch((error: unknown) => console.warn('[comments] catch-up failed', error));

    Promise.all([import('partysocket'), import('../../../../../party/messages')])
      .then(([{ PartySocket }, { parseRoomEvent }]) => {
        if (closed) return;
        const live = new PartySocket({ ...partyEndpoint(), party: COMMENTS_PARTY, room: slug });
        live.addEventListener('open', () => void catchUp());
        live.addEventListener('message', (event: MessageEvent) => {
          const message = parseRoomEvent(event.data);
          if (message?.type === 'comment') mergeComments(queryClient, slug, [message.comment]);
        });
        socket = live;
      })
      .catch((error: unknown) => console.warn('[comments] live room unavailable', error));

    // Back online (Wi-Fi to mobile data, a tunnel): the old socket may be dead without knowing it for
    // a long while. A fresh one at once, and its 'open' catches up.
    const reconnect = () => socket?.reconnect();
    window.addEventListener('online', reconnect);

    return () => {
      closed = true;
      window.removeEventListener('online', reconnect);
      socket?.close();
    };
  }, [slug, queryClient]);
}
