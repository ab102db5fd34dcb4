import { Link } from '@tanstack/react-router';
import { Poster } from '../../../components/film/poster';
import { formatClock } from '../../../lib/format';
import { useQueryClient } from '@tanstack/react-query';
import { forgetWatched, useContinueWatching } from '../../../lib/library';

/** "Xem tiếp": films started, newest first, each resuming at its episode (a member's from the account, lib/library.ts). */
export function ContinueWatching() {
  const history = useContinueWatching();
  const queryClient = useQueryClient();
  if (history.length === 0) return null;
  return (
    <section className="home-section continue" aria-labelledby="continue-heading">
      <div className="section-head">
        <h2 id="continue-heading" className="section-title">
          Xem tiếp
        </h2>
      </div>
      <ul className="continue-row">
        {history.slice(0, 10).map((entry) => {
          const progress = entry.duration > 0 ? Math.min(100, (entry.time / entry.duration) * 100) : 0;
          return (
            <li key={entry.slug} className="continue-item">
              <Link to="/xem-phim/$slug/$episode" params={{ slug: entry.slug, episode: `tap-${entry.episode}` }} className="continue-link">
                <Poster src={entry.poster} alt="" width={120} height={168} className="continue-poster" />
                <span className="continue-progress" aria-hidden="true">
                  <span style={{ width: `${progress}%` }} />
                </span>
                <span className="continue-title">{entry.title}</span>
                <span className="continue-meta">
                  Tập {entry.episode} · {formatClock(entry.time)}
                </span>
              </Link>
              <button
                type="button"
                className="continue-remove"
                aria-label={`Xoá ${entry.title} khỏi danh sách xem tiếp`}
                onClick={() => void forgetWatched(queryClient, entry.slug).catch(() => undefined)}
              >
                ×
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
