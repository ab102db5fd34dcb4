import type { FilmDetailResponse } from '../../../worker/schemas/catalogue';
import { CommentsSection } from '../features/comments/components/comments-section';
import { FilmDownload } from '../features/downloads/components/download-slot';
import type { FilmPageSlots } from '../features/catalogue/components/film-page';
import { warmPlayer } from './warm-player';
import { RateFilm } from '../features/ratings/components/rate-film';

/** The comments of a film, under its page and under its player. */
export const filmComments = (data: FilmDetailResponse) => (
  <CommentsSection slug={data.datafilm.slug} comments={data.comments} cursor={data.comments_cursor} total={data.comments_total} />
);

/** The viewer's own stars on a film's page. */
export const filmRating = (data: FilmDetailResponse) => <RateFilm slug={data.datafilm.slug} own={data.rating_star.rating} />;

/** "Tải cả phim" on the film's page (issue 26): the button is drawn at once, its code loads on the tap. */
export const filmDownload = (data: FilmDetailResponse) => <FilmDownload film={data} warmPlayer={warmPlayer} />;

/**
 * The film page gets its likely episode ready (the watch page's code, the link, the stream's first bytes; issue 31).
 * Its code (the stream's chunk, ~8 KB gzip) loads once the page is idle after its load, or at once on the viewer's
 * intent: the film page's own first load is unchanged.
 */
export const filmPrepareWatch: NonNullable<FilmPageSlots['prepareWatch']> = (target, queryClient, loadWatchRoute) => {
  let prepared: { intent(): void; tap(): void; cancel(): void } | undefined;
  let cancelled = false;
  /** What the viewer did before the preparation's code was in: a finger down on "Xem phim", or the tap. */
  let asked: 'intent' | 'tap' | undefined;
  let requested = false;
  const load = () => {
    if (requested || cancelled) return;
    requested = true;
    void import('../features/player/prepare-watch')
      .then(({ prepareWatch }) => {
        if (cancelled) return;
        prepared = prepareWatch(target, queryClient, loadWatchRoute);
        if (asked) prepared[asked]();
      })
      .catch(() => undefined);
  };
  const idle = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(load, { timeout: 3000 }) : setTimeout(load, 200));
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
  return {
    intent() {
      asked ??= 'intent';
      if (prepared) prepared.intent();
      else load();
    },
    // A tap before the preparation's code is in (it waits for an idle moment, which a phone hydrating the page may
    // not have had): asked now, and on a page the host rendered already in memory (stream-start.ts imported it).
    tap() {
      asked = 'tap';
      if (prepared) prepared.tap();
      else load();
    },
    cancel() {
      cancelled = true;
      window.removeEventListener('load', idle);
      prepared?.cancel();
    },
  };
};
