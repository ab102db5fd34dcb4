import { forwardRef, type PointerEvent, type ReactNode, useCallback, useEffect, useId, useImperativeHandle, useRef, useState } from 'react';
import { formatClock } from '../../../lib/format';
import { listen } from '../../../lib/listen';
import { useMediaSession } from '../hooks/use-media-session';
import { loadPlayerPrefs, PLAYBACK_RATES, savePlayerPrefs } from '../player-prefs';

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
  /** Seconds to start at (resume; "Xem tiếp từ 12:34" until playback starts), applied once the metadata is known. */
  startAt?: number;
  /** Start playing as soon as the video can (continuing from the previous episode). */
  autoPlay?: boolean;
  /** Load the player and the stream at once, without playing (a watch party plays it in step itself). */
  prepare?: boolean;
  onProgress?: (time: number, duration: number) => void;
  /** Every time update (the up-next card watches for the credits). */
  onTime?: (time: number, duration: number) => void;
  onEnded?: () => void;
  /**
   * The stream failed for good (hls.js gave up after its retries: a 404, a CORS refusal, a dead host, or the
   * media could not be decoded): the watch page moves to another server. Without it the player says so.
   */
  onStreamFailed?: (failure: StreamFailure) => void;
  /** Over the picture, and in fullscreen with it (the up-next card). */
  children?: ReactNode;
  /** `m3u8` is a downloaded episode's synthetic URL: this episode's copy on the device plays it (issue 26). */
  offlineId?: string;
}

/** media-chrome's rendition list (media-tracks), on hls-video-element. */
interface Renditions extends EventTarget {
  readonly length: number;
  selectedIndex: number;
  [index: number]: { height?: number } | undefined;
}

export interface StreamFailure {
  /** Where the viewer was (seconds, on the film's timeline: injected ads are never on it). */
  position: number;
  /** Whether it was playing (or asked to play) when it failed. */
  playing: boolean;
  /** What failed, for the error report: 'manifestLoadError (404)', 'fragLoadError', 'media error 4'… */
  detail: string;
}

/** What the ad filter cut from this stream's playlists (the player's stats; decision 0950). */
export interface AdsRemoved {
  segments: number;
  seconds: number;
}

type Zone = 'left' | 'middle' | 'right';
/** media-chrome leaves an element with this attribute visible when it hides the controls. */
const NO_AUTOHIDE = { noautohide: '' } as Record<string, string>;
const DOUBLE_TAP_MS = 350;
const TAP_MAX_MS = 500;
const TAP_MAX_MOVE = 24;

