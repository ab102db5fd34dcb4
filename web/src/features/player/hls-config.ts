// What the one player adds to hls.js (DESIGN §17): behaviour enters as loader hooks, never as a second player.
// Part of the player's chunk (media-elements.ts re-exports it), so hls.js is bundled once.
import { Hls } from 'hls-video-element';
import type { HlsConfig, Loader, LoaderCallbacks, LoaderConfiguration, LoaderContext, PlaylistLoaderContext } from 'hls.js';
import { offlineLoader } from '../../lib/downloads/offline-loader';
import { type AdFilterResult, describeCut, filterAds } from '../../lib/hls/ad-filter';

export interface StreamHooks {
  /** A playlist had injected ads cut out of it (the player's stats and the debug console say so). */
  onAdsRemoved?: (result: AdFilterResult, playlistUrl: string) => void;
}

type LoaderClass = new (config: HlsConfig) => Loader<LoaderContext>;

/**
 * The playlist loader: hls.js's own loader, with every media playlist passed through the ad filter before
 * hls.js parses it (docs/decisions/0950-hls-ad-filter.md). The playlist keeps its real URL, so relative URIs
 * resolve as before and every level of a multi-level stream is filtered.
 */
function playlistLoader(hooks: StreamHooks): LoaderClass {
  const Base = Hls.DefaultConfig.loader as unknown as LoaderClass;
  return class AdFilteringPlaylistLoader extends (Base as new (config: HlsConfig) => Loader<LoaderContext>) {
    load(context: LoaderContext, config: LoaderConfiguration, callbacks: LoaderCallbacks<LoaderContext>): void {
      const type = (context as PlaylistLoaderContext).type;
      if (type !== 'manifest' && type !== 'level') {
        super.load(context, config, callbacks);
        return;
      }
      super.load(context, config, {
        ...callbacks,
        onSuccess: (response, stats, ctx, details) => {
          if (typeof response.data === 'string') {
            const result = filterAds(response.data, response.url || ctx.url);
            if (result.removedSegments > 0) {
              response.data = result.text;
              console.debug(`[trình phát] ${describeCut(result)}: ${response.url || ctx.url}`, result.groups);
              hooks.onAdsRemoved?.(result, response.url || ctx.url);
            }
          }
          callbacks.onSuccess(response, stats, ctx, details);
        },
      });
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
}

/** hls.js's configuration for the player: the ad-filtering playlist loader, or the downloaded copy's loader. */
export function createHlsConfig(hooks: StreamHooks = {}, options: HlsConfigOptions = {}): Partial<HlsConfig> {
  if (options.offline) {
    const loader = offlineLoader(Hls.DefaultConfig.loader as unknown as LoaderClass, options.offline.episodeId);
    return {
      loader: loader as unknown as HlsConfig['loader'],
      pLoader: loader as unknown as HlsConfig['pLoader'],
      fLoader: loader as unknown as HlsConfig['fLoader'],
    };
  }
  return { pLoader: playlistLoader(hooks) as unknown as HlsConfig['pLoader'] };
}
