// The film page gets its likely episode ready while the viewer reads it (issue 31 §1, decision 0952), so that
// the tap on "Xem phim" (or "Xem tiếp tập N") plays within a second:
// - once the page is idle after its load: the episode's link, the stream's playlists and the engine's script,
//   over the network only (a few KB and the engine's script, which the browser then keeps; never with Data Saver);
// - once it has settled (as the watch page's own evaluation): the watch page's code;
// - on the viewer's intent (a pointer down on "Xem phim", or the tap itself): the segment of the first frame, and the
//   engine evaluated (a task before the watch page renders, not after it: the player attaches as it mounts; a median
//   ~140 ms sooner on the phone profile, decision 0952);
// - on the tap: the stream attached to the player the watch page takes (stream/hand-over.ts), beside its render.
import type { QueryClient } from '@tanstack/react-query';
import type { WatchTarget } from '../../lib/resume-point';
import { episodeQuery } from './api/episode-query';
import { loadPlayerPrefs } from './player-prefs';
import { CHUNK_META } from './stream/chunk-names';
import { browserDeps } from './stream/controller';
import { handOverPlayer } from './stream/hand-over';
import { estimateBandwidth } from './stream/playlist';
import { prepareStream } from './stream/prefetch';
import { afterLoadWhenIdle, prefetchScript, SETTLED_MS } from './stream/schedule';

export interface WatchPreparation {
  /** The viewer is about to tap "Xem phim": the first segment too, and the watch page's code now. */
  intent(): void;
  /** The tap itself: the stream is attached to the player the watch page will take (stream/hand-over.ts). */
  tap(): void;
  cancel(): void;
}

export function prepareWatch(target: WatchTarget, queryClient: QueryClient, loadWatchRoute: () => void): WatchPreparation {
  let cancelled = false;
  let routeLoaded = false;
  const route = () => {
    if (routeLoaded) return;
    routeLoaded = true;
    loadWatchRoute();
  };
  // The episode's m3u8 ('' for an embed-only episode): asked once while the viewer reads, then from the app's cache.
  const link = () =>
    queryClient
      .fetchQuery({ ...episodeQuery(target.slug, target.episode, target.server), staleTime: 60_000 })
      .then((answer) => answer.data.link_m3u8);
  const stream = async (segment: boolean) => {
    const m3u8 = await link();
    if (!m3u8) return;
    await prepareStream(m3u8, {
      position: target.position,
      bandwidthBps: estimateBandwidth(),
      preferHeight: loadPlayerPrefs().quality,
      segment,
    });
  };
  const cancels = [
    afterLoadWhenIdle(0, () => {
      prefetchScript(CHUNK_META.engine.meta);
      void stream(false).catch(() => undefined);
    }),
    afterLoadWhenIdle(SETTLED_MS, route),
  ];
  let intended = false;
  const intent = () => {
    if (intended || cancelled) return;
    intended = true;
    route();
    void Promise.resolve(browserDeps.loadEngine()).catch(() => undefined);
    void stream(true).catch(() => undefined);
  };
  return {
    intent,
    tap() {
      intent();
      if (cancelled) return;
      // From the cache in the tap's own task (asked while the viewer read): the watch page can render within the
      // microtasks that follow it, before an answer passed through a promise (tests/e2e/stream-start.test.ts).
      const cached = queryClient.getQueryData(episodeQuery(target.slug, target.episode, target.server).queryKey);
      handOverPlayer(cached?.data.link_m3u8 ?? link(), target.position);
    },
    cancel() {
      cancelled = true;
      for (const cancel of cancels) cancel();
      // Fetches in flight are left to finish: what they bring is kept for the watch page a while (prefetch.ts).
    },
  };
}