/**
 * The player: an m3u8 link plays in <hls-video> (hls.js, or the browser's own HLS) with media-chrome's
 * control bar, both loaded with import() from media-elements.ts on this page only; embed-only links play in
 * the source's iframe. The gesture layer is ours: a tap plays; while playing a tap shows the controls and
 * the next one pauses; on touch a double tap on the left or right third seeks ∓10 s. Keys are in
 * hooks/use-player-shortcuts.ts (media-chrome's hotkeys are off).
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
  const hlsRef = useRef<HTMLElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [seekFlash, setSeekFlash] = useState<{ zone: Zone; key: number } | null>(null);
  const ids = useId().replace(/:/g, '');
  const callbacks = useRef({ onProgress, onTime, onEnded, onStreamFailed, startAt, autoPlay });
  callbacks.current = { onProgress, onTime, onEnded, onStreamFailed, startAt, autoPlay };
  const [adsRemoved, setAdsRemoved] = useState<AdsRemoved | null>(null);
  /** A play asked for before the elements were defined (the chunk still loading). */
  const wantsPlay = useRef(false);
  const ready = useRef(false);
  /**
   * The player's script (media-elements.ts: 224 KB gzip, hls.js included) and the stream's first segment are
   * prepared once the page has loaded and is idle, or as soon as the viewer reaches for the player (a pointer
   * on it, a key), or at once when continuing from the previous episode; so a tap plays at once. Until then
   * the page shows the poster and the big play button, and the page's first paint and main thread stay free
   * (decision 0951).
   */
  const [wanted, setWanted] = useState(!!autoPlay || !!prepare || customElementsDefined());
  /** The player's markup: an HLS link, or one still being fetched. */
  const hlsPlayer = m3u8 !== '';
  const [played, setPlayed] = useState(false);
  useEffect(() => {
    if (!m3u8 || wanted) return;
    return whenPageIdle(() => setWanted(true));
  }, [m3u8, wanted]);
  useEffect(() => {
    if (hlsPlayer) return prefetchPlayerChunk();
  }, [hlsPlayer]);

  const play = () => {
    const video = videoRef.current;
    if (!video) return;
    if (!ready.current) {
      wantsPlay.current = true;
      setWanted(true);
      return;
    }
    void video.play().catch(() => undefined);
  };
  const togglePlay = () => {
    const video = videoRef.current;
    if (!video) return;
    if (!ready.current) {
      wantsPlay.current = !wantsPlay.current;
      setWanted(true);
    } else if (video.paused) play();
    else video.pause();
  };
  const seekBy = (seconds: number) => {
    const video = videoRef.current;
    if (!video || !ready.current) return;
    const end = Number.isFinite(video.duration) ? video.duration : Number.POSITIVE_INFINITY;
    video.currentTime = Math.max(0, Math.min(end, video.currentTime + seconds));
  };

  /** The stream is dead for good: hand it to the watch page (another server), or say so. Once per source. */
  const failedOnce = useRef(false);
  const failed = useCallback((detail: string, network: boolean) => {
    const video = videoRef.current;
    if (!video || failedOnce.current) return;
    if (network && typeof navigator !== 'undefined' && navigator.onLine === false) {
      // The viewer's own connection, not the server: nothing to move away from, nothing to report.
      setError('Mất kết nối mạng. Hãy thử lại khi có mạng.');
      return;
    }
    failedOnce.current = true;
    const handler = callbacks.current.onStreamFailed;
    if (!handler) {
      setError(network ? 'Không tải được video. Hãy thử server khác.' : 'Không phát được video. Hãy thử server khác.');
      return;
    }
    handler({
      position: video.currentTime > 0 ? video.currentTime : (callbacks.current.startAt ?? 0),
      playing: wantsPlay.current || !video.paused || !!callbacks.current.autoPlay,
      detail,
    });
  }, []);

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

  // Define the elements (once per page), then apply this device's speed, volume and quality.
  useEffect(() => {
    if (!m3u8 || !wanted) return;
    setError(null);
    let cancelled = false;
    const cleanups: (() => void)[] = [];
    import('../media-elements').then(
      async ({ createHlsConfig }) => {
        await customElements.whenDefined('hls-video');
        const video = videoRef.current;
        const hls = hlsRef.current as
          | (HTMLElement & { videoRenditions?: Renditions; config?: unknown; src?: string; api?: HlsApi | null })
          | null;
        if (cancelled || !video || !hls) return;
        // The source is given only now, with hls.js's configuration (the ad-filtering playlist loader) set first.
        hls.config = createHlsConfig(
          {
            onAdsRemoved: (result) =>
              setAdsRemoved((prev) => ({
                segments: Math.max(prev?.segments ?? 0, result.removedSegments),
                seconds: Math.max(prev?.seconds ?? 0, result.removedSeconds),
              })),
          },
          offlineId ? { offline: { episodeId: offlineId } } : {},
        );
        hls.src = m3u8;
        // hls-video makes its hls.js instance a microtask after the source is set: listen to it before any
        // answer can arrive (a later task), or a fast 404 would go unheard.
        for (let i = 0; i < 10 && !hls.api; i++) await Promise.resolve();
        if (hls.api) onFatalHlsError(hls.api, failed);
        ready.current = true;
        const prefs = loadPlayerPrefs();
        const applyPrefs = () => {
          video.defaultPlaybackRate = prefs.rate;
          video.playbackRate = prefs.rate;
        };
        applyPrefs();
        video.volume = prefs.volume;
        video.muted = prefs.muted;
        // Loading a source resets the speed to the default one; set both, and again once the metadata is known.
        video.addEventListener('loadedmetadata', applyPrefs);
        const onRate = () => {
          if ((PLAYBACK_RATES as readonly number[]).includes(video.playbackRate)) {
            prefs.rate = video.playbackRate;
            savePlayerPrefs({ rate: video.playbackRate });
          }
        };
        const onVolume = () => savePlayerPrefs({ volume: video.volume, muted: video.muted });
        video.addEventListener('ratechange', onRate);
        video.addEventListener('volumechange', onVolume);
        cleanups.push(() => {
          video.removeEventListener('loadedmetadata', applyPrefs);
          video.removeEventListener('ratechange', onRate);
          video.removeEventListener('volumechange', onVolume);
        });

        const renditions = hls.videoRenditions;
        if (renditions) {
          // The remembered quality is picked as soon as the stream lists it; a choice in the menu is remembered.
          let restoring = false;
          const restore = () => {
            if (prefs.quality === undefined) return;
            for (let i = 0; i < renditions.length; i++) {
              if (renditions[i]?.height === prefs.quality && renditions.selectedIndex !== i) {
                restoring = true;
                renditions.selectedIndex = i;
                restoring = false;
              }
            }
          };
          const onChange = () => {
            if (restoring) return;
            const chosen = renditions.selectedIndex >= 0 ? renditions[renditions.selectedIndex]?.height : undefined;
            prefs.quality = chosen;
            savePlayerPrefs({ quality: chosen });
          };
          renditions.addEventListener('addrendition', restore);
          renditions.addEventListener('change', onChange);
          restore();
          cleanups.push(() => {
            renditions.removeEventListener('addrendition', restore);
            renditions.removeEventListener('change', onChange);
          });
        }
        if (wantsPlay.current || callbacks.current.autoPlay) {
          wantsPlay.current = false;
          // hls-video attaches its source a moment after it is defined: play once it has one.
          if (video.currentSrc || video.src) void video.play().catch(() => undefined);
          else video.addEventListener('loadstart', () => void video.play().catch(() => undefined), { once: true });
        }
      },
      () => setError('Không tải được trình phát. Hãy kiểm tra kết nối mạng.'),
    );
    return () => {
      cancelled = true;
      ready.current = false;
      for (const cleanup of cleanups) cleanup();
    };
  }, [m3u8, wanted, failed, offlineId]);

  // Resume, progress, the end, and a failed stream.
  // biome-ignore lint/correctness/useExhaustiveDependencies: m3u8 decides whether the <video> exists (rendered only with a link): subscribe again when it appears or changes.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let last = 0;
    const onMeta = () => {
      const at = callbacks.current.startAt;
      // The watch page passes a resume point only past the first seconds; a failover passes the exact position.
      if (at && at > 0 && (!video.duration || at < video.duration - 10)) video.currentTime = at;
    };
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
    // The browser's own HLS (Safari without MSE) reports a dead stream here; hls.js below.
    const onError = () => failed(`media error ${video.error?.code ?? '?'}`, video.error?.code === MediaError.MEDIA_ERR_NETWORK);
    const onPlaying = () => {
      setError(null);
      setPlayed(true);
    };
    let resumed = false;
    const onMetaOnce = () => {
      if (resumed) return;
      resumed = true;
      onMeta();
    };
    const stopVideo = listen(video, [
      ['loadedmetadata', onMetaOnce],
      ['timeupdate', onTimeUpdate],
      ['pause', report],
      ['ended', onEnd],
      ['error', onError],
      ['playing', onPlaying],
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
    setWanted(true);
    if (!e.isPrimary || (e.pointerType === 'mouse' && e.button !== 0) || !onPicture(e)) {
      down.current = null;
      return;
    }
    const video = videoRef.current;
    const controller = controllerRef.current;
    down.current = {
      x: e.clientX,
      y: e.clientY,
      t: e.timeStamp,
      touch: e.pointerType !== 'mouse',
      paused: !ready.current ? !wantsPlay.current : (video?.paused ?? true),
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
    const video = videoRef.current;
    if (start.touch && zone !== 'middle') {
      // Wait for a possible second tap (a double tap seeks instead).
      window.clearTimeout(pendingPause.current);
      pendingPause.current = window.setTimeout(() => video?.pause(), DOUBLE_TAP_MS);
    } else video?.pause();
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
      onPointerDown={hlsPlayer ? onPointerDown : undefined}
      onPointerUp={hlsPlayer ? onPointerUp : undefined}
      onPointerEnter={hlsPlayer ? () => setWanted(true) : undefined}
      onFocus={hlsPlayer ? () => setWanted(true) : undefined}
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
          {/* Its src is set with hls.js's configuration once the player's script has loaded (the effect above). */}
          <hls-video ref={hlsRef} slot="media" class="player-media" preload="metadata">
            {/* biome-ignore lint/a11y/useMediaCaption: captions come from the stream (WebVTT renditions) through hls.js, when the source has them. */}
            <video
              ref={videoRef}
              slot="media"
              className="player-video"
              playsInline
              preload="metadata"
              aria-label={`Video: ${title}`}
              data-testid="video"
            />
          </hls-video>
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
      {error && (
        <p className="player-message player-error" role="alert">
          {error}
        </p>
      )}
      {children}
    </div>
  );
});

