import type { FilmCard as Film } from '../../../../worker/schemas/catalogue';
import { FilmCard } from './film-card';

export function FilmGrid({ films, priorityCount = 0, headingLevel = 3 }: { films: Film[]; priorityCount?: number; headingLevel?: 2 | 3 | 4 }) {
  return (
    <ul className="film-grid">
      {films.map((film, i) => (
        <li key={film.id}>
          <FilmCard film={film} priority={i < priorityCount} headingLevel={headingLevel} />
        </li>
      ))}
    </ul>
  );
}
