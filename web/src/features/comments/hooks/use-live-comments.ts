import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { RoomEvent } from '../../../../../party/messages';
import { COMMENTS_PARTY } from '../../../../../worker/schemas/values';
import { partyEndpoint } from '../../../lib/party-host';
import {
  fetchCommentsSince,
  fetchNewestComments,
  fetchRoomAccess,
  lastCommentId,
  mergeComments,
  withdrawComment,
} from '../api/comments-api';

export interface LiveComments {
  /** Why the room refused this member (muted or banned): the page shows it instead of the form. */
  refused: string | null;
  /** Members whose comments this member hid (from the room access, on every connect). */
  hiddenAuthors: number[];
  /** How many are in the room ("N người đang xem"), once the room said. */
  presence: number | null;
  /** The film's slow mode: one post per this many seconds (0 = off). */
  slowMode: number;
  /** Comments the room did not send this page (over its per-second cap): "+N bình luận mới". */
  skipped: number;
  /** Loads the newest threads (what was skipped) and clears the count. */
  loadSkipped: () => Promise<void>;
}

/** partysocket's first retry after a lost socket: a random 1–5 s per page, so a room restart does not bring every page back at once. */
const reconnectDelay = () => 1000 + Math.floor(Math.random() * 4000);

type Comment = Extract<RoomEvent, { type: 'comment' }>['comment'];

/** What the page shows of the room (the hook's state, without its action). */
export type LiveRoomState = Omit<LiveComments, 'loadSkipped'>;

/**
 * The hook's effect, a function of its own so a test can run the page's connect, catch-up and reconnects without a
 * browser (tests/api/comments-reconnect-requests.test.ts): joins the room, applies what it sends to `queryClient`,
 * and answers the leave.
 */
export function joinLiveRoom(
  slug: string,
  viewerId: number,
  queryClient: QueryClient,
  setState: (change: (state: LiveRoomState) => LiveRoomState) => void,
): () => void {
  let closed = false;
  let socket: { close(): void; reconnect(): void } | undefined;
  let comeBack: ReturnType<typeof setTimeout> | undefined;
  setState(() => ({ refused: null, hiddenAuthors: [], presence: null, slowMode: 0, skipped: 0 }));
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
      if (!closed) setState((s) => ({ ...s, refused: access.mute?.message ?? s.refused, hiddenAuthors: access.hiddenAuthors }));
      return { token: access.token };
    } catch (error) {
      console.warn('[comments] no member token; listening as a reader', error);
      return {};
    }
  };
  const addComments = (list: Comment[]) =>
    mergeComments(
      queryClient,
      slug,
      list.map((comment) => ({ user_id: 0, ...comment })),
    );

  Promise.all([import('partysocket'), import('../../../../../party/messages')])
    .then(([{ PartySocket }, { parseRoomEvent }]) => {
      if (closed) return;
      const first = reconnectDelay();
      const live = new PartySocket({
        ...partyEndpoint(),
        party: COMMENTS_PARTY,
        room: slug,
        query,
        minReconnectionDelay: first,
        maxReconnectionDelay: Math.max(10_000, first),
      });
      live.addEventListener('open', () => void catchUp());
      live.addEventListener('message', (event: MessageEvent) => {
        const message = parseRoomEvent(event.data);
        if (!message) return;
        switch (message.type) {
          case 'comment':
            addComments([message.comment]);
            break;
          case 'withdraw':
            withdrawComment(queryClient, slug, message, viewerId);
            break;
          case 'batch': {
            // One frame per send window: its comments merge in one update, removals apply in order.
            const added: Comment[] = [];
            for (const e of message.events) {
              if (e.type === 'comment') added.push(e.comment);
              else {
                addComments(added.splice(0));
                withdrawComment(queryClient, slug, e, viewerId);
              }
            }
            addComments(added);
            if (message.skipped > 0) setState((s) => ({ ...s, skipped: s.skipped + message.skipped }));
            break;
          }
          case 'presence':
            setState((s) => (s.presence === message.count ? s : { ...s, presence: message.count }));
            break;
          case 'slow-mode':
            setState((s) => (s.slowMode === message.seconds ? s : { ...s, slowMode: message.seconds }));
            break;
          case 'reconnect':
            // The room is going away and said when to come back: this page's turn, not everyone's at once.
            live.close();
            clearTimeout(comeBack);
            comeBack = setTimeout(() => {
              if (!closed) live.reconnect();
            }, message.afterMs);
            break;
          case 'refused':
            // Muted or banned: the room closes this socket; the page stops asking for another and says why.
            setState((s) => ({ ...s, refused: message.message }));
            closed = true;
            live.close();
            break;
          case 'pong':
            break;
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
    clearTimeout(comeBack);
    window.removeEventListener('online', reconnect);
    socket?.close();
  };
}

/**
 * Joins the film's live room while the page is open (one PartyKit room per slug, docs/decisions/0201) and applies
 * what it sends to the film's cache: new, approved and restored comments, and removals (docs/decisions/0230), alone
 * or in batches (one frame per send window), the room's count of viewers, the film's slow mode, and a restarting
 * room's "come back after" (docs/decisions/1001-live-thread-on-the-page.md). A signed-in member connects with a
 * member token asked of the API on every (re)connect, so the room can tell them why their comment was removed, or
 * refuse their socket when they are muted. Each time the socket opens (first connect, and every reconnect after a
 * network loss) the page asks the API for what it missed since its newest comment (GET …/comments?since=), and for
 * what it holds that was taken down meanwhile: two API requests per reconnect. partysocket and the message schemas
 * load here, after the page shows: never on other pages.
 */
export function useLiveComments(slug: string, viewerId: number): LiveComments {
  const queryClient = useQueryClient();
  const [state, setState] = useState({
    refused: null as string | null,
    hiddenAuthors: [] as number[],
    presence: null as number | null,
    slowMode: 0,
    skipped: 0,
  });
  const slugRef = useRef(slug);
  slugRef.current = slug;
  useEffect(() => joinLiveRoom(slug, viewerId, queryClient, setState), [slug, queryClient, viewerId]);

  const loadSkipped = useCallback(async () => {
    const page = await fetchNewestComments(slugRef.current);
    mergeComments(queryClient, slugRef.current, page.data);
    setState((s) => ({ ...s, skipped: 0 }));
  }, [queryClient]);
  return { ...state, loadSkipped };
}
