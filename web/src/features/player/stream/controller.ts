// The stream controller (issue 31, decision 0952): every decision about one episode's stream on one <video>, in
// plain TypeScript, apart from React. The component renders the markup and wires it; the watch page's start path
// (stream-start.ts) drives the same controller before the app has hydrated. Small parts, each owning one decision:
// - prefetch.ts: the first bytes over the network before the player runs, handed to hls.js when it asks;
// - playlist.ts: the level to start with (the viewer's bandwidth) and the first frame's segment;
// - watchdog.ts: when a server is dead for good (errors, a hang, a stall), and when the viewer is the one offline;
// - this class: when the engine is evaluated and attached, the play the viewer asked for, the first frame, the
//   failure handed to the watch page (which moves to the next server and files the report).
import type { AdFilterResult } from '../../../lib/hls/ad-filter';
import type { HlsConfigOptions, StreamHooks } from '../hls-config';
import { loadPlayerPrefs } from '../player-prefs';
import { chooseStartVariant, estimateBandwidth } from './playlist';
import { prepareStream, takePrefetched } from './prefetch';
import { whenIdle } from './schedule';
import { type DeadReason, StallWatchdog, viewerOnline } from './watchdog';

export interface StreamFailure {
  /** Where the viewer was (seconds, on the film's timeline: injected ads are never on it). */
  position: number;
  /** Whether it was playing (or asked to play) when it failed. */
  playing: boolean;
  /** What failed, for the error report: 'manifestLoadError (404)', '3 lỗi liên tiếp, …', 'media error 4'… */
  detail: string;
}

/** What the ad filter cut from this stream's playlists (the player's stats; decision 0950). */
export interface AdsRemoved {
  segments: number;
  seconds: number;
}

export interface StreamSource {
  m3u8: string;
  /** A downloaded episode's synthetic URL is `m3u8`: the copy on the device plays it (issue 26). */
  offlineId?: string;
  /** Seconds to start at (resume, or the position a failed server left). */
  startAt?: number;
  /**
   * There is another server to move to (the watch page): the watchdog's verdicts (errors, a hang, a stall) move it.
   * Without one (a watch party's screen) a slow server is waited for: only hls.js giving up ends the stream.
   */
  failover?: boolean;
}

/** What the controller tells the page. Every call may come before the page is hydrated; `setView` replays the state. */
export interface StreamView {
  /** The first `playing`: the poster and "Phát" go. */
  started(): void;
  /** A play the viewer asked for is on its way ("Phát" turns into a spinner), or not any more. */
  pending(on: boolean): void;
  /** A line for the viewer over the picture, or null. */
  message(text: string | null): void;
  adsRemoved(ads: AdsRemoved): void;
  /** The engine has the source: the device's speed, volume and quality apply. */
  attached(): void;
  /** The stream is dead for good: the watch page moves on. Without it the player says so itself. */
  failed?(failure: StreamFailure): void;
  /** Another view takes over (the component adopting the start path's controller): undo what this one drew. */
  detach?(): void;
}

/** hls-video-element, as the controller uses it. */
export interface HlsHost extends HTMLElement {
  config?: unknown;
  src?: string;
  api?: HlsApi | null;
}

export interface HlsApi {
  on(event: string, listener: (event: string, data: never) => void): void;
  recoverMediaError(): void;
  startLoad(position?: number): void;
  stopLoad(): void;
  startLevel: number;
}

interface HlsErrorData {
  fatal: boolean;
  type: string;
  details: string;
  response?: { code?: number };
}

interface LevelLike {
  url: string[];
  bitrate: number;
  height: number;
}

export interface Engine {
  createHlsConfig(hooks: StreamHooks, options: HlsConfigOptions): unknown;
}

export interface ControllerDeps {
  /**
   * The engine's chunk (stream-engine.ts): hls-video-element (<hls-video> defined) and the player's hls.js
   * configuration. Once it is in, the engine itself: a play attaches in the tap's own task, not a task later.
   */
  loadEngine(): Engine | Promise<Engine>;
  /** The control bar's chunk (media-elements.ts), after the first frame. */
  loadControls(): Promise<unknown>;
  viewerOnline(): Promise<boolean>;
  bandwidth(): number;
  now(): number;
  setInterval(run: () => void, ms: number): unknown;
  clearInterval(id: unknown): void;
  /** Runs `run` when the browser is idle. */
  idle(run: () => void): void;
}

/** The engine once evaluated (the film page's tap evaluates it before the watch page renders: prepare-watch.ts). */
let engineIn: Engine | undefined;

