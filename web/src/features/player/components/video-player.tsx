import { forwardRef, type PointerEvent, type ReactNode, useCallback, useEffect, useId, useImperativeHandle, useRef, useState } from 'react';
import { formatClock } from '../../../lib/format';
import { listen } from '../../../lib/listen';
import { takeEarlyTap } from '../../../lib/play-intent';
import { useMediaSession } from '../hooks/use-media-session';
import { bindPlayerPrefs, PLAYBACK_RATES } from '../player-prefs';
import { PLAYER_HOST_ATTRIBUTES, videoHtml, videoLabel } from '../player-markup';
import { CHUNK_META } from '../stream/chunk-names';
import { type AdsRemoved, type HlsHost, type StreamController, type StreamFailure, streamControllerFor } from '../stream/controller';
import { takeHandedPlayer } from '../stream/hand-over';
import { afterLargestPaint, afterLoadWhenIdle, prefetchScript, SETTLED_MS } from '../stream/schedule';

export type { AdsRemoved, StreamFailure } from '../stream/controller';

export interface PlayerHandle {
  /** The <video> element when playing an m3u8 link; null for embed iframes. */
  media: HTMLVideoElement | null;
  /** The box that goes fullscreen, with the control bar and the up-next card in it. */
  box: HTMLElement | null;
  togglePlay: () => void;
  /** Seeks by this many seconds (negative: back), within the video. */
  seekBy: (seconds: number) => void;
}

interface VideoPlayerProps {
  /**
   * The episode's HLS link; undefined while it is still being fetched: the player's markup (poster, "Phát")
   * is already there, from the host's HTML on, and a tap then plays as soon as the link and the script are in.
   */
  m3u8: string | undefined;
  /** The source's own player, used when there is no m3u8 link. */
  embed: string;
  /** 'Film - Tập 3' */
  title: string;
  /** The film's name (lock screen). */
  filmTitle: string;
  poster?: string;
  /** The next episode (lock screen's next button); absent at the last one. */
  onNext?: () => void;
  /** Seconds to start at (resume; "Xem tiếp từ 12:34" until playback starts; a failed server's position). */
  startAt?: number;
  /** Start playing as soon as the video can: the viewer's tap that brought them here (film page, up next, failover). */
  autoPlay?: boolean;
  /** Load the player and the stream at once, without playing (a watch party plays it in step itself). */
  prepare?: boolean;
  onProgress?: (time: number, duration: number) => void;
  /** Every time update (the up-next card watches for the credits). */
  onTime?: (time: number, duration: number) => void;
  onEnded?: () => void;
  /**
   * The stream is dead for good on this server (stream/watchdog.ts: errors, a hang or a stall, the viewer being
   * online): the watch page moves to another server. Without it the player says so.
   */
  onStreamFailed?: (failure: StreamFailure) => void;
  /** Over the picture, and in fullscreen with it (the up-next card). */
  children?: ReactNode;
  /** `m3u8` is a downloaded episode's synthetic URL: this episode's copy on the device plays it (issue 26). */
  offlineId?: string;
}

type Zone = 'left' | 'middle' | 'right';
/** media-chrome leaves an element with this attribute visible when it hides the controls. */
const NO_AUTOHIDE = { noautohide: '' } as Record<string, string>;
const DOUBLE_TAP_MS = 350;
const TAP_MAX_MS = 500;
const TAP_MAX_MOVE = 24;
/**
 * The player: an m3u8 link plays in <hls-video> (hls.js, or the browser's own HLS) with media-chrome's control
 * bar; embed-only links play in the source's iframe. The stream's decisions (prepare, start, hand over prefetched
 * bytes, watch for a dead server, fail over) are the stream controller's (stream/controller.ts); this renders and
 * wires it. The gesture layer is ours: a tap plays; while playing a tap shows the controls and the next one
 * pauses; on touch a double tap on the left or right third seeks ∓10 s. Keys are in hooks/use-player-shortcuts.ts.
 */