/** The elements are defined already (an earlier episode on this page loaded them). */
function customElementsDefined(): boolean {
  return typeof customElements !== 'undefined' && customElements.get('hls-video') !== undefined;
}

interface HlsError {
  fatal: boolean;
  type: string;
  details: string;
  response?: { code?: number };
}

interface HlsApi {
  on: (event: 'hlsError', cb: (event: string, data: HlsError) => void) => void;
  recoverMediaError: () => void;
}

/**
 * Fetches the player's chunk over the network once the loaded page is idle (a prefetch: no parsing, no
 * main-thread work), so that preparing the player later costs only its evaluation. index.html names the chunk
 * (web/vite-plugins.ts playerChunkMeta). Returns a cancel.
 */
function prefetchPlayerChunk(): () => void {
  const href = document.querySelector<HTMLMetaElement>('meta[name="phimviet-player"]')?.content;
  if (!href || customElementsDefined() || document.querySelector(`link[href="${href}"]`)) return () => undefined;
  return afterLoadWhenIdle(0, () => {
    const link = document.createElement('link');
    link.rel = 'prefetch';
    link.as = 'script';
    // A module script is fetched in CORS mode: the same mode, so the import() finds it in the cache.
    link.crossOrigin = '';
    link.href = href;
    document.head.appendChild(link);
  });
}