export const browserDeps: ControllerDeps = {
  loadEngine: () =>
    engineIn ??
    import('../stream-engine').then(async (engine) => {
      await customElements.whenDefined('hls-video');
      engineIn = engine;
      return engine;
    }),
  loadControls: () => import('../media-elements'),
  viewerOnline,
  bandwidth: estimateBandwidth,
  now: () => performance.now(),
  setInterval: (run, ms) => window.setInterval(run, ms),
  clearInterval: (id) => window.clearInterval(id as number),
  idle: (run) => void whenIdle(run),
};

export const MESSAGES = {
  offline: 'Mất kết nối mạng. Video sẽ phát tiếp khi có mạng.',
  noScript: 'Không tải được trình phát. Hãy kiểm tra kết nối mạng.',
  cannotLoad: 'Không tải được video. Hãy thử server khác.',
  cannotPlay: 'Không phát được video. Hãy thử server khác.',
} as const;

const noView: StreamView = { started() {}, pending() {}, message() {}, adsRemoved() {}, attached() {} };

export class StreamController {
  private view: StreamView = noView;
  /** The viewer wants it playing: asked to play, and not paused since. */
  private wanted = false;
  private measuredBandwidth?: number;
  private attaching?: Promise<void>;
  private isAttached = false;
  private isStarted = false;
  /** The first bytes fetched (prefetch.ts): resolves once they are in, or failed. */
  private prepared?: Promise<void>;
  private watchdog?: StallWatchdog;
  private failure?: StreamFailure;
  private failedMessage: string = MESSAGES.cannotLoad;
  private currentMessage: string | null = null;
  private ads: AdsRemoved | null = null;
  private destroyed = false;
  /** React owns the markup (the component's view): before, nothing may change the DOM's structure. */
  private appOwned = false;
  private controlsAsked = false;
  private readonly abort = new AbortController();
  private readonly cleanups: (() => void)[] = [];

  constructor(
    readonly video: HTMLVideoElement,
    readonly host: HlsHost,
    readonly source: StreamSource,
    private readonly deps: ControllerDeps = browserDeps,
  ) {}

  /**
   * The page's callbacks; what already happened is told again. `app`: the component's, on markup React now owns
   * (hydrated or rendered), rather than the start path's on the host's markup.
   */
  setView(view: StreamView, app = true): void {
    this.view.detach?.();
    this.view = view;
    if (app && !this.appOwned) {
      // media-chrome's control bar adds to the markup React hydrates: it waits for React.
      this.appOwned = true;
      if (this.isAttached) this.loadControlsWhenIdle();
    }
    if (this.ads) view.adsRemoved(this.ads);
    if (this.isAttached) view.attached();
    if (this.isStarted) view.started();
    view.pending(this.wanted && !this.isStarted && !this.failure);
    view.message(this.currentMessage);
    if (this.failure) this.tellFailure();
  }

  get started(): boolean {
    return this.isStarted;
  }

  /** Attached to the engine: the <video> itself plays and pauses. Before, a tap only sets what the viewer wants. */
  get attached(): boolean {
    return this.isAttached;
  }

  get wantsPlay(): boolean {
    return this.wanted;
  }

  get isDestroyed(): boolean {
    return this.destroyed;
  }

  /**
   * Network only: the playlists and the first frame's segment, fetched and kept for hls.js (prefetch.ts). Costs
   * the main thread nothing. A downloaded episode needs none of it. Resolves once they are in (or failed).
   */
  prepare(): Promise<void> {
    if (this.destroyed || this.source.offlineId) return Promise.resolve();
    this.prepared ??= prepareStream(this.source.m3u8, {
      position: this.source.startAt ?? 0,
      bandwidthBps: this.startBandwidth(),
      preferHeight: loadPlayerPrefs().quality,
      signal: this.abort.signal,
    }).then(
      () => undefined,
      () => undefined,
    );
    return this.prepared;
  }

  /**
   * The bandwidth the start level is chosen for, measured once: the prefetch and hls.js's start level must pick the
   * same level, or the prefetched playlist and segment go unused (the page's own transfers change the estimate).
   */
  private startBandwidth(): number {
    this.measuredBandwidth ??= this.deps.bandwidth();
    return this.measuredBandwidth;
  }

  /** The engine evaluated and the stream attached with its first segment, without playing: a tap then only plays. */
  warm(): void {
    void this.prepare();
    void this.attach();
  }

  /**
   * The viewer asked to play. The browser is asked at once, inside the tap's activation (a browser that allows
   * play() only shortly after a tap has it before the engine is in: the play stays pending until the first frame);
   * the engine follows.
   */
  play(): void {
    if (this.destroyed || this.failure) return;
    this.wanted = true;
    if (!this.isStarted) this.view.pending(true);
    this.askToPlay();
    void this.prepare();
    void this.attach();
  }

  pause(): void {
    this.wanted = false;
    if (!this.isStarted) this.view.pending(false);
    this.video.pause();
  }

