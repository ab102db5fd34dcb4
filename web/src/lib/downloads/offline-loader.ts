// The player's loader for downloaded episodes (DESIGN §18): hls.js asks for `/offline-media/{id}/…` URLs and
// this answers them from the episode's cache (playlists as text, segments, keys and init segments as bytes),
// as Shaka Player's `offline:` scheme does. Installed through hls.js's own `loader`/`pLoader`/`fLoader` hooks
// by the player's createHlsConfig({ offline }), so the same player, controls and shortcuts play it. No service
// worker is involved: it works whether or not a worker controls the page.
import type { HlsConfig, Loader, LoaderCallbacks, LoaderConfiguration, LoaderContext, LoaderStats } from 'hls.js';
import { cacheNameOf, offlineIdOf } from './names';
import { newLoaderStats } from '../hls/loader-stats';

type LoaderClass = new (config: HlsConfig) => Loader<LoaderContext>;

/**
 * A loader class answering the synthetic URLs of the episode `episodeId` from Cache Storage; any other URL
 * goes to hls.js's own loader (`Base`). Each answer is read with `caches.match(url, { cacheName })`, which
 * never recreates a deleted cache: deleting an episode while it plays frees its bytes, and the player then
 * reports the missing file as a failed load.
 */
export function offlineLoader(Base: LoaderClass, episodeId: string): LoaderClass {
  const cacheName = cacheNameOf(episodeId);
  return class OfflineLoader implements Loader<LoaderContext> {
    context: LoaderContext | null = null;
    stats: LoaderStats = newLoaderStats();
    private fallback: Loader<LoaderContext> | null = null;
    private aborted = false;
    private readonly hlsConfig: HlsConfig;

    constructor(config: HlsConfig) {
      this.hlsConfig = config;
    }

    load(context: LoaderContext, config: LoaderConfiguration, callbacks: LoaderCallbacks<LoaderContext>): void {
      if (offlineIdOf(context.url) !== episodeId) {
        this.fallback = new Base(this.hlsConfig);
        this.stats = this.fallback.stats;
        this.context = context;
        this.fallback.load(context, config, callbacks);
        return;
      }
      this.context = context;
      const stats = this.stats;
      stats.loading.start = performance.now();
      const fail = (code: number, text: string) => {
        if (this.aborted) return;
        stats.loading.end = performance.now();
        callbacks.onError({ code, text }, context, null, stats);
      };
      caches
        .match(context.url, { cacheName })
        .then(async (response) => {
          if (this.aborted) return;
          if (!response) {
            fail(404, 'Không còn bản đã tải của tập này');
            return;
          }
          const binary = context.responseType === 'arraybuffer';
          const data: string | ArrayBuffer = binary ? await response.arrayBuffer() : await response.text();
          if (this.aborted) return;
          const size = typeof data === 'string' ? data.length : data.byteLength;
          stats.loading.first = Math.max(performance.now(), stats.loading.start);
          stats.loading.end = stats.loading.first;
          stats.loaded = size;
          stats.total = size;
          stats.chunkCount = 1;
          callbacks.onSuccess({ url: context.url, data, code: 200 }, stats, context, null);
        })
        .catch((error: unknown) => fail(0, error instanceof Error ? error.message : 'Cache Storage'));
    }

    abort(): void {
      if (this.fallback) {
        this.fallback.abort();
        return;
      }
      this.aborted = true;
      this.stats.aborted = true;
    }

    destroy(): void {
      this.fallback?.destroy();
      this.aborted = true;
      this.context = null;
    }

    getCacheAge(): number | null {
      return null;
    }

    getResponseHeader(name: string): string | null {
      return this.fallback?.getResponseHeader?.(name) ?? null;
    }
  };
}
