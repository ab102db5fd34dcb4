// The member library's limits and texts, without its zod schemas (worker/schemas/library.ts re-exports them):
// the web's first page imports these, and a schema module would build its schemas there too.
/** A member's list holds at most this many films. */
export const WATCHLIST_MAX = 1000;
/** Progress items in one PUT /api/me/progress. */
export const PROGRESS_BATCH_MAX = 50;
/** History rows per page. */
export const HISTORY_PAGE_SIZE = 20;

export const LIBRARY_TEXTS = {
  watchlistFull: `Tủ phim đã đủ ${WATCHLIST_MAX} phim: hãy bỏ bớt phim trước khi thêm`,
  added: 'Đã thêm vào Tủ phim',
  removed: 'Đã bỏ khỏi Tủ phim',
  notSaved: 'Chưa lưu được Tủ phim, sẽ thử lại khi có mạng.',
  /** The push message's title; {title} and {n} are filled in. */
  newEpisode: '{title}: đã có tập {n}',
  badPushOrigin: 'không phải dịch vụ push được chấp nhận',
} as const;

/** `{title}: đã có tập {n}` — the new-episode notification's text. */
export const newEpisodeText = (title: string, episode: number) =>
  LIBRARY_TEXTS.newEpisode.replace('{title}', title).replace('{n}', String(episode));
