// The film page's extras (issue 40 §1–2): linked people, the trailer as a facade, the source's schedule and notice as
// plain text, and "Các phần". Nothing here loads from the video host until the viewer taps "Xem trailer".
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { FilmDetail } from '../../../../../worker/schemas/catalogue';
import type { PersonRef } from '../../../../../worker/schemas/discovery';
import { filmScheduleText, waitingText } from '../../../../../worker/schemas/schedule';
import { FollowBell } from '../../../components/film/follow-bell';
import { useWatchlistItems } from '../../../lib/library';
import { useSession } from '../../../lib/session';

/** Names linked to their pages ("Trấn Thành, Tuấn Trần"), or the source's text when no person was kept. */
export function PeopleLinks({ people, kind, fallback }: { people: PersonRef[]; kind: 'actor' | 'director'; fallback: string }) {
  if (!people.length) return <>{fallback || '—'}</>;
  return (
    <>
      {people.map((p, i) => (
        <span key={p.slug}>
          {i > 0 && ', '}
          {kind === 'actor' ? (
            <Link to="/dien-vien/$slug" params={{ slug: p.slug }}>
              {p.name}
            </Link>
          ) : (
            <Link to="/dao-dien/$slug" params={{ slug: p.slug }}>
              {p.name}
            </Link>
          )}
        </span>
      ))}
    </>
  );
}

/**
 * "Xem trailer": a button until tapped, then youtube-nocookie's player for that video id (the id only: the crawler
 * keeps nothing else of the source's link). No request leaves for YouTube before the tap.
 */
export function TrailerFacade({ id, title }: { id: string; title: string }) {
  const [open, setOpen] = useState(false);
  if (!open)
    return (
      <button type="button" className="btn btn-ghost btn-block btn-trailer" onClick={() => setOpen(true)}>
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="currentColor">
          <path d="M10 8.5v7l6-3.5z" />
          <path d="M21.6 7.2a2.5 2.5 0 0 0-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4a2.5 2.5 0 0 0-1.8 1.8C2 8.8 2 12 2 12s0 3.2.4 4.8a2.5 2.5 0 0 0 1.8 1.8C5.8 19 12 19 12 19s6.2 0 7.8-.4a2.5 2.5 0 0 0 1.8-1.8c.4-1.6.4-4.8.4-4.8s0-3.2-.4-4.8zM4 12c0-2 .1-3.5.3-4.4.1-.2.2-.3.4-.4C6 7 12 7 12 7s6 0 7.3.2c.2.1.3.2.4.4.2.9.3 2.4.3 4.4s-.1 3.5-.3 4.4c-.1.2-.2.3-.4.4C18 17 12 17 12 17s-6 0-7.3-.2a.6.6 0 0 1-.4-.4C4.1 15.5 4 14 4 12z" />
        </svg>
        Xem trailer
      </button>
    );
  return (
    <div className="trailer-frame">
      <iframe
        src={`https://www.youtube-nocookie.com/embed/${encodeURIComponent(id)}?autoplay=1&rel=0&playsinline=1`}
        title={`Trailer ${title}`}
        allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
        allowFullScreen
        referrerPolicy="strict-origin-when-cross-origin"
      />
    </div>
  );
}

/**
 * "Lịch chiếu: …" and "Thông báo: …": the source's words as text (React escapes them; the crawler already removed
 * tags); beside them, our own "Tập mới: Thứ 4, Thứ 5 · khoảng 20:00 (dự kiến)" from when its episodes arrived.
 */
export function SourceNotes({ film }: { film: Pick<FilmDetail, 'showtimes' | 'notify' | 'schedule'> }) {
  if (!film.showtimes && !film.notify && !film.schedule) return null;
  return (
    <div className="film-notes">
      {film.showtimes && (
        <p className="film-note">
          <strong>Lịch chiếu:</strong> {film.showtimes}
        </p>
      )}
      {film.schedule && <p className="film-note film-note-predicted">{filmScheduleText(film.schedule)}</p>}
      {film.notify && (
        <p className="film-note film-note-notify">
          <strong>Thông báo:</strong> {film.notify}
        </p>
      )}
    </div>
  );
}

/** "Các phần": the show's seasons side by side, this one marked. */
export function Seasons({ film }: { film: Pick<FilmDetail, 'seasons' | 'slug'> }) {
  if (film.seasons.length < 2) return null;
  return (
    <nav className="film-seasons" aria-labelledby="seasons-heading">
      <h2 id="seasons-heading" className="section-title">
        Các phần
      </h2>
      <ul>
        {film.seasons.map((s) => (
          <li key={s.slug}>
            {s.slug === film.slug ? (
              <span className="season-chip active" aria-current="page">
                {s.season ? `Phần ${s.season}` : s.title}
              </span>
            ) : (
              <Link className="season-chip" to="/$slug" params={{ slug: s.slug }} title={s.title}>
                {s.season ? `Phần ${s.season}` : s.title}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The last episode of an ongoing series watched: "Chờ tập 6 · dự kiến Thứ 4 · khoảng 20:00" (or "Chờ tập 6" with no
 * prediction) and the bell to be told when it comes. Shown only in the browser (it rests on this device's history).
 */
export function WaitingForNext({ film, episode }: { film: FilmDetail; episode: number }) {
  const session = useSession();
  const list = useWatchlistItems();
  const notify = list.data.find((i) => i.slug === film.slug)?.notify;
  return (
    <div className="film-waiting">
      <p className="film-waiting-text muted">{waitingText(episode, film.schedule, Date.now())}</p>
      <FollowBell film={film} on={!!session && notify === true} listed={notify !== undefined} signedIn={!!session} />
    </div>
  );
}
