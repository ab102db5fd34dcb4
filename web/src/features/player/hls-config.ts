// What the one player adds to hls.js: behaviour enters as loader hooks, never as a second player. Part of the
// stream engine's chunk (stream-engine.ts re-exports it), so hls.js is bundled once.
// - every media playlist passes the ad filter before hls.js parses it (decision 0950);
// - a playlist or segment fetched ahead of the player is handed over instead of asked again (decision 0952);
// - every request is shown to the stream's watchdog, which decides when a server is dead (decision 0952);
// - a downloaded episode is answered from the device (decision 0960).
import { Hls } from 'hls-video-element';
// hls.js's transmuxer as a classic worker script (its own hashed asset): demuxing and remuxing a segment leave the
// main thread, which at the tap is busy drawing the watch page (decision 0952). Fetched ahead with the engine
// (chunk-names.ts, data-workers); kept on the device with it for downloads (app/warm-player.ts). If the worker
// cannot start (offline without it, a blocked script), hls.js transmuxes on the main thread as before.
import transmuxWorkerUrl from 'hls.js/dist/hls.worker.js?url';
import type {
  HlsConfig,
  Loader,
  LoaderCallbacks,
  LoaderConfiguration,
  LoaderContext,
  LoaderResponse,
  LoaderStats,
  PlaylistLoaderContext,
} from 'hls.js';
import { offlineLoader } from '../../lib/downloads/offline-loader';
import { type AdFilterResult, describeCut, filterAds } from '../../lib/hls/ad-filter';
import { newLoaderStats } from '../../lib/hls/loader-stats';
import type { Prefetched } from './stream/prefetch';
import type { RequestWatch } from './stream/watchdog';

export interface StreamHooks {
  /** A playlist had injected ads cut out of it (the player's stats and the debug console say so). */
  onAdsRemoved?: (result: AdFilterResult, playlistUrl: string) => void;
  /** The answer fetched ahead of hls.js for this URL, taken once (stream/prefetch.ts). */
  take?: (url: string) => Promise<Prefetched> | undefined;
  /** Watches a request until it ends (stream/watchdog.ts). */
  track?: (url: string, stats: LoaderStats) => RequestWatch | undefined;
}

type LoaderClass = new (config: HlsConfig) => Loader<LoaderContext>;

/**
 * hls.js's own loader behind three hooks: a prefetched answer is handed over (with its real timings, so hls.js's
 * bandwidth estimate stays true), each request is watched, and media playlists go through the ad filter. The
 * playlist keeps its real URL, so relative URIs resolve as before and every level of a multi-level stream is filtered.
 */
