import { useOnline, useShowingSavedContent } from '../../lib/online';

/** Offline: says so, and claims saved content only when the page shows what the device kept. */
export function OfflineBanner() {
  const online = useOnline();
  const saved = useShowingSavedContent();
  if (online) return null;
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      <svg
        viewBox="0 0 24 24"
        width="18"
        height="18"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
      >
        <path d="M3 3l18 18M8.5 16a5 5 0 0 1 7 0M12 20h.01M5 12.5a10 10 0 0 1 4-2.2M2 8.8a15 15 0 0 1 4.2-2.6" />
      </svg>
      {saved ? 'Bạn đang ngoại tuyến — đang hiển thị nội dung đã lưu.' : 'Bạn đang ngoại tuyến — trang sẽ tự cập nhật khi có mạng trở lại.'}
    </div>
  );
}