  /** A tap before the stream is attached toggles what the viewer wants; after, the <video> itself. */
  toggle(): void {
    if (this.isAttached ? this.video.paused : !this.wanted) this.play();
    else this.pause();
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.abort.abort();
    this.watchdog?.stop();
    for (const cleanup of this.cleanups.splice(0)) cleanup();
    if (controllers.get(this.video) === this) controllers.delete(this.video);
  }

  private askToPlay(): void {
    const attempt = this.video.play();
    attempt?.catch((error: unknown) => {
      if (this.destroyed || (error as { name?: string } | null)?.name !== 'NotAllowedError') return;
      // The browser wants a tap of its own (no recent activation): "Phát" stays, and one tap plays.
      this.wanted = false;
      this.view.pending(false);
      if (this.isAttached) this.loadControlsWhenIdle();
    });
  }

  private attach(): Promise<void> {
    this.attaching ??= this.attachNow().catch(() => {
      this.attaching = undefined;
      if (!this.destroyed) this.say(MESSAGES.noScript);
    });
    return this.attaching;
  }

  private async attachNow(): Promise<void> {
    // Awaited only while it loads: an engine already in attaches now, in the task of the play that asked
    // (measured: a task later came up to 200 ms after the play on the phone profile, behind the watch page's layout).
    const loading = this.deps.loadEngine();
    const engine = loading instanceof Promise ? await loading : loading;
    if (this.destroyed) return;
    const { video, host, source } = this;
    // An element built off the page before <hls-video> was defined (the film page's tap, hand-over.ts) is not
    // upgraded by the definition: only elements in the document are.
    if (!host.isConnected) customElements.upgrade(host);
    // hls-video-element reads the <video>'s preload when it starts: 'metadata' keeps hls.js to the first segment
    // until `play`, which already came when the viewer (or a watch party's sync, on the <video> itself) asked
    // before the engine was in.
    if (!video.paused) this.wanted = true;
    if (this.wanted) video.preload = 'auto';
    this.listenToMedia();
    if (!source.offlineId) this.watchdog = this.newWatchdog();
    const bandwidth = this.startBandwidth();
    host.config = engine.createHlsConfig(
      {
        onAdsRemoved: (result: AdFilterResult) => {
          this.ads = {
            segments: Math.max(this.ads?.segments ?? 0, result.removedSegments),
            seconds: Math.max(this.ads?.seconds ?? 0, result.removedSeconds),
          };
          this.view.adsRemoved(this.ads);
        },
        take: source.offlineId ? undefined : takePrefetched,
        track: (url, stats) => this.watchdog?.request(url, stats),
      },
      {
        ...(source.offlineId ? { offline: { episodeId: source.offlineId } } : {}),
        startPosition: source.startAt,
        bandwidthBps: bandwidth,
      },
    );
    host.src = source.m3u8;
    // hls-video makes its hls.js instance a microtask after the source is set: listen to it before any answer
    // can arrive (a later task), or a fast 404 would go unheard.
    for (let i = 0; i < 10 && !host.api; i++) await Promise.resolve();
    if (host.api) this.bindApi(host.api, bandwidth);
    this.isAttached = true;
    this.view.attached();
    if (this.wanted) {
      if (video.currentSrc || video.src) this.askToPlay();
      else video.addEventListener('loadstart', () => this.wanted && video.paused && this.askToPlay(), { once: true });
    }
    this.loadControlsWhenIdle();
  }

  /**
   * media-chrome's control bar, once the browser is idle: never before React owns the markup (it adds to it), and
   * never between a play and its first frame (its evaluation is a long task of its own).
   */
  private loadControlsWhenIdle(): void {
    if (!this.appOwned || this.controlsAsked || this.startPending()) return;
    this.controlsAsked = true;
    this.deps.idle(() => {
      // A play asked meanwhile (the page adopting a stream attached ahead, then playing it): after its first frame.
      if (this.startPending()) this.controlsAsked = false;
      else void this.deps.loadControls().catch(() => undefined);
    });
  }

  /** A play was asked and its first frame is still to come. */
  private startPending(): boolean {
    return this.wanted && !this.isStarted && !this.destroyed;
  }

  private bindApi(api: HlsApi, bandwidth: number): void {
    let recovered = false;
    api.on('hlsError', (_event, data: HlsErrorData) => {
      if (!data.fatal || this.destroyed) return;
      if (data.type === 'mediaError' && !recovered) {
        // One recovery of its own first (a decode hiccup), as hls.js advises.
        recovered = true;
        api.recoverMediaError();
        return;
      }
      const status = data.response?.code;
      this.fatal(`${data.details}${status ? ` (${status})` : ''}`, data.type === 'networkError');
    });
    // The level to start with, chosen for the viewer's bandwidth (or the quality they chose), as the prefetch did.
    api.on('hlsManifestParsed', (_event, data: { levels: LevelLike[] }) => {
      const levels = data.levels.map((l) => ({ url: l.url[0] ?? '', bandwidth: l.bitrate, height: l.height }));
      const pick = chooseStartVariant(levels, bandwidth, loadPlayerPrefs().quality);
      const index = pick ? levels.indexOf(pick) : -1;
      if (index >= 0) api.startLevel = index;
    });
  }

