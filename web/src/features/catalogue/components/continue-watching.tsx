import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type SeriesStatus, waitingText } from '../../../../../worker/schemas/schedule';
import { Poster } from '../../../components/film/poster';
import { formatClock } from '../../../lib/format';
import { forgetWatched, useContinueWatching } from '../../../lib/library';
import { intendToPlay } from '../../../lib/play-intent';
import { continueOffer, type ResumeTarget } from '../../../lib/resume-point';
import type { WatchEntry } from '../../../lib/watch-history';
import { seriesStatusQuery } from '../api/catalogue-queries';

const SHOWN = 10;

/** The card's episode and line: where it stopped, the next episode once that one was watched, or the wait for it. */
function cardOf(entry: WatchEntry, target: ResumeTarget | undefined, film: SeriesStatus | undefined): { episode: number; meta: string } {
  if (target?.kind === 'next') return { episode: target.episode, meta: `Xem tập ${target.episode}` };
  if (target?.kind === 'waiting') return { episode: entry.episode, meta: waitingText(target.episode, film?.schedule ?? null, Date.now()) };
  const first = film?.episodes[0];
  if (target?.kind === 'start' && first !== undefined) return { episode: first, meta: 'Đã xem hết · Xem lại' };
  return { episode: entry.episode, meta: `Tập ${entry.episode} · ${formatClock(entry.time)}` };
}

/**
 * "Xem tiếp": films started, newest first (a member's from the account, lib/library.ts). Each card offers where the
 * viewer stopped, or the next episode once the last one was watched ("Xem tập 6"), and says "Tập mới" when an episode
 * came after the last watch, or, at the newest episode, "Chờ tập 6 · dự kiến Thứ 4 · khoảng 20:00"; all from the films'
 * episode numbers, newest release and predicted schedule (GET /api/series, public).
 */
export function ContinueWatching() {
  const history = useContinueWatching().slice(0, SHOWN);
  const queryClient = useQueryClient();
  const status = useQuery({ ...seriesStatusQuery(history.map((e) => e.slug)), enabled: history.length > 0 });
  if (history.length === 0) return null;
  const bySlug = new Map<string, SeriesStatus>(status.data?.data.map((s) => [s.slug, s]));
  return (
    <section className="home-section continue" aria-labelledby="continue-heading">
      <div className="section-head">
        <h2 id="continue-heading" className="section-title">
          Xem tiếp
        </h2>
      </div>
      <ul className="continue-row">
        {history.map((entry) => {
          const progress = entry.duration > 0 ? Math.min(100, (entry.time / entry.duration) * 100) : 0;
          const film = bySlug.get(entry.slug);
          const offer = film && continueOffer(entry, film);
          const card = cardOf(entry, offer?.target, film);
          return (
            <li key={entry.slug} className="continue-item">
              <Link
                to="/xem-phim/$slug/$episode"
                params={{ slug: entry.slug, episode: `tap-${card.episode}` }}
                className="continue-link"
                // A card tapped means "play it", as an episode link (lib/play-intent.ts).
                onClick={() => intendToPlay(entry.slug, card.episode)}
              >
                <Poster src={entry.poster} alt="" width={120} height={168} className="continue-poster" />
                {offer?.newEpisode && <span className="continue-new">Tập mới</span>}
                <span className="continue-progress" aria-hidden="true">
                  <span style={{ width: `${progress}%` }} />
                </span>
                <span className="continue-title">{entry.title}</span>
                <span className="continue-meta">{card.meta}</span>
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
