import { memo } from 'react';
import type { SideFilm } from '../../../../worker/schemas/catalogue';
import { formatNumber } from '../../lib/format';
import { FilmLink } from './film-link';
import { Poster } from './poster';
import { VipBadge } from './vip-badge';

/** Sidebar list: small poster, title, release year and views. */
export const SideFilmList = memo(function SideFilmList({ films, ranked = false }: { films: SideFilm[]; ranked?: boolean }) {
  return (
    <ol className={`side-list ${ranked ? 'side-list-ranked' : ''}`}>
      {films.map((film, i) => (
        <li key={film.id}>
          <FilmLink slug={film.slug} className="side-item">
            {ranked && (
              <span className="side-rank" aria-hidden="true">
                {i + 1}
              </span>
            )}
            <Poster src={film.thumb || film.hinhanh} alt="" width={64} height={90} className="side-poster" />
            <span className="side-body">
              <span className="side-name">
                <VipBadge film={film} variant="inline" />
                {film.title}
              </span>
              <span className="side-meta">
                {film.namphathanh ?? '—'} · {formatNumber(film.views)} lượt xem
              </span>
            </span>
          </FilmLink>
        </li>
      ))}
    </ol>
  );
});
