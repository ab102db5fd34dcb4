import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import type { FilmDetail } from '../../../../../worker/schemas/catalogue';
import { WATCH_CHAT_MAX, WATCH_TEXTS, type WatchMember } from '../../../../../party/watch-messages';
import { toast } from '../../../lib/toast';
import type { PartySync } from '../hooks/use-party-sync';
import type { WatchRoom } from '../hooks/use-watch-room';

/** How long a control action or a refusal stays on screen. */
const NOTICE_MS = 4000;

/** Shows `value` for a few seconds after each new key. */
function useBrief<T extends { key: number }>(value: T | null): T | null {
  const [shown, setShown] = useState<T | null>(null);
  useEffect(() => {
    if (!value) return;
    setShown(value);
    const t = window.setTimeout(() => setShown(null), NOTICE_MS);
    return () => window.clearTimeout(t);
  }, [value]);
  return shown;
}

/**
 * The party's page around the player (the route gives the player: the same one as the watch page): what just
 * happened, who the party waits for, the link to share, the episodes, the members and the chat.
 */
export function PartyView({
  partyId,
  room,
  sync,
  film,
  player,
}: {
  partyId: string;
  room: WatchRoom;
  sync: PartySync;
  film: FilmDetail | undefined;
  player: ReactNode;
}) {
  const snap = room.snapshot;
  const notice = useBrief(room.notice);
  const refused = useBrief(sync.localRefusal);
  const me = snap?.members.find((m) => m.id === room.you);
  const canControl = !!me?.control;
  const isHost = !!me?.host;
  const t = snap?.timeline;
  const nameOf = (id: string) => snap?.members.find((m) => m.id === id)?.name ?? 'một người';
  const title = snap ? `${snap.film.title} - Tập ${snap.timeline.episode}` : 'Xem chung';

  useEffect(() => {
    document.title = `Xem chung: ${title}`;
  }, [title]);

  return (
    <div className="container watch party">
      <div className="layout-with-sidebar">
        <div className="layout-main">
          <h1 className="film-title party-title">
            <span className="party-badge">Xem chung</span> {title}
          </h1>
          <div className="player-stage party-stage">
            {player}
            {sync.needsTap && (
              <div className="party-tap">
                <button type="button" className="btn btn-primary" onClick={sync.tapToJoin}>
                  {WATCH_TEXTS.tapToJoin}
                </button>
              </div>
            )}
          </div>
          <div className="party-status" aria-live="polite">
            {!room.connected && <p className="muted">Đang kết nối phòng xem chung…</p>}
            {snap?.waiting && (
              <p className="party-waiting" role="status">
                {WATCH_TEXTS.waitingFor(snap.waiting.for.map(nameOf))}
              </p>
            )}
            {notice && (
              <p className="party-notice" role="status" key={notice.key}>
                {notice.text}
              </p>
            )}
            {refused && (
              <p className="party-refused-notice" role="alert" key={refused.key}>
                {refused.message}
              </p>
            )}
          </div>
          <ShareLink partyId={partyId} title={title} />

          {film && t && (
            <section className="watch-episodes" aria-labelledby="party-episodes-heading">
              <h2 id="party-episodes-heading" className="section-title">
                Danh sách tập
              </h2>
              {!canControl && <p className="muted">Chỉ người điều khiển mới đổi tập được.</p>}
              <div className="episode-servers">
                {film.servers
                  .filter((s) => s.linkfilms.length > 0)
                  .map((server) => (
                    <section key={server.server_name} className="episode-server">
                      <h3 className="episode-server-name">{server.server_name}</h3>
                      <ul className="episode-list">
                        {server.linkfilms.map((ep) => {
                          const current = ep.episode === t.episode && server.server_name === t.server;
                          return (
                            <li key={ep.id}>
                              <button
                                type="button"
                                className={`episode-link ${current ? 'current' : ''}`}
                                aria-current={current ? 'true' : undefined}
                                disabled={!canControl || current}
                                onClick={() => room.send({ type: 'episode', seq: t.seq, episode: ep.episode, server: server.server_name })}
                              >
                                {ep.name && !/^\d+$/.test(ep.name) ? ep.name : `Tập ${ep.episode}`}
                              </button>
                            </li>
                          );
                        })}
                      </ul>
                    </section>
                  ))}
              </div>
            </section>
          )}
        </div>
        <aside className="layout-side party-side" aria-label="Phòng xem chung">
          {snap && <Members room={room} members={snap.members} isHost={isHost} everyone={snap.control.mode === 'everyone'} />}
          <Chat room={room} />
        </aside>
      </div>
    </div>
  );
}

