import type { DownloadRecord } from '../../../lib/downloads/store';

/** Share stored, in whole percent. */
export const percentOf = (r: DownloadRecord) => (r.total > 0 ? Math.min(100, Math.floor((r.done * 100) / r.total)) : 0);

/** The state as the button and the list say it (issue 26's words). */
export function stateLabel(r: DownloadRecord): string {
  switch (r.state) {
    case 'queued':
      return 'Đang chờ';
    case 'downloading':
      return `Đang tải ${percentOf(r)}%`;
    case 'paused':
      return 'Tạm dừng';
    case 'error':
      return 'Lỗi · Thử lại';
    case 'done':
      return 'Đã tải';
  }
}

/** What the viewer can do when the device is full. */
export const QUOTA_HELP =
  'Hết dung lượng: máy không còn chỗ để lưu tiếp. Hãy xóa bớt phim đã tải hoặc giải phóng bộ nhớ của máy, rồi bấm "Tiếp tục". Phần đã tải vẫn được giữ.';

export const ERROR_HELP: Record<string, string> = {
  network: 'Mất kết nối tới nguồn phim sau nhiều lần thử. Phần đã tải vẫn được giữ; bấm để tải tiếp từ chỗ dừng.',
  source: 'Nguồn phim trả lỗi sau nhiều lần thử. Phần đã tải vẫn được giữ; bấm để tải tiếp từ chỗ dừng.',
};

export const qualityLabel = (height: number) => (height > 0 ? `${height}p` : 'Chất lượng gốc');

export const MESSAGES_EMBED_FILM = 'Phim này chỉ có trình phát nhúng của nguồn nên không tải về được.';
