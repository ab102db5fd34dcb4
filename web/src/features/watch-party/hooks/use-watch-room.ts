import { useCallback, useEffect, useRef, useState } from 'react';
import {
  parseWatchEvent,
  WATCH_CHAT_KEEP,
  WATCH_CLOSE,
  WATCH_PARTY,
  type WatchChatMessage,
  type WatchClientMessage,
  type WatchSnapshot,
} from '../../../../../party/watch-messages';
import { partyEndpoint } from '../../../lib/party-host';
import { type GuestIdentity, joinParty, PartyEnded, type PartyTokenResponse } from '../api/party-api';
import { RoomClock } from '../sync-engine';

/** A refusal that ends the page's stay in the party (the room or the API said so). */
export interface PartyRefusal {
  kind: 'notFound' | 'ended' | 'full' | 'removed' | 'replaced' | 'badToken' | 'unavailable';
  message: string;
  /** An ended party offers its episode alone. */
  episode?: { slug: string; episode: number; server: string };
}

export interface RoomView {
  connected: boolean;
  you: string | null;
  snapshot: WatchSnapshot | null;
  chat: WatchChatMessage[];
  /** The latest control action, shown briefly to all ("Lan đã tua đến 12:30"). */
  notice: { text: string; key: number } | null;
  /** The room refused one of this screen's messages (a viewer's seek): shown, and the screen snaps back. */
  refused: { message: string; key: number } | null;
  fatal: PartyRefusal | null;
}

export interface WatchRoom extends RoomView {
  send: (message: WatchClientMessage) => void;
  clock: RoomClock;
  /** The newest snapshot and when (local ms) it came: read by the sync loop without re-rendering. */
  latest: { current: { snapshot: WatchSnapshot | null; you: string | null } };
  /** Subscribes to every timeline change (the sync applies them at once, not on the next tick). */
  onSnapshot: (listener: () => void) => () => void;
}

const CLOSE_KIND: Record<number, PartyRefusal['kind']> = {
  [WATCH_CLOSE.notFound]: 'notFound',
  [WATCH_CLOSE.ended]: 'ended',
  [WATCH_CLOSE.full]: 'full',
  [WATCH_CLOSE.removed]: 'removed',
  [WATCH_CLOSE.replaced]: 'replaced',
  [WATCH_CLOSE.badToken]: 'badToken',
};

/** Clock samples: quickly at first (a late joiner syncs within a second), then every few seconds. */
const PING_FAST_MS = 200;
const PING_SLOW_MS = 3000;

/**
 * The party's room over one socket (partysocket, reconnecting with a fresh token from the API each time):
 * the snapshot, the chat, the notices, refusals, and the clock samples the sync engine needs.
 */