function ShareLink({ partyId, title }: { partyId: string; title: string }) {
  const url = typeof window === 'undefined' ? `/xem-chung/${partyId}` : `${window.location.origin}/xem-chung/${partyId}`;
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      toast('Đã sao chép liên kết phòng xem chung');
    } catch {
      const field = document.getElementById('party-link') as HTMLInputElement | null;
      field?.select();
      toast('Hãy sao chép liên kết đang được chọn');
    }
  };
  return (
    <div className="party-share">
      <label htmlFor="party-link">Liên kết phòng</label>
      <div className="party-share-row">
        <input id="party-link" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" className="btn btn-sm btn-primary" onClick={() => void copy()}>
          Sao chép liên kết
        </button>
        {canShare && (
          <button
            type="button"
            className="btn btn-sm btn-ghost"
            onClick={() => void navigator.share({ title: `Xem chung: ${title}`, url }).catch(() => undefined)}
          >
            Chia sẻ
          </button>
        )}
      </div>
    </div>
  );
}

function Members({ room, members, isHost, everyone }: { room: WatchRoom; members: WatchMember[]; isHost: boolean; everyone: boolean }) {
  return (
    <section className="side-box party-members" aria-labelledby="party-members-heading">
      <h2 id="party-members-heading" className="side-title">
        Thành viên ({members.length})
      </h2>
      {isHost && (
        <label className="form-check">
          <input
            type="checkbox"
            checked={everyone}
            onChange={(e) => room.send({ type: 'mode', mode: e.currentTarget.checked ? 'everyone' : 'host' })}
          />
          {WATCH_TEXTS.everyone}
        </label>
      )}
      <ul className="party-member-list">
        {members.map((m) => (
          <li key={m.id} className="party-member" data-member={m.name}>
            <span className="party-member-name">
              {m.name}
              {m.id === room.you && ' (bạn)'}
            </span>
            {m.host && <span className="party-tag">Chủ phòng</span>}
            {m.control && !m.host && <span className="party-tag">Đang điều khiển</span>}
            {m.away ? (
              <span className="party-tag muted">{WATCH_TEXTS.away}</span>
            ) : (
              <>
                {m.status === 'loading' && <span className="party-tag muted">Đang tải…</span>}
                {m.status === 'stalled' && <span className="party-tag muted">Đang chờ tải…</span>}
              </>
            )}
            {isHost && !m.host && (
              <span className="party-member-actions">
                {!everyone &&
                  (m.control ? (
                    <button type="button" className="btn btn-sm btn-ghost" onClick={() => room.send({ type: 'grant', to: null })}>
                      Lấy lại quyền
                    </button>
                  ) : (
                    <button type="button" className="btn btn-sm btn-ghost" onClick={() => room.send({ type: 'grant', to: m.id })}>
                      Giao quyền điều khiển cho {m.name}
                    </button>
                  ))}
                <button type="button" className="btn btn-sm btn-ghost" onClick={() => room.send({ type: 'remove', member: m.id })}>
                  Mời {m.name} ra
                </button>
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Chat({ room }: { room: WatchRoom }) {
  const [text, setText] = useState('');
  const send = (e: FormEvent) => {
    e.preventDefault();
    const clean = text.trim();
    if (!clean) return;
    room.send({ type: 'chat', text: clean.slice(0, WATCH_CHAT_MAX) });
    setText('');
  };
  return (
    <section className="side-box party-chat" aria-labelledby="party-chat-heading">
      <h2 id="party-chat-heading" className="side-title">
        Trò chuyện
      </h2>
      <ol className="party-chat-list" aria-live="polite">
        {room.chat.map((m) => (
          // Plain text: React escapes it; nothing is ever parsed as HTML.
          <li key={m.id} className="party-chat-message">
            <strong>{m.name}</strong>: {m.text}
          </li>
        ))}
      </ol>
      <form className="party-chat-form" onSubmit={send}>
        <label htmlFor="party-chat-input" className="visually-hidden">
          Tin nhắn
        </label>
        <input
          id="party-chat-input"
          placeholder="Nhắn gì đó…"
          maxLength={WATCH_CHAT_MAX}
          value={text}
          onChange={(e) => setText(e.target.value)}
          disabled={!room.connected}
        />
        <button type="submit" className="btn btn-sm btn-primary" disabled={!room.connected || !text.trim()}>
          Gửi
        </button>
      </form>
    </section>
  );
}
