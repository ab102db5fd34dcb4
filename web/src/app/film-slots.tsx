import type { FilmDetailResponse } from '../../../worker/schemas/catalogue';
import { CommentsSection } from '../features/comments/components/comments-section';
import { EpisodeDownload, FilmDownload } from '../features/downloads/components/download-slot';
import { RateFilm } from '../features/ratings/components/rate-film';

/** The comments of a film, under its page and under its player. */
export const filmComments = (data: FilmDetailResponse) => <CommentsSection slug={data.datafilm.slug} comments={data.comments} />;

/** The viewer's own stars on a film's page. */
export const filmRating = (data: FilmDetailResponse) => <RateFilm slug={data.datafilm.slug} own={data.rating_star.rating} />;

/**
 * The player's script, kept on the device when a download starts, so a downloaded episode also plays offline:
 * the service worker caches it when first fetched through it (web/pwa.config.ts), and a page that loaded it
 * before the worker took control fetches it once more, through the worker.
 */
const warmPlayer = () =>
  void import('../features/player/media-elements')
    .then(() => {
      for (const entry of performance.getEntriesByType('resource'))
        if (/\/assets\/media-elements-[\w-]+\.js$/.test(new URL(entry.name).pathname)) void fetch(entry.name).catch(() => undefined);
    })
    .catch(() => undefined);

/** "Tải về" under the player: this episode, this server (issue 26). */
export const episodeDownload = (props: { film: FilmDetailResponse; episode: number; server: string; m3u8: string; embed: string }) => (
  <EpisodeDownload {...props} warmPlayer={warmPlayer} />
);

/** "Tải cả phim" on the film's page. */
export const filmDownload = (data: FilmDetailResponse) => <FilmDownload film={data} warmPlayer={warmPlayer} />;
