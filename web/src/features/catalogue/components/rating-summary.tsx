import { RATING_MAX } from '../../../../../worker/schemas/values';
import { formatRating } from '../../../lib/format';

const STARS = Array.from({ length: RATING_MAX }, (_, i) => i + 1);

/**
 * The real rating figures (the spec's fixed '7.5 points/55 ratings' corrected): average to one
 * decimal or 'N/A', and the number of ratings. Rating itself: features/ratings (RateFilm).
 */
export function RatingSummary({ average, total }: { average: number | null; total: number }) {
  const filled = average == null ? 0 : Math.round(average);
  return (
    <div className="rating-summary" data-testid="rating-summary">
      <span className="stars" role="img" aria-label={`Điểm trung bình ${formatRating(average)} trên ${RATING_MAX}`}>
        {STARS.map((n) => (
          <svg key={n} viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" className={n <= filled ? 'star on' : 'star'}>
            <path d="M12 2l3.1 6.3 6.9 1-5 4.9 1.2 6.8L12 17.8 5.8 21l1.2-6.8-5-4.9 6.9-1z" />
          </svg>
        ))}
      </span>
      <span className="rating-text">
        <strong>{formatRating(average)}</strong> điểm / {total} lượt đánh giá
      </span>
    </div>
  );
}
