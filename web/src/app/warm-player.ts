/**
 * The player's script, kept on the device when a download starts, so a downloaded episode also plays offline:
 * the service worker caches it when first fetched through it (web/pwa.config.ts), and a page that loaded it
 * before the worker took control fetches it once more, through the worker. hls.js's transmuxer worker too (without
 * it a downloaded episode still plays, transmuxed on the main thread).
 */
export const warmPlayer = () =>
  void Promise.all([import('../features/player/stream-engine'), import('../features/player/media-elements')])
    .then(([engine]) => {
      for (const entry of performance.getEntriesByType('resource'))
        if (/\/assets\/(media-elements|stream-engine)-[\w-]+\.js$/.test(new URL(entry.name).pathname))
          void fetch(entry.name).catch(() => undefined);
      void fetch(engine.TRANSMUX_WORKER_URL).catch(() => undefined);
    })
    .catch(() => undefined);
