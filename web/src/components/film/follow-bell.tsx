import { useQueryClient } from '@tanstack/react-query';
import type { FilmCard } from '../../../../worker/schemas/catalogue';
import { setInWatchlist, setNotify } from '../../lib/library';
import { toast } from '../../lib/toast';

/**
 * The bell: follow a film's new episodes. On = in the member's "Tủ phim" with new-episode pushes on; a tap turns them
 * off (the film stays in the list) or on (adding the film when it is not there). A visitor's tap keeps the film on
 * the device and says that notifications need an account.
 */
export function FollowBell({ film, on, listed, signedIn }: { film: FilmCard; on: boolean; listed: boolean; signedIn: boolean }) {
  const queryClient = useQueryClient();
  const toggle = () => {
    const change = !signedIn || !listed ? setInWatchlist(queryClient, film, true) : setNotify(queryClient, film.slug, !on);
    void change.then(
      () =>
        toast(
          !signedIn
            ? 'Đã thêm vào Tủ phim. Đăng nhập để nhận thông báo khi có tập mới.'
            : on
              ? `Đã tắt thông báo tập mới của ${film.title}`
              : `Sẽ báo khi ${film.title} có tập mới`,
          { id: `follow-${film.slug}` },
        ),
      () => toast('Chưa lưu được, thử lại sau.', { id: `follow-${film.slug}` }),
    );
  };
  return (
    <button
      type="button"
      className={`follow-bell${on ? ' is-on' : ''}`}
      aria-pressed={on}
      aria-label={on ? `Tắt thông báo tập mới của ${film.title}` : `Báo khi ${film.title} có tập mới`}
      title={on ? 'Tắt thông báo tập mới' : 'Báo khi có tập mới'}
      onClick={toggle}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path
          d="M12 22a2.5 2.5 0 0 0 2.4-2h-4.8a2.5 2.5 0 0 0 2.4 2zm7-6V11a7 7 0 0 0-5.5-6.8V3.5a1.5 1.5 0 0 0-3 0v.7A7 7 0 0 0 5 11v5l-2 2v1h18v-1z"
          fill={on ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="1.6"
        />
      </svg>
    </button>
  );
}
