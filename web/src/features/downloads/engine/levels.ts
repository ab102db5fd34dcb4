// What the quality dialog needs without the playlist parser: the refusals, a level, the default and the size
// estimate. The parser (hls-plan.ts) loads with the downloader, when the dialog opens.
/** A refusal the viewer reads (Vietnamese), before anything is stored. */
export class DownloadProblem extends Error {
  constructor(
    message: string,
    readonly kind: 'cors' | 'unreachable' | 'http' | 'live' | 'format' | 'embed' | 'space',
  ) {
    super(message);
  }
}

export const MESSAGES = {
  cors: 'Nguồn này không cho phép tải về',
  unreachable: 'Không kết nối được nguồn phim. Hãy kiểm tra mạng rồi thử lại.',
  live: 'Đây là luồng phát trực tiếp (không có điểm kết thúc) nên không tải về được.',
  format: 'Không đọc được danh sách phát của nguồn này nên không tải về được.',
  drm: 'Tập này được mã hóa theo cách không hỗ trợ tải về.',
  empty: 'Danh sách phát của tập này không có đoạn phim nào.',
  embed: 'Tập này chỉ có trình phát nhúng của nguồn nên không tải về được.',
} as const;

export interface Level {
  /** Absolute URL of the level's media playlist. */
  url: string;
  bandwidth: number;
  width: number;
  height: number;
  codecs?: string;
  frameRate?: number;
  subtitles?: string;
  audio?: string;
}

/** The default quality: the highest level at most 720p (the lowest when all are above). */
export function defaultLevel(levels: Level[]): number {
  let best = 0;
  levels.forEach((l, i) => {
    if (l.height <= 720 && l.height >= (levels[best]?.height ?? 0)) best = i;
  });
  if ((levels[best]?.height ?? 0) > 720) return 0;
  return best;
}

/** Estimated bytes of a level: bandwidth (bits/s) × duration / 8. */
export const estimateBytes = (level: Level, duration: number) => Math.round((level.bandwidth * duration) / 8);
