import { Link } from '@tanstack/react-router';
import type { FilmCard as Film } from '../../../../worker/schemas/catalogue';
import { episodeBadge } from '../../lib/format';
import { Poster } from './poster';

/** The listing card of SPEC.md §2.3: status-language badge, poster, episode badge, title link. */
export function FilmCard({ film, priority = false, headingLevel = 3 }: { film: Film; priority?: boolean; headingLevel?: 2 | 3 | 4 }) {
  const badge = [film.trangthai, film.ngonngu].filter(Boolean).join('-');
  const episodes = episodeBadge(film.sotap);
  const Heading = `h${headingLevel}` as const;
  return (
    <article className="film-card">
      <Link to="/$slug" params={{ slug: film.slug }} className="film-card-link" aria-label={film.title}>
        <span className="film-card-media">
          <Poster src={film.hinhanh || film.thumb} alt={`Poster phim ${film.title}`} priority={priority} />
          {badge && <span className="badge badge-status">{badge}</span>}
          {episodes && <span className="badge badge-episodes">{episodes}</span>}
          <span className="film-card-play" aria-hidden="true" />
        </span>
      </Link>
      <Heading className="film-card-title">
        <Link to="/$slug" params={{ slug: film.slug }}>
          {film.title}
        </Link>
      </Heading>
      {film.nameenglish && <p className="film-card-sub">{film.nameenglish}</p>}
    </article>
  );
}
