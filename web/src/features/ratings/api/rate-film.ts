import type { QueryClient } from '@tanstack/react-query';
import type { FilmDetailResponse } from '../../../../../worker/schemas/catalogue';
import type { RateFilmResult } from '../../../../../worker/schemas/ratings';
import { api, unwrap } from '../../../lib/api-client';
import { authedCall } from '../../../lib/auth-request';

export const LOGIN_TO_RATE = 'Bạn cần đăng nhập để có thể đánh giá';
export const RATING_FAILED = 'Có lỗi xảy ra khi đánh giá. Vui lòng thử lại sau.';

/** POST /api/product/rating_star (Bearer, refreshed and retried once on 401/403). */
export async function rateFilm(slug: string, stars: number): Promise<RateFilmResult> {
  return unwrap(authedCall((headers) => api.api.product.rating_star.$post({ json: { titlefilm: slug, starselect: stars } }, { headers })));
}

/**
 * The spec reloads the page after rating; the answer already holds the new figures, so every
 * cached copy of the film shows them at once (the viewer's own stars only in their own copy).
 */
export function applyRating(queryClient: QueryClient, slug: string, viewerId: string, result: RateFilmResult): void {
  queryClient.setQueriesData<FilmDetailResponse>(
    { queryKey: ['film', slug] },
    (old) => old && { ...old, general_assessment: result.general_assessment },
  );
  queryClient.setQueriesData<FilmDetailResponse>(
    { queryKey: ['film', slug, viewerId] },
    (old) => old && { ...old, rating_star: { rating: result.rating } },
  );
}
