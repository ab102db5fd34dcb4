import { memo } from 'react';
import type { FilmCard as Film } from '../../../../worker/schemas/catalogue';
import { FilmCard } from './film-card';

/** Memoised: pages re-render as the router and queries settle; a grid only when its films change. */
export const FilmGrid = memo(function FilmGrid({
  films,
  limit,
  priorityCount = 0,
  headingLevel = 3,
}: {
  films: (Film & { reason?: string })[];
  limit?: number;
  priorityCount?: number;
  headingLevel?: 2 | 3 | 4;
}) {
  return (
    <ul className="film-grid">
      {(limit === undefined ? films : films.slice(0, limit)).map((film, i) => (
        <li key={film.id}>
          <FilmCard film={film} priority={i < priorityCount} headingLevel={headingLevel} />
        </li>
      ))}
    </ul>
  );
});
