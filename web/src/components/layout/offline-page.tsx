import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useOfflinePageShown } from '../../lib/online';
import { SITE_NAME, usePageMeta } from '../../lib/page-meta';

const RETRY_ONLINE_MS = 3000;

/** Shown instead of a page that was never opened on this device while the network is gone. */
export function OfflinePage({ onRetry }: { onRetry?: () => void }) {
  usePageMeta({ title: `Bạn đang ngoại tuyến | ${SITE_NAME}`, robots: 'noindex' });
  useOfflinePageShown();
  // Back online the page tries again by itself; still up while online (the network came back but the
  // first try was too early, or the server was unreachable), it tries again a moment later.
  useEffect(() => {
    if (!onRetry) return;
    const again = () => onRetry();
    window.addEventListener('online', again);
    const later = navigator.onLine ? window.setTimeout(again, RETRY_ONLINE_MS) : undefined;
    return () => {
      window.removeEventListener('online', again);
      window.clearTimeout(later);
    };
  }, [onRetry]);
  return (
    <section className="container status-page" data-testid="offline-page">
      <p className="status-icon" aria-hidden="true">
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          width="56"
          height="56"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinecap="round"
        >
          <path d="M2 8.8a15 15 0 0 1 4.2-2.6M10 5.1A15 15 0 0 1 22 8.8M5 12.5a10 10 0 0 1 4-2.2M15 10.5a10 10 0 0 1 4 2M8.5 16a5 5 0 0 1 7 0M12 20h.01M3 3l18 18" />
        </svg>
      </p>
      <h1>Bạn đang ngoại tuyến</h1>
      <p className="muted">
        Trang này chưa được lưu trên thiết bị nên chưa thể mở khi không có mạng. Các trang bạn đã xem trước đó vẫn mở được.
      </p>
      <div className="status-actions">
        {onRetry && (
          <button type="button" className="btn btn-primary" onClick={onRetry}>
            Thử lại
          </button>
        )}
        <Link to="/" className="btn btn-ghost">
          Về trang chủ
        </Link>
      </div>
    </section>
  );
}
