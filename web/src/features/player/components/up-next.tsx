import { useEffect, useRef, useState } from 'react';
import type { FilmCard } from '../../../../../worker/schemas/catalogue';
import { FilmLink } from '../../../components/film/film-link';
import { Poster } from '../../../components/film/poster';
import { UP_NEXT_LABEL } from '../../../../../worker/schemas/segment-texts';

export const UP_NEXT_SECONDS = 10;

/**
 * Shown at the credits (where viewers taught they start, issue 40 §7; else 95 %) or the end of an episode. With a
 * next episode: its title, a 10 s countdown ("Tập tiếp theo sau 10 giây · Hủy") that continues into it, and "Xem tập
 * tiếp" to go at once; "Hủy" closes the card and the page stays.
 * At the last episode: recommended films instead.
 */
export function UpNext({
  filmTitle,
  poster,
  nextEpisode,
  recommended,
  onContinue,
  onClose,
}: {
  filmTitle: string;
  poster?: string;
  nextEpisode?: number;
  recommended: FilmCard[];
  onContinue: () => void;
  onClose: () => void;
}) {
  const [left, setLeft] = useState(UP_NEXT_SECONDS);
  const continueRef = useRef(onContinue);
  continueRef.current = onContinue;
  const hasNext = nextEpisode !== undefined;

  useEffect(() => {
    if (!hasNext) return;
    const started = Date.now();
    const timer = window.setInterval(() => {
      const remaining = UP_NEXT_SECONDS - Math.floor((Date.now() - started) / 1000);
      setLeft(Math.max(0, remaining));
      if (remaining <= 0) {
        window.clearInterval(timer);
        continueRef.current();
      }
    }, 250);
    return () => window.clearInterval(timer);
  }, [hasNext]);

  if (!hasNext) {
    const films = recommended.slice(0, 4);
    return (
      <section className="up-next up-next-end" aria-labelledby="up-next-heading" data-testid="up-next">
        <div className="up-next-head">
          <h2 id="up-next-heading" className="up-next-title">
            Phim đề xuất
          </h2>
          <button type="button" className="btn btn-sm btn-ghost" onClick={onClose} aria-label="Đóng phim đề xuất">
            Đóng
          </button>
        </div>
        {films.length > 0 ? (
          <ul className="up-next-films">
            {films.map((film) => (
              <li key={film.id}>
                <FilmLink slug={film.slug} className="up-next-film">
                  <Poster src={film.thumb || film.hinhanh} alt="" width={64} height={90} className="side-poster" />
                  <span className="up-next-film-name">{film.title}</span>
                </FilmLink>
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">Bạn đã xem hết phim này.</p>
        )}
      </section>
    );
  }

  return (
    <section className="up-next" aria-labelledby="up-next-heading" data-testid="up-next">
      {poster && <Poster src={poster} alt="" width={64} height={90} className="side-poster" />}
      <div className="up-next-body">
        <h2 id="up-next-heading" className="up-next-title">
          <button type="button" className="up-next-play" onClick={onContinue}>
            {filmTitle} - Tập {nextEpisode}
          </button>
        </h2>
        <p className="up-next-countdown" role="timer" aria-live="off">
          Tập tiếp theo sau {left} giây ·{' '}
          <button type="button" className="up-next-cancel" onClick={onClose}>
            Hủy
          </button>
        </p>
        <button type="button" className="btn btn-sm btn-primary up-next-now" onClick={onContinue}>
          {UP_NEXT_LABEL}
        </button>
      </div>
    </section>
  );
}
