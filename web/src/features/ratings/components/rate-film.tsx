import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { RATING_MAX, RATING_MIN } from '../../../../../worker/schemas/values';
import { SessionExpiredError } from '../../../lib/auth-request';
import { getSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { applyRating, LOGIN_TO_RATE, RATING_FAILED, rateFilm } from '../api/rate-film';
import { reportError } from '../../../lib/report-error';

const STARS = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i);

/** 1..10 stars; the new average shows as soon as the API answers. */
export function RateFilm({ slug, own }: { slug: string; own: number | null }) {
  const queryClient = useQueryClient();
  const [hover, setHover] = useState(0);
  const [busy, setBusy] = useState(false);
  const [thanked, setThanked] = useState(false);

  const rate = async (stars: number) => {
    const session = getSession();
    if (!session) {
      window.alert(LOGIN_TO_RATE);
      return;
    }
    setBusy(true);
    try {
      applyRating(queryClient, slug, session.id, await rateFilm(slug, stars));
      setThanked(true);
    } catch (error) {
      // An expired session has already been told and sent to /dang-nhap.
      if (!(error instanceof SessionExpiredError)) {
        reportError('ratings', error);
        toast.error(RATING_FAILED);
      }
    } finally {
      setBusy(false);
    }
  };

  const shown = hover || own || 0;
  return (
    <div className="rate-film">
      <span id={`rate-${slug}`} className="rate-label">
        Đánh giá của bạn
      </span>
      <fieldset className="rate-stars" aria-labelledby={`rate-${slug}`} onMouseLeave={() => setHover(0)}>
        {STARS.map((n) => (
          <button
            key={n}
            type="button"
            className={`rate-star ${n <= shown ? 'on' : ''}`}
            aria-label={`${n} sao`}
            aria-pressed={own === n}
            disabled={busy}
            onMouseEnter={() => setHover(n)}
            onFocus={() => setHover(n)}
            onBlur={() => setHover(0)}
            onClick={() => void rate(n)}
          >
            <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
              <path d="M12 2l3.1 6.3 6.9 1-5 4.9 1.2 6.8L12 17.8 5.8 21l1.2-6.8-5-4.9 6.9-1z" />
            </svg>
          </button>
        ))}
      </fieldset>
      <span className="rate-status" role="status" data-testid="own-rating">
        {own ? `${thanked ? 'Cảm ơn bạn! ' : ''}Bạn đã chấm ${own}/10` : hover ? `${hover}/10` : ''}
      </span>
    </div>
  );
}
