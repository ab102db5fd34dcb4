// The names of the player's chunks in index.html (`<meta name=… content="/assets/…js" data-imports="…">`, written
// by web/vite-plugins.ts chunkMetas with the chunks each imports): the watch and film pages fetch them over the
// network before they run them, and the boot script starts the stream's start path (stream-start.ts) by its name.
// No other page fetches them.
export const CHUNK_META = {
  /** stream-engine.ts: hls-video-element, hls.js and the player's loaders. */
  engine: { meta: 'phimviet-stream-engine', file: /^assets\/stream-engine-[\w-]+\.js$/ },
  /** media-elements.ts: media-chrome's control bar. */
  controls: { meta: 'phimviet-player', file: /^assets\/media-elements-[\w-]+\.js$/ },
  /** stream-start.ts: the watch and film pages' start path before the app hydrates. */
  start: { meta: 'phimviet-stream-start', file: /^assets\/stream-start-[\w-]+\.js$/ },
  /** The watch page's route (routes/xem-phim.$slug.$episode.tsx): the film page fetches it before "Xem phim" is tapped. */
  watch: { meta: 'phimviet-watch-page', file: /^assets\/xem-phim\._slug\._episode-[\w-]+\.js$/ },
  /** The film page's route (routes/$slug.tsx): the boot script links its chunks ahead on a film page (web/vite-plugins.ts). */
  film: { meta: 'phimviet-film-page', file: /^assets\/_slug-[\w-]+\.js$/ },
} as const;
