import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { Poster } from '../../../components/film/poster';
import { formatClock, formatDateTime } from '../../../lib/format';
import { clearWatched, entryOf, forgetWatched, historyQuery } from '../../../lib/library';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { useWatchHistory, type WatchEntry } from '../../../lib/watch-history';

const FAILED = 'Chưa xoá được, vui lòng thử lại.';

/** /lich-su: what was watched, newest first, with remove one and clear all (the account's for a member). */
export function HistoryPage() {
  usePageMeta({ title: `Lịch sử xem | ${SITE_SUFFIX}`, robots: 'noindex, nofollow' });
  const session = useSession();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const device = useWatchHistory();
  const server = useQuery({ ...historyQuery(session?.id ?? '', page), enabled: !!session });
  const entries: WatchEntry[] = session ? (server.data?.data.map(entryOf) ?? []) : device;
  const totalPages = session ? (server.data?.pagination.totalPages ?? 1) : 1;

  const clearAll = () => {
    if (!window.confirm('Xoá toàn bộ lịch sử xem?')) return;
    void clearWatched(queryClient).then(
      () => toast('Đã xoá lịch sử xem', { id: 'history' }),
      () => toast.error(FAILED, { id: 'history' }),
    );
  };

  return (
    <div className="container library-page">
      <div className="library-head">
        <h1 className="page-heading">Lịch sử xem</h1>
        <div>
          <Link to="/tu-phim" className="btn btn-ghost btn-sm">
            Tủ phim
          </Link>{' '}
          {entries.length > 0 && (
            <button type="button" className="btn btn-ghost btn-sm" onClick={clearAll}>
              Xoá tất cả
            </button>
          )}
        </div>
      </div>
      {!session && <p className="library-note">Lịch sử đang lưu trên thiết bị này; đăng nhập để xem tiếp trên mọi thiết bị.</p>}
      {session && server.isPending ? (
        <p role="status">Đang tải…</p>
      ) : session && server.error ? (
        <p role="alert">Không tải được lịch sử: {server.error.message}</p>
      ) : entries.length === 0 ? (
        <p className="library-note">Bạn chưa xem phim nào.</p>
      ) : (
        <ul className="library-list" aria-label="Phim đã xem">
          {entries.map((e) => {
            const percent = e.duration > 0 ? Math.min(100, (e.time / e.duration) * 100) : 0;
            return (
              <li key={e.slug} className="library-item" data-slug={e.slug}>
                <Link to="/xem-phim/$slug/$episode" params={{ slug: e.slug, episode: `tap-${e.episode}` }}>
                  <Poster src={e.poster} alt="" width={84} height={118} />
                </Link>
                <div>
                  <Link to="/$slug" params={{ slug: e.slug }} className="library-item-title">
                    {e.title}
                  </Link>
                  <p className="library-item-meta">
                    Tập {e.episode} · {formatClock(e.time)}
                    {e.duration > 0 ? ` / ${formatClock(e.duration)}` : ''} · {formatDateTime(e.updatedAt)}
                  </p>
                  <div className="library-progress" aria-hidden="true">
                    <span style={{ width: `${percent}%` }} />
                  </div>
                </div>
                <div className="library-actions">
                  <button
                    type="button"
                    className="icon-btn"
                    aria-label={`Xoá ${e.title} khỏi lịch sử xem`}
                    onClick={() => void forgetWatched(queryClient, e.slug).catch(() => toast.error(FAILED, { id: 'history' }))}
                  >
                    ×
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {totalPages > 1 && (
        <nav className="library-head" aria-label="Trang lịch sử">
          <button type="button" className="btn btn-ghost btn-sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Trang trước
          </button>
          <span>
            {page}/{totalPages}
          </span>
          <button type="button" className="btn btn-ghost btn-sm" disabled={page >= totalPages} onClick={() => setPage(page + 1)}>
            Trang sau
          </button>
        </nav>
      )}
    </div>
  );
}