/**
 * hls.js reports a stream it cannot load on its own API, not as the <video>'s error. It has retried by then
 * (its load policies); a media error gets one recovery attempt of its own first.
 */
function onFatalHlsError(api: HlsApi, failed: (detail: string, network: boolean) => void): void {
  let recovered = false;
  api.on('hlsError', (_event, data) => {
    if (!data.fatal) return;
    if (data.type === 'mediaError' && !recovered) {
      recovered = true;
      api.recoverMediaError();
      return;
    }
    const status = data.response?.code;
    failed(`${data.details}${status ? ` (${status})` : ''}`, data.type === 'networkError');
  });
}

/** How long after its load event the page is left alone before the player is prepared. */
const SETTLED_MS = 4000;

/**
 * Runs `prepare` once the page has loaded, has settled for a moment after its load event (its own first work,
 * images and data done) and the browser is idle: the page's first paint and first interactions never share
 * the main thread or the network with the player's evaluation and the stream's first segment. A page reached
 * inside the app (its load long past) prepares at the first idle moment. Never with Data Saver on. Returns a
 * cancel.
 */
function whenPageIdle(prepare: () => void): () => void {
  return afterLoadWhenIdle(SETTLED_MS, prepare);
}

/**
 * Runs `run` at the first idle moment once `delayMs` have passed since the page's load event (at once on a
 * page whose load is long past), never with Data Saver on. Returns a cancel.
 */
function afterLoadWhenIdle(delayMs: number, run: () => void): () => void {
  if ((navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData) return () => undefined;
  let idle: number | undefined;
  let timer: number | undefined;
  const wait = () => {
    const loadedAt =
      (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.loadEventEnd || performance.now();
    timer = window.setTimeout(
      () => {
        if (typeof window.requestIdleCallback === 'function') idle = window.requestIdleCallback(run, { timeout: 2000 });
        else run();
      },
      Math.max(0, loadedAt + delayMs - performance.now()),
    );
  };
  if (document.readyState === 'complete') wait();
  else window.addEventListener('load', wait, { once: true });
  return () => {
    window.removeEventListener('load', wait);
    if (idle !== undefined) window.cancelIdleCallback(idle);
    window.clearTimeout(timer);
  };
}
