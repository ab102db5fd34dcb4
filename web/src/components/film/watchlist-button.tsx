import { useQueryClient } from '@tanstack/react-query';
import type { FilmCard } from '../../../../worker/schemas/catalogue';
import { LIBRARY_TEXTS } from '../../../../worker/schemas/library-texts';
import { setInWatchlist, useWatchlistSlugs } from '../../lib/library';
import { toast } from '../../lib/toast';

/**
 * The heart on every film card and film page: adds the film to "Tủ phim" or removes it. Works offline
 * (the change waits in the outbox) and for visitors (kept on the device, merged at sign-in).
 *
 * Its accessible name holds the words it shows (WCAG 2.5.3, so a voice-control user can say them): the
 * card's heart shows no words and is named by aria-label; the film page's button is named by its visible
 * text, the film's title following in a visually hidden span for screen readers.
 */
export function WatchlistButton({ film, variant = 'card' }: { film: FilmCard; variant?: 'card' | 'page' }) {
  const queryClient = useQueryClient();
  const { slugs } = useWatchlistSlugs();
  const on = slugs.has(film.slug);
  const page = variant === 'page';
  const toggle = () => {
    void setInWatchlist(queryClient, film, !on).then(
      () => toast(on ? LIBRARY_TEXTS.removed : LIBRARY_TEXTS.added, { id: `watchlist-${film.slug}` }),
      () => toast(LIBRARY_TEXTS.notSaved, { id: `watchlist-${film.slug}` }),
    );
  };
  return (
    <button
      type="button"
      className={`watchlist-btn watchlist-btn-${variant}${on ? ' is-on' : ''}`}
      aria-pressed={on}
      aria-label={page ? undefined : on ? `Bỏ ${film.title} khỏi Tủ phim` : `Thêm ${film.title} vào Tủ phim`}
      title={page ? undefined : on ? 'Bỏ khỏi Tủ phim' : 'Thêm vào Tủ phim'}
      onClick={toggle}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path
          d="M12 21s-7.5-4.6-9.6-9.3C.9 8.1 3.2 4 7 4c2 0 3.6 1.1 5 3 1.4-1.9 3-3 5-3 3.8 0 6.1 4.1 4.6 7.7C19.5 16.4 12 21 12 21z"
          fill={on ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="2"
          strokeLinejoin="round"
        />
      </svg>
      {page && (
        <>
          <span>{on ? 'Đã trong Tủ phim' : 'Thêm vào Tủ phim'}</span>
          <span className="visually-hidden"> ({film.title})</span>
        </>
      )}
    </button>
  );
}
