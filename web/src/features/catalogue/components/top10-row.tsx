// "Top 10 phim bộ hôm nay" / "Top 10 phim lẻ hôm nay" (issue 40 §3): large rank numbers, the move against yesterday.
// Rendered from the whole home's answer (asked once the page runs), below the first screen: it never holds up LCP.
import { Link } from '@tanstack/react-router';
import type { Top10Entry, Top10Rows } from '../../../../../worker/schemas/discovery';
import { rankChange, TOP10_TITLES } from '../../../../../worker/schemas/discovery-texts';

const changeClass = (change: string) => (change === 'Mới' ? 'new' : change.startsWith('▲') ? 'up' : change.startsWith('▼') ? 'down' : '');

export function Top10Row({ list, entries }: { list: keyof Top10Rows; entries: Top10Entry[] | undefined }) {
  if (!entries?.length) return null;
  const heading = `top10-${list}`;
  return (
    <section className="home-section top10-row" aria-labelledby={heading}>
      <div className="section-head">
        <h2 id={heading} className="section-title">
          {TOP10_TITLES[list]}
        </h2>
      </div>
      <ol>
        {entries.map(({ rank, previous, film }) => {
          const change = rankChange(rank, previous);
          return (
            <li key={film.id} className="top10-item">
              <Link to="/$slug" params={{ slug: film.slug }}>
                <span className="visually-hidden">Hạng {rank}: </span>
                <span className="top10-rank" aria-hidden="true">
                  {rank}
                </span>
                <span className="top10-card">
                  <img src={film.hinhanh || film.thumb} alt="" width={104} height={148} loading="lazy" decoding="async" />
                  <span className={`top10-change ${changeClass(change)}`} title="So với hôm qua">
                    {change}
                  </span>
                  <span className="top10-title">{film.title}</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
