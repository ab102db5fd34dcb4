import type { FilmDetailResponse } from '../../../worker/schemas/catalogue';
import { CommentsSection } from '../features/comments/components/comments-section';
import { FilmDownload } from '../features/downloads/components/download-slot';
import { warmPlayer } from './warm-player';
import { RateFilm } from '../features/ratings/components/rate-film';

/** The comments of a film, under its page and under its player. */
export const filmComments = (data: FilmDetailResponse) => <CommentsSection slug={data.datafilm.slug} comments={data.comments} />;

/** The viewer's own stars on a film's page. */
export const filmRating = (data: FilmDetailResponse) => <RateFilm slug={data.datafilm.slug} own={data.rating_star.rating} />;

/** "Tải cả phim" on the film's page (issue 26): the button is drawn at once, its code loads on the tap. */
export const filmDownload = (data: FilmDetailResponse) => <FilmDownload film={data} warmPlayer={warmPlayer} />;