export function useWatchRoom(partyId: string, first: PartyTokenResponse, guest: GuestIdentity | null): WatchRoom {
  const [view, setView] = useState<RoomView>({
    connected: false,
    you: null,
    snapshot: null,
    chat: [],
    notice: null,
    refused: null,
    fatal: null,
  });
  const clock = useRef(new RoomClock()).current;
  const latest = useRef<{ snapshot: WatchSnapshot | null; you: string | null }>({ snapshot: null, you: null });
  const listeners = useRef(new Set<() => void>());
  const socketRef = useRef<{ send(data: string): void; readyState: number } | null>(null);

  useEffect(() => {
    let closed = false;
    let socket: (WebSocket & { close(): void; reconnect(): void }) | undefined;
    let pingTimer: number | undefined;
    let pingId = 0;
    let firstToken: PartyTokenResponse | null = first;
    const pending = new Map<number, number>();
    const fail = (fatal: PartyRefusal) => {
      setView((v) => ({ ...v, connected: false, fatal }));
      closed = true;
      socket?.close();
    };

    const ping = () => {
      window.clearTimeout(pingTimer);
      const s = socketRef.current;
      if (closed || !s || s.readyState !== 1) return;
      const id = ++pingId;
      const t = performance.now();
      pending.set(id, t);
      s.send(JSON.stringify({ type: 'ping', id, t }));
      pingTimer = window.setTimeout(ping, clock.count < 8 ? PING_FAST_MS : PING_SLOW_MS);
    };

    import('partysocket')
      .then(({ PartySocket }) => {
        if (closed) return;
        const live = new PartySocket({
          ...partyEndpoint(),
          party: WATCH_PARTY,
          room: partyId,
          // A fresh token for every (re)connect: the first one from the page's own request while it is new.
          query: async () => {
            const reuse = firstToken && firstToken.expiresAt * (firstToken.expiresAt < 1e12 ? 1000 : 1) - Date.now() > 20_000;
            const token = reuse && firstToken ? firstToken.token : (await tokenOrFail()).token;
            firstToken = null;
            return { token };
          },
        });
        const tokenOrFail = async (): Promise<{ token: string }> => {
          try {
            return await joinParty(partyId, guest);
          } catch (error) {
            fail(refusalOf(error));
            throw error;
          }
        };
        socket = live as unknown as typeof socket;
        socketRef.current = live;
        live.addEventListener('open', () => {
          clock.reset();
          pending.clear();
          setView((v) => ({ ...v, connected: true }));
          ping();
        });
        live.addEventListener('close', (event: CloseEvent) => {
          window.clearTimeout(pingTimer);
          const kind = CLOSE_KIND[event.code];
          if (kind) {
            const snap = latest.current.snapshot;
            fail({
              kind,
              message: event.reason || '',
              episode: snap ? { slug: snap.film.slug, episode: snap.timeline.episode, server: snap.timeline.server } : undefined,
            });
          } else setView((v) => ({ ...v, connected: false }));
        });
        live.addEventListener('message', (event: MessageEvent) => {
          const m = parseWatchEvent(event.data);
          if (!m) return;
          switch (m.type) {
            case 'pong': {
              const sent = pending.get(m.id);
              pending.delete(m.id);
              if (sent !== undefined) clock.add(sent, m.s, performance.now());
              return;
            }
            case 'welcome':
              latest.current = { snapshot: m.snapshot, you: m.you };
              setView((v) => ({ ...v, you: m.you, snapshot: m.snapshot, chat: m.chat.slice(-WATCH_CHAT_KEEP) }));
              for (const l of listeners.current) l();
              return;
            case 'snapshot':
              latest.current = { ...latest.current, snapshot: m.snapshot };
              setView((v) => ({
                ...v,
                snapshot: m.snapshot,
                notice: m.notice ? { text: m.notice.text, key: performance.now() } : v.notice,
              }));
              for (const l of listeners.current) l();
              return;
            case 'chat':
              setView((v) => ({ ...v, chat: [...v.chat, m.message].slice(-WATCH_CHAT_KEEP) }));
              return;
            case 'refused':
              setView((v) => ({ ...v, refused: { message: m.message, key: performance.now() } }));
              return;
          }
        });
      })
      .catch((error: unknown) => console.warn('[watch-party] room unavailable', error));

    const reconnect = () => socket?.reconnect();
    window.addEventListener('online', reconnect);
    return () => {
      closed = true;
      window.clearTimeout(pingTimer);
      window.removeEventListener('online', reconnect);
      socketRef.current = null;
      socket?.close();
    };
  }, [partyId, first, guest, clock]);

  const send = useCallback((message: WatchClientMessage) => {
    const s = socketRef.current;
    if (s && s.readyState === 1) s.send(JSON.stringify(message));
  }, []);
  const onSnapshot = useCallback((listener: () => void) => {
    listeners.current.add(listener);
    return () => {
      listeners.current.delete(listener);
    };
  }, []);

  return { ...view, send, clock, latest, onSnapshot };
}

/** What an API refusal means for the page. */
export function refusalOf(error: unknown): PartyRefusal {
  if (error instanceof PartyEnded)
    return { kind: 'ended', message: error.message, episode: error.party && { ...error.party, slug: error.party.film.slug } };
  const e = error as { status?: number; message?: string };
  if (e?.status === 404) return { kind: 'notFound', message: e.message ?? '' };
  if (e?.status === 409) return { kind: 'full', message: e.message ?? '' };
  return { kind: 'unavailable', message: e?.message || 'Phòng xem chung tạm thời không hoạt động, vui lòng thử lại sau.' };
}
