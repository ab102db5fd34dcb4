import type { FilmDetailResponse } from '../../../worker/schemas/catalogue';
import { CommentsSection } from '../features/comments/components/comments-section';
import { RateFilm } from '../features/ratings/components/rate-film';

/** The comments of a film, under its page and under its player. */
export const filmComments = (data: FilmDetailResponse) => <CommentsSection slug={data.datafilm.slug} comments={data.comments} />;

/** The viewer's own stars on a film's page. */
export const filmRating = (data: FilmDetailResponse) => <RateFilm slug={data.datafilm.slug} own={data.rating_star.rating} />;