  private listenToMedia(): void {
    const { video } = this;
    const onPlaying = () => {
      this.say(null);
      if (this.isStarted) return;
      this.isStarted = true;
      this.wanted = true;
      this.view.pending(false);
      this.view.started();
      this.loadControlsWhenIdle();
    };
    const onPlay = () => {
      this.wanted = true;
    };
    const onPause = () => {
      if (this.isStarted) this.wanted = false;
    };
    // Safari's own HLS has no startPosition: the resume point once the metadata is known.
    const onMeta = () => {
      const at = this.source.startAt;
      if (at && at > 0 && Math.abs(video.currentTime - at) > 1 && (!video.duration || at < video.duration - 10)) video.currentTime = at;
    };
    // The browser's own HLS (Safari without MSE) reports a dead stream here; hls.js on its own API.
    const onError = () =>
      this.fatal(`media error ${video.error?.code ?? '?'}`, video.error?.code === MediaError.MEDIA_ERR_NETWORK && !this.source.offlineId);
    const onOnline = () => this.watchdog?.viewerBack();
    video.addEventListener('playing', onPlaying);
    video.addEventListener('play', onPlay);
    video.addEventListener('pause', onPause);
    video.addEventListener('loadedmetadata', onMeta, { once: true });
    video.addEventListener('error', onError);
    window.addEventListener('online', onOnline);
    this.cleanups.push(() => {
      video.removeEventListener('playing', onPlaying);
      video.removeEventListener('play', onPlay);
      video.removeEventListener('pause', onPause);
      video.removeEventListener('loadedmetadata', onMeta);
      video.removeEventListener('error', onError);
      window.removeEventListener('online', onOnline);
    });
  }

  private newWatchdog(): StallWatchdog {
    return new StallWatchdog(this.video, {
      now: this.deps.now,
      setInterval: this.deps.setInterval,
      clearInterval: this.deps.clearInterval,
      viewerOnline: this.deps.viewerOnline,
      onDead: (reason: DeadReason, detail: string) => this.dead(reason, detail, true),
      onViewerOffline: (offline) => {
        if (offline) {
          this.say(MESSAGES.offline);
          return;
        }
        this.say(null);
        // Back: hls.js loads again from where the viewer is (after a fatal error too).
        this.host.api?.startLoad(this.video.currentTime > 0 ? this.video.currentTime : -1);
        if (this.wanted && this.video.paused) this.askToPlay();
      },
    });
  }

  private fatal(detail: string, network: boolean): void {
    if (this.destroyed || this.failure) return;
    if (this.watchdog) this.watchdog.fatal(detail, network);
    else if (network && typeof navigator !== 'undefined' && navigator.onLine === false) this.say(MESSAGES.offline);
    else this.dead('fatal', detail, network);
  }

  private dead(reason: DeadReason, detail: string, network: boolean): void {
    if (this.destroyed || this.failure) return;
    // Nowhere to move: hls.js keeps its own retries and timeouts, and the viewer waits.
    if (reason !== 'fatal' && !this.source.failover) return;
    const { video } = this;
    this.failure = {
      position: video.currentTime > 0 ? video.currentTime : (this.source.startAt ?? 0),
      playing: this.wanted || !video.paused,
      detail,
    };
    this.watchdog?.stop();
    this.host.api?.stopLoad();
    this.view.pending(false);
    this.failedMessage = network ? MESSAGES.cannotLoad : MESSAGES.cannotPlay;
    this.tellFailure();
  }

  private tellFailure(): void {
    if (!this.failure) return;
    if (this.view.failed) this.view.failed(this.failure);
    else this.say(this.failedMessage);
  }

  private say(text: string | null): void {
    if (this.currentMessage === text) return;
    this.currentMessage = text;
    this.view.message(text);
  }
}

/** One controller per <video>: the start path's, adopted by the component when it hydrates the same element. */
const controllers = new WeakMap<HTMLVideoElement, StreamController>();

export function streamControllerFor(
  video: HTMLVideoElement,
  host: HlsHost,
  source: StreamSource,
  deps: ControllerDeps = browserDeps,
): StreamController {
  const existing = controllers.get(video);
  if (existing && !existing.isDestroyed && existing.source.m3u8 === source.m3u8 && existing.source.offlineId === source.offlineId)
    return existing;
  existing?.destroy();
  const controller = new StreamController(video, host, source, deps);
  controllers.set(video, controller);
  return controller;
}