function streamLoader(hooks: StreamHooks, filter: boolean): LoaderClass {
  const Base = Hls.DefaultConfig.loader as unknown as LoaderClass;
  return class StreamLoader implements Loader<LoaderContext> {
    context: LoaderContext | null = null;
    private inner: Loader<LoaderContext> | null = null;
    private own: LoaderStats = newLoaderStats();
    private aborted = false;
    private readonly hlsConfig: HlsConfig;

    constructor(config: HlsConfig) {
      this.hlsConfig = config;
    }

    get stats(): LoaderStats {
      return this.inner?.stats ?? this.own;
    }

    load(context: LoaderContext, config: LoaderConfiguration, callbacks: LoaderCallbacks<LoaderContext>): void {
      this.context = context;
      // hls.js asks a byte range only with a non-zero end (its fragment contexts carry 0, 0 otherwise).
      const ranged = !!context.rangeEnd;
      const handed = ranged ? undefined : hooks.take?.(context.url);
      const type = (context as PlaylistLoaderContext).type;
      const wrapped = this.wrap(callbacks, filter && (type === 'manifest' || type === 'level'));
      if (!handed) {
        this.loadItself(context, config, wrapped);
        return;
      }
      const watch = hooks.track?.(context.url, this.own);
      handed.then(
        (answer) => {
          if (this.aborted) return;
          const stats = this.own;
          stats.loading = { start: answer.start, first: answer.first, end: answer.end };
          stats.loaded = stats.total = answer.bytes;
          stats.chunkCount = 1;
          watch?.succeeded();
          const response: LoaderResponse = { url: answer.url, data: answer.data, code: 200 };
          wrapped.onSuccess(response, stats, context, null);
        },
        () => {
          // The prefetch failed: hls.js asks the host itself and meets whatever error there is itself.
          watch?.aborted();
          if (!this.aborted) this.loadItself(context, config, wrapped);
        },
      );
    }

    private loadItself(context: LoaderContext, config: LoaderConfiguration, callbacks: LoaderCallbacks<LoaderContext>): void {
      const inner = new Base(this.hlsConfig);
      this.inner = inner;
      const watch = hooks.track?.(context.url, inner.stats);
      inner.load(context, config, {
        ...callbacks,
        onSuccess: (response, stats, ctx, details) => {
          watch?.succeeded();
          callbacks.onSuccess(response, stats, ctx, details);
        },
        onError: (error, ctx, details, stats) => {
          watch?.failed(error.code);
          callbacks.onError(error, ctx, details, stats);
        },
        onTimeout: (stats, ctx, details) => {
          watch?.failed('timeout');
          callbacks.onTimeout(stats, ctx, details);
        },
        onAbort: (stats, ctx, details) => {
          watch?.aborted();
          callbacks.onAbort?.(stats, ctx, details);
        },
      });
    }

    /** The ad filter on a media playlist's text, before hls.js parses it. */
    private wrap(callbacks: LoaderCallbacks<LoaderContext>, filterPlaylist: boolean): LoaderCallbacks<LoaderContext> {
      if (!filterPlaylist) return callbacks;
      return {
        ...callbacks,
        onSuccess: (response, stats, ctx, details) => {
          if (typeof response.data === 'string') {
            const url = response.url || ctx.url;
            const result = filterAds(response.data, url);
            if (result.removedSegments > 0) {
              response.data = result.text;
              console.debug(`[trình phát] ${describeCut(result)}: ${url}`, result.groups);
              hooks.onAdsRemoved?.(result, url);
            }
          }
          callbacks.onSuccess(response, stats, ctx, details);
        },
      };
    }

    abort(): void {
      this.aborted = true;
      this.own.aborted = true;
      this.inner?.abort();
    }

    destroy(): void {
      this.aborted = true;
      this.inner?.destroy();
      this.context = null;
    }

    getCacheAge(): number | null {
      return this.inner?.getCacheAge?.() ?? null;
    }

    getResponseHeader(name: string): string | null {
      return this.inner?.getResponseHeader?.(name) ?? null;
    }
  };
}

export interface HlsConfigOptions {
  /**
   * Play a downloaded episode (issue 26): its playlists, segments, keys and subtitles are answered from the
   * device under `/offline-media/{episodeId}/…` (lib/downloads/offline-loader.ts). The stored playlists were
   * filtered when downloaded, so they are not filtered again.
   */
  offline?: { episodeId: string };
  /** Where playback starts (seconds on the film's timeline): hls.js loads that segment first. */
  startPosition?: number;
  /** The viewer's bandwidth, bits per second: hls.js's first estimate. */
  bandwidthBps?: number;
}

/** The transmuxer worker's script: kept on the device with the engine (app/warm-player.ts). */
export const TRANSMUX_WORKER_URL = transmuxWorkerUrl;

/** hls.js's configuration for the player: the stream's loader, or the downloaded copy's loader. */
export function createHlsConfig(hooks: StreamHooks = {}, options: HlsConfigOptions = {}): Partial<HlsConfig> {
  const start: Partial<HlsConfig> = {
    enableWorker: true,
    workerPath: transmuxWorkerUrl,
    ...(options.startPosition && options.startPosition > 0 ? { startPosition: options.startPosition } : {}),
    ...(options.bandwidthBps ? { abrEwmaDefaultEstimate: options.bandwidthBps } : {}),
  };
  if (options.offline) {
    const loader = offlineLoader(Hls.DefaultConfig.loader as unknown as LoaderClass, options.offline.episodeId);
    return {
      ...start,
      loader: loader as unknown as HlsConfig['loader'],
      pLoader: loader as unknown as HlsConfig['pLoader'],
      fLoader: loader as unknown as HlsConfig['fLoader'],
    };
  }
  return {
    ...start,
    pLoader: streamLoader(hooks, true) as unknown as HlsConfig['pLoader'],
    fLoader: streamLoader(hooks, false) as unknown as HlsConfig['fLoader'],
  };
}
