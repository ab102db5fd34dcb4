import type { FilmCard as Film } from '../../../../worker/schemas/catalogue';
import { episodeBadge } from '../../lib/format';
import { FilmLink } from './film-link';
import { Poster } from './poster';
import { VipBadge } from './vip-badge';
import { WatchlistButton } from './watchlist-button';

/**
 * The listing card: status-language badge, poster, episode badge, title link, and the heart of "Tủ phim"
 * over the poster's bottom-left corner (the top corners carry the status and VIP badges; a button
 * cannot sit inside the link).
 */
/** A card may carry why it is shown ("Phim tương tự", docs/decisions/1090): "Cùng diễn viên Trấn Thành". */
type CardFilm = Film & { reason?: string };

export function FilmCard({ film, priority = false, headingLevel = 3 }: { film: CardFilm; priority?: boolean; headingLevel?: 2 | 3 | 4 }) {
  const badge = [film.trangthai, film.ngonngu].filter(Boolean).join('-');
  const episodes = episodeBadge(film.sotap);
  const Heading = `h${headingLevel}` as const;
  return (
    <article className="film-card">
      <FilmLink slug={film.slug} className="film-card-link">
        <span className="film-card-media">
          <Poster src={film.hinhanh || film.thumb} alt="" priority={priority} />
          {badge && <span className="badge badge-status">{badge}</span>}
          {episodes && <span className="badge badge-episodes">{episodes}</span>}
          <VipBadge film={film} variant="overlay" />
          <span className="film-card-play" aria-hidden="true" />
        </span>
        <Heading className="film-card-title">{film.title}</Heading>
      </FilmLink>
      <WatchlistButton film={film} />
      {film.reason && <p className="film-card-reason">{film.reason}</p>}
      {film.nameenglish && <p className="film-card-sub">{film.nameenglish}</p>}
    </article>
  );
}
