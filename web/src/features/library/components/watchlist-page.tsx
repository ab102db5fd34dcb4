import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { FilmLink } from '../../../components/film/film-link';
import { Poster } from '../../../components/film/poster';
import { formatDateTime } from '../../../lib/format';
import { markListSeen, setInWatchlist, setNotify, useWatchlistItems, watchlistKey } from '../../../lib/library';
import { onOutboxChange, pendingOps } from '../../../lib/library-sync';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { useSession } from '../../../lib/session';
import { PushSwitch } from './push-switch';

/** List changes made on this device that the account has not heard yet (offline). */
function usePendingChanges(): number {
  const [count, setCount] = useState(0);
  useEffect(() => {
    const read = () => void pendingOps().then((ops) => setCount(ops.filter((o) => o.kind === 'watchlist').length));
    read();
    const off = onOutboxChange(read);
    return () => void off();
  }, []);
  return count;
}

/** /tu-phim: the member's list with what is new since they last opened it; offline, the last copy. */
export function WatchlistPage() {
  usePageMeta({ title: `Tủ phim | ${SITE_SUFFIX}`, robots: 'noindex, nofollow' });
  const session = useSession();
  const queryClient = useQueryClient();
  const list = useWatchlistItems();
  const pending = usePendingChanges();
  // What is new is measured from the previous visit: the visit is recorded once the list is shown.
  const marked = useRef(false);
  useEffect(() => {
    if (!session || marked.current || list.isPending || list.offline || list.error) return;
    marked.current = true;
    void markListSeen().then(() => queryClient.invalidateQueries({ queryKey: watchlistKey(session.id), refetchType: 'none' }));
  }, [session, list.isPending, list.offline, list.error, queryClient]);

  return (
    <div className="container library-page">
      <div className="library-head">
        <h1 className="page-heading">Tủ phim</h1>
        <Link to="/lich-su" className="btn btn-ghost btn-sm">
          Lịch sử xem
        </Link>
      </div>
      {session ? (
        <PushSwitch />
      ) : (
        <p className="library-note">
          Tủ phim đang lưu trên thiết bị này. <Link to="/dang-nhap">Đăng nhập</Link> để đồng bộ trên mọi thiết bị và nhận thông báo tập mới.
        </p>
      )}
      {list.offline && <p className="library-note">Bạn đang ngoại tuyến: đây là bản Tủ phim lưu lần trước.</p>}
      {pending > 0 && (
        <p className="library-note" role="status">
          {pending} thay đổi đang chờ gửi khi có mạng.
        </p>
      )}
      {list.isPending ? (
        <p role="status">Đang tải…</p>
      ) : list.error ? (
        <p role="alert">Không tải được Tủ phim: {list.error.message}</p>
      ) : list.data.length === 0 ? (
        <p className="library-note">Chưa có phim nào. Bấm biểu tượng trái tim trên một phim để thêm vào Tủ phim.</p>
      ) : (
        <ul className="library-list" aria-label="Phim trong Tủ phim">
          {list.data.map((item) => (
            <li key={item.slug} className="library-item" data-slug={item.slug}>
              <FilmLink slug={item.slug}>
                <Poster src={item.film.thumb || item.film.hinhanh} alt="" width={84} height={118} />
              </FilmLink>
              <div>
                <FilmLink slug={item.slug} className="library-item-title">
                  {item.film.title}
                </FilmLink>
                <p className="library-item-meta">
                  {[item.film.trangthai, item.film.ngonngu].filter(Boolean).join(' · ')} · Thêm lúc {formatDateTime(item.addedAt)}
                </p>
                {item.newEpisodes.length > 0 && (
                  <Link
                    to="/xem-phim/$slug/$episode"
                    params={{ slug: item.slug, episode: `tap-${item.newEpisodes[item.newEpisodes.length - 1]}` }}
                    className="library-new"
                  >
                    Mới: tập {item.newEpisodes.join(', ')}
                  </Link>
                )}
              </div>
              <div className="library-actions">
                {session && (
                  <button
                    type="button"
                    className="icon-btn"
                    aria-pressed={item.notify}
                    aria-label={
                      item.notify ? `Tắt thông báo tập mới của ${item.film.title}` : `Bật thông báo tập mới của ${item.film.title}`
                    }
                    title={item.notify ? 'Đang nhận thông báo tập mới' : 'Không nhận thông báo'}
                    onClick={() => void setNotify(queryClient, item.slug, !item.notify)}
                  >
                    <BellIcon on={item.notify} />
                  </button>
                )}
                <button
                  type="button"
                  className="icon-btn"
                  aria-label={`Bỏ ${item.film.title} khỏi Tủ phim`}
                  onClick={() => void setInWatchlist(queryClient, item.film, false)}
                >
                  ×
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function BellIcon({ on }: { on: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="20"
      height="20"
      aria-hidden="true"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
    >
      <path d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4z" fill={on ? 'currentColor' : 'none'} strokeLinejoin="round" />
      <path d="M10 21h4" />
      {!on && <path d="M3 3l18 18" />}
    </svg>
  );
}