export const VideoPlayer = forwardRef<PlayerHandle, VideoPlayerProps>(function VideoPlayer(
  {
    m3u8,
    embed,
    title,
    filmTitle,
    poster,
    onNext,
    startAt,
    autoPlay,
    prepare,
    onProgress,
    onTime,
    onEnded,
    onStreamFailed,
    children,
    offlineId,
  },
  ref,
) {
  const boxRef = useRef<HTMLDivElement>(null);
  const controllerRef = useRef<HTMLElement>(null);
  const gesturesRef = useRef<HTMLDivElement>(null);
  const hlsRef = useRef<HlsHost | null>(null);
  const videoRef = useRef<HTMLVideoElement | null>(null);
  const stream = useRef<StreamController | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [seekFlash, setSeekFlash] = useState<{ zone: Zone; key: number } | null>(null);
  const [adsRemoved, setAdsRemoved] = useState<AdsRemoved | null>(null);
  const [played, setPlayed] = useState(false);
  const [pending, setPending] = useState(false);
  const ids = useId().replace(/:/g, '');
  const callbacks = useRef({ onProgress, onTime, onEnded, onStreamFailed, startAt, autoPlay, prepare });
  callbacks.current = { onProgress, onTime, onEnded, onStreamFailed, startAt, autoPlay, prepare };
  /** A play asked for while the episode's link is still being fetched (no controller yet). */
  const wantsPlay = useRef(false);
  /** The player's markup: an HLS link, or one still being fetched. */
  const hlsPlayer = m3u8 !== '';
  // The <video> (a light-DOM child of <hls-video>, the element everyone else reads): written once per player, so a
  // re-render never replaces it; its label follows the title.
  const [videoMarkup] = useState(() => ({ __html: videoHtml(title) }));
  const attachHost = useCallback((host: HlsHost | null) => {
    hlsRef.current = host;
    videoRef.current = host?.querySelector<HTMLVideoElement>(':scope > video') ?? null;
  }, []);
  const titleRef = useRef(title);
  titleRef.current = title;
  useEffect(() => {
    videoRef.current?.setAttribute('aria-label', videoLabel(title));
  }, [title]);

  // The stream controller of this source (the start path's, when it already runs on this <video>; the film page's,
  // on the element its tap built and attached, which takes the place of the one rendered here: stream/hand-over.ts).
  useEffect(() => {
    let video = videoRef.current;
    let host = hlsRef.current;
    if (!m3u8 || !video || !host) return;
    const { autoPlay: asked, prepare: now, onStreamFailed: failover, startAt: at } = callbacks.current;
    const handed = offlineId ? undefined : takeHandedPlayer(m3u8, at ?? 0);
    if (handed) {
      // React keeps the element it rendered (detached, never rendered to again: its props are fixed) and removes
      // the taken one with the player.
      handed.video.setAttribute('aria-label', videoLabel(titleRef.current));
      host.replaceWith(handed.host);
      attachHost(handed.host);
      ({ host, video } = handed);
    }
    const controller = streamControllerFor(video, host, { m3u8, offlineId, startAt: at, failover: !!failover });
    stream.current = controller;
    let unbindPrefs: (() => void) | undefined;
    controller.setView({
      started: () => setPlayed(true),
      pending: setPending,
      message: setMessage,
      adsRemoved: setAdsRemoved,
      attached: () => {
        unbindPrefs?.();
        unbindPrefs = bindPlayerPrefs(video, host);
      },
      failed: failover ? (failure) => callbacks.current.onStreamFailed?.(failure) : undefined,
    });
    // What the viewer already asked: the tap that brought them here, a tap while the link loaded.
    if (asked || wantsPlay.current) controller.play();
    else if (now || customElements.get('hls-video')) controller.warm();
    wantsPlay.current = false;
    const cancels = [
      afterLargestPaint(() => {
        controller.prepare();
        prefetchScript(CHUNK_META.engine.meta);
      }),
      afterLoadWhenIdle(SETTLED_MS, () => controller.warm()),
    ];
    return () => {
      for (const cancel of cancels) cancel();
      unbindPrefs?.();
      controller.destroy();
      if (stream.current === controller) stream.current = null;
    };
  }, [m3u8, offlineId, attachHost]);

  // The viewer's play from before this player existed, asked of the browser at once (within the tap's activation,
  // before the episode's link is even known): the tap that brought them here (film page, up next, a failed server),
  // or a tap on the host's "Phát" before the page's script ran, remembered by the boot script (lib/play-intent.ts;
  // on a page the start path plays itself, stream-start.ts, it has taken it already).
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the player first shows.
  useEffect(() => {
    if (hlsPlayer && (callbacks.current.autoPlay || takeEarlyTap('play'))) play();
  }, []);

  const reach = () => stream.current?.warm();
  const play = () => {
    const controller = stream.current;
    if (controller) {
      controller.play();
      return;
    }
    // The link is still being fetched: the play is asked now (a browser allowing it only just after a tap has
    // it) and the controller starts it once it exists.
    wantsPlay.current = true;
    setPending(true);
    videoRef.current?.play().catch((error: { name?: string }) => {
      if (error?.name === 'NotAllowedError') {
        wantsPlay.current = false;
        setPending(false);
      }
    });
  };
  const togglePlay = () => {
    const controller = stream.current;
    if (controller) controller.toggle();
    else if (wantsPlay.current) {
      wantsPlay.current = false;
      setPending(false);
    } else play();
  };
  const seekBy = (seconds: number) => {
    const video = videoRef.current;
    if (!video || !stream.current?.attached) return;
    const end = Number.isFinite(video.duration) ? video.duration : Number.POSITIVE_INFINITY;
    video.currentTime = Math.max(0, Math.min(end, video.currentTime + seconds));
  };
  /** Whether a tap now should play: before the stream is attached, whether the viewer asked already. */
  const paused = () => {
    const controller = stream.current;
    if (!controller) return !wantsPlay.current;
    return controller.attached ? (videoRef.current?.paused ?? true) : !controller.wantsPlay;
  };

  useMediaSession(videoRef, hlsPlayer, { title, album: filmTitle, poster, next: onNext, seekBy });

  useImperativeHandle(ref, () => ({
    get media() {
      return videoRef.current;
    },
    get box() {
      return boxRef.current;
    },
    togglePlay,
    seekBy,
  }));

  // Progress and the end.
  // biome-ignore lint/correctness/useExhaustiveDependencies: m3u8 decides whether the <video> exists (rendered only with a link): subscribe again when it appears or changes.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let last = 0;
    const report = () => callbacks.current.onProgress?.(video.currentTime, video.duration || 0);
    const onTimeUpdate = () => {
      callbacks.current.onTime?.(video.currentTime, video.duration || 0);
      if (Math.abs(video.currentTime - last) >= 5) {
        last = video.currentTime;
        report();
      }
    };
    const onEnd = () => {
      report();
      callbacks.current.onEnded?.();
    };
    const stopVideo = listen(video, [
      ['timeupdate', onTimeUpdate],
      ['pause', report],
      ['ended', onEnd],
    ]);
    const stopWindow = listen(window, [['pagehide', report]]);
    return () => {
      if (video.currentTime > 0) report();
      stopVideo();
      stopWindow();
    };
  }, [m3u8]);

  // Taps and clicks on the picture (the controls handle their own).
  const down = useRef<{ x: number; y: number; t: number; touch: boolean; paused: boolean; shown: boolean } | null>(null);
  const lastTap = useRef<{ t: number; zone: Zone } | null>(null);
  const pendingPause = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(pendingPause.current), []);

  /** The picture itself was hit (the video, or the controller around it), not a control, menu or card. */
  const onPicture = (e: PointerEvent<HTMLDivElement>) => {
    const first = e.nativeEvent.composedPath()[0];
    return (
      first === videoRef.current ||
      first === hlsRef.current ||
      first === controllerRef.current ||
      (first instanceof Node && !!gesturesRef.current?.contains(first))
    );
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    reach();
    if (!e.isPrimary || (e.pointerType === 'mouse' && e.button !== 0) || !onPicture(e)) {
      down.current = null;
      return;
    }
    const controller = controllerRef.current;
    down.current = {
      x: e.clientX,
      y: e.clientY,
      t: e.timeStamp,
      touch: e.pointerType !== 'mouse',
      paused: paused(),
      shown: !controller?.hasAttribute('userinactive'),
    };
  };

  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    const start = down.current;
    down.current = null;
    if (!start) return;
    if (e.timeStamp - start.t > TAP_MAX_MS || Math.hypot(e.clientX - start.x, e.clientY - start.y) > TAP_MAX_MOVE) return;
    const rect = e.currentTarget.getBoundingClientRect();
    const x = e.clientX - rect.left;
    const zone: Zone = x < rect.width / 3 ? 'left' : x > (rect.width * 2) / 3 ? 'right' : 'middle';
    const previous = lastTap.current;
    if (start.touch && zone !== 'middle' && previous?.zone === zone && e.timeStamp - previous.t < DOUBLE_TAP_MS) {
      // A double tap on a side third: seek, and forget the single tap's pause.
      window.clearTimeout(pendingPause.current);
      lastTap.current = null;
      seekBy(zone === 'left' ? -10 : 10);
      setSeekFlash({ zone, key: e.timeStamp });
      return;
    }
    lastTap.current = { t: e.timeStamp, zone };
    if (start.paused) {
      play();
      return;
    }
    if (!start.shown) {
      // media-chrome shows the controls for a touch; a mouse that has not moved needs it said.
      controllerRef.current?.removeAttribute('userinactive');
      return;
    }
    if (start.touch && zone !== 'middle') {
      // Wait for a possible second tap (a double tap seeks instead).
      window.clearTimeout(pendingPause.current);
      pendingPause.current = window.setTimeout(() => stream.current?.pause(), DOUBLE_TAP_MS);
    } else if (stream.current) stream.current.pause();
    else togglePlay();
  };

  // Playback started by a touch (the picture or the big play button): the controls step aside at once, so
  // the next tap shows them and the one after pauses. A mouse shows them by moving.
  // biome-ignore lint/correctness/useExhaustiveDependencies: m3u8 decides whether the elements exist.
  useEffect(() => {
    const controller = controllerRef.current;
    const video = videoRef.current;
    if (!controller || !video) return;
    let touchedAt = Number.NEGATIVE_INFINITY;
    const onDown = (e: globalThis.PointerEvent) => {
      touchedAt = e.pointerType === 'mouse' ? Number.NEGATIVE_INFINITY : e.timeStamp;
    };
    const onPlay = (e: Event) => {
      if (e.timeStamp - touchedAt < 1500) controller.setAttribute('userinactive', '');
    };
    controller.addEventListener('pointerdown', onDown, true);
    video.addEventListener('play', onPlay);
    return () => {
      controller.removeEventListener('pointerdown', onDown, true);
      video.removeEventListener('play', onPlay);
    };
  }, [m3u8]);

  useEffect(() => {
    if (!seekFlash) return;
    const t = window.setTimeout(() => setSeekFlash(null), 600);
    return () => window.clearTimeout(t);
  }, [seekFlash]);

  const boxId = `${ids}-box`;
  const rateMenu = `${ids}-rate`;
  const qualityMenu = `${ids}-quality`;
  const captionsMenu = `${ids}-captions`;

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: taps on the picture itself; every action has its key (hooks/use-player-shortcuts.ts) and its control in the bar.
    <div
      className="player-box"
      id={boxId}
      ref={boxRef}
      data-ads-removed-segments={adsRemoved?.segments}
      data-ads-removed-seconds={adsRemoved ? adsRemoved.seconds.toFixed(1) : undefined}
      // A tap before the page's script has run is remembered by the boot script and plays once it can (lib/play-intent.ts).
      data-early-tap={hlsPlayer ? 'play' : undefined}
      onPointerDown={hlsPlayer ? onPointerDown : undefined}
      onPointerUp={hlsPlayer ? onPointerUp : undefined}
      onPointerEnter={hlsPlayer ? reach : undefined}
      onFocus={hlsPlayer ? reach : undefined}
      onPointerCancel={() => {
        down.current = null;
      }}
    >
      {hlsPlayer ? (
        <media-controller
          ref={controllerRef}
          class="player-controller"
          lang="vi"
          nohotkeys=""
          gesturesdisabled=""
          autohide="2"
          defaultstreamtype="on-demand"
          fullscreenelement={boxId}
          aria-label={`Trình phát: ${title}`}
        >
          {/* Its src is set with hls.js's configuration by the stream controller once the engine has loaded. The
              <video> is markup React never reconciles: the engine adds to it (sources, caption tracks) before the
              app may have hydrated the page (stream-start.ts), and hydration must find the host's markup as written. */}
          <hls-video
            ref={attachHost}
            {...PLAYER_HOST_ATTRIBUTES}
            // biome-ignore lint/security/noDangerouslySetInnerHtml: our own fixed markup (videoHtml), the title escaped; nothing from a source.
            dangerouslySetInnerHTML={videoMarkup}
          />
          {poster && !played && (
            // The poster as an image of the page (the browser's preload scanner finds it in the host's HTML: the
            // page's LCP), over the picture until playback starts (a prepared stream shows its first frame).
            <img slot="poster" className="player-poster" src={poster} alt="" fetchPriority="high" decoding="async" />
          )}
          {/* Replaces media-chrome's gesture receiver; taps reach the <video> under it and are read on the box. */}
          <div ref={gesturesRef} slot="gestures-chrome" className="player-gestures" data-testid="player-gestures" {...NO_AUTOHIDE}>
            {seekFlash && (
              <span key={seekFlash.key} className={`player-seek-flash ${seekFlash.zone}`} aria-hidden="true">
                {seekFlash.zone === 'left' ? '« 10 giây' : '10 giây »'}
              </span>
            )}
          </div>
          <media-loading-indicator slot="centered-chrome" noautohide="" />
          {!!startAt && !played && (
            <p slot="centered-chrome" className="player-resume" {...NO_AUTOHIDE}>
              Xem tiếp từ {formatClock(startAt)}
            </p>
          )}
          {/* A real button from the first paint (the host's HTML), before the player's script defines anything. */}
          {!played && (
            <button
              type="button"
              slot="centered-chrome"
              className="player-big-play"
              aria-label="Phát"
              data-testid="big-play"
              data-pending={pending ? '' : undefined}
              onClick={play}
              {...NO_AUTOHIDE}
            >
              <svg viewBox="0 0 24 24" aria-hidden="true">
                <path d="M8 5.14v13.72a1 1 0 0 0 1.52.85l10.6-6.86a1 1 0 0 0 0-1.7L9.52 4.29A1 1 0 0 0 8 5.14Z" />
              </svg>
            </button>
          )}
          <media-playback-rate-menu id={rateMenu} class="player-menu" hidden anchor="auto" rates={PLAYBACK_RATES.join(' ')} />
          <media-rendition-menu id={qualityMenu} class="player-menu" hidden anchor="auto" />
          <media-captions-menu id={captionsMenu} class="player-menu" hidden anchor="auto" />
          <media-control-bar class="player-scrub">
            <media-time-range />
          </media-control-bar>
          <media-control-bar class="player-bar">
            <media-play-button />
            <media-time-display showduration="" />
            <media-mute-button />
            <media-volume-range />
            <span className="player-bar-spacer" />
            <media-playback-rate-menu-button invoketarget={rateMenu} />
            <media-rendition-menu-button invoketarget={qualityMenu} />
            <media-captions-menu-button invoketarget={captionsMenu} />
            <media-pip-button />
            <media-fullscreen-button />
          </media-control-bar>
        </media-controller>
      ) : embed ? (
        <iframe
          className="player-iframe"
          src={embed}
          title={`Trình phát: ${title}`}
          allow="autoplay; fullscreen; encrypted-media; picture-in-picture"
          allowFullScreen
          referrerPolicy="no-referrer"
        />
      ) : (
        <p className="player-message">Tập phim này chưa có link xem.</p>
      )}
      {message && (
        <p className="player-message player-error" role="alert">
          {message}
        </p>
      )}
      {children}
    </div>
  );
});
