// Decides when a server is dead for good in the middle of an episode (issue 31 §3, decision 0952). hls.js keeps
// its own retries for a passing blip (a level or fragment retried after 1, 2, 4 s…); the watchdog looks at what
// those retries achieve and at the playhead, and says "dead" when:
// - requests keep failing (4xx, 5xx, a CORS refusal) with no success in between, at least MIN_FAILURES of them
//   over FAIL_WINDOW_MS;
// - a request hangs: no first byte, or no new byte, for HANG_MS, and nothing else succeeded meanwhile;
// - the playhead stands still for STALL_MS while the viewer wants it to play and no byte has come for
//   STALL_QUIET_MS (bytes still coming: a slow network, waited for up to STALL_MAX_MS).
// Before saying so it asks whether the viewer is online (navigator.onLine, then a request to our own origin):
// a viewer who lost the network moves nowhere and reports nothing, and is told so until it comes back (the
// `online` event, or asked again every OFFLINE_PROBE_MS).
// Plain TypeScript with an injected clock: tests/unit/stream-watchdog.test.ts runs it on fake timers.
import { timeoutSignal } from '../../../lib/timeout-signal';

export const FAIL_WINDOW_MS = 3000;
export const MIN_FAILURES = 2;
export const HANG_MS = 6000;
export const STALL_MS = 10_000;
export const STALL_QUIET_MS = 3000;
export const STALL_MAX_MS = 30_000;
/** While the viewer is offline, whether the network is back is asked this often (besides the `online` event). */
export const OFFLINE_PROBE_MS = 5000;
const TICK_MS = 500;

export type DeadReason = 'errors' | 'hang' | 'stall' | 'fatal';

/** The live statistics hls.js's loaders keep on each request (LoaderStats: times from performance.now()). */
export interface RequestStats {
  loading: { start: number; first: number };
  loaded: number;
}

export interface RequestWatch {
  succeeded(): void;
  /** HTTP status, 0 for a network failure or a CORS refusal, 'timeout' for hls.js's own timeout. */
  failed(status: number | 'timeout'): void;
  aborted(): void;
}

/** What the watchdog reads of the <video>. */
export interface PlayheadSource {
  readonly currentTime: number;
  readonly paused: boolean;
  readonly ended: boolean;
}

export interface WatchdogDeps {
  now(): number;
  setInterval(run: () => void, ms: number): unknown;
  clearInterval(id: unknown): void;
  /** The viewer's own network: false when offline (the page's own origin does not answer). */
  viewerOnline(): Promise<boolean>;
  /** The server is dead for good: move on. Called once. */
  onDead(reason: DeadReason, detail: string): void;
  /** The viewer's own network is gone (true) or back (false). */
  onViewerOffline(offline: boolean): void;
}

interface InFlight {
  url: string;
  stats: RequestStats;
  startedAt: number;
  lastLoaded: number;
  lastByteAt: number;
}

export class StallWatchdog {
  private readonly inFlight = new Set<InFlight>();
  private failures: number[] = [];
  private lastFailure = '';
  private lastSuccessAt: number;
  private lastByteAt: number;
  private playhead = { time: -1, since: 0 };
  private timer: unknown;
  private checking = false;
  private offline = false;
  private offlineSince = 0;
  private probing = false;
  private dead = false;

  constructor(
    private readonly media: PlayheadSource,
    private readonly deps: WatchdogDeps,
  ) {
    this.lastSuccessAt = deps.now();
    this.lastByteAt = deps.now();
    this.timer = deps.setInterval(() => this.tick(), TICK_MS);
  }

  /** A request hls.js makes (playlist, segment, key): watched until it ends. */
  request(url: string, stats: RequestStats): RequestWatch {
    const now = this.deps.now();
    const entry: InFlight = { url, stats, startedAt: now, lastLoaded: stats.loaded, lastByteAt: now };
    this.inFlight.add(entry);
    let open = true;
    const end = () => {
      const was = open;
      open = false;
      this.inFlight.delete(entry);
      return was;
    };
    return {
      succeeded: () => {
        if (!end()) return;
        this.lastSuccessAt = this.lastByteAt = this.deps.now();
        this.failures = [];
      },
      failed: (status) => {
        if (!end()) return;
        this.failure(url, status);
      },
      aborted: () => void end(),
    };
  }

  /** hls.js gave up (a fatal error): dead at once, unless the viewer is the one offline. */
  fatal(detail: string, network: boolean): void {
    if (this.dead) return;
    if (!network) {
      this.declareDead('fatal', detail);
      return;
    }
    this.check('fatal', detail);
  }

  /** The viewer's network may be back (the `online` event, or every OFFLINE_PROBE_MS): look again from now. */
  viewerBack(): void {
    if (!this.offline || this.probing) return;
    this.probing = true;
    void this.deps.viewerOnline().then((online) => {
      this.probing = false;
      if (!online || this.dead || !this.offline) return;
      this.offline = false;
      this.reset();
      this.deps.onViewerOffline(false);
    });
  }

  stop(): void {
    this.deps.clearInterval(this.timer);
    this.inFlight.clear();
  }

  private reset(): void {
    const now = this.deps.now();
    this.failures = [];
    this.lastSuccessAt = this.lastByteAt = now;
    this.playhead = { time: this.media.currentTime, since: now };
    for (const r of this.inFlight) {
      r.startedAt = r.lastByteAt = now;
      r.lastLoaded = r.stats.loaded;
    }
  }

  private failure(url: string, status: number | 'timeout'): void {
    if (this.dead || this.offline) return;
    this.failures.push(this.deps.now());
    this.lastFailure = `${status === 'timeout' ? 'timeout' : `HTTP ${status || 'network/CORS'}`} ${shortUrl(url)}`;
    this.evaluate();
  }

  private tick(): void {
    if (this.dead) return;
    if (this.offline) {
      // The `online` event does not always come (an app opened offline keeps navigator.onLine true): ask again.
      if (this.deps.now() - this.offlineSince >= OFFLINE_PROBE_MS) {
        this.offlineSince = this.deps.now();
        this.viewerBack();
      }
      return;
    }
    const now = this.deps.now();
    // Bytes still arriving on any request?
    for (const r of this.inFlight) {
      if (r.stats.loaded !== r.lastLoaded) {
        r.lastLoaded = r.stats.loaded;
        r.lastByteAt = this.lastByteAt = now;
      }
    }
    // The playhead.
    const { currentTime, paused, ended } = this.media;
    if (paused || ended || currentTime !== this.playhead.time) this.playhead = { time: currentTime, since: now };
    this.evaluate();
  }

  private evaluate(): void {
    if (this.dead || this.offline || this.checking) return;
    const now = this.deps.now();
    const first = this.failures[0];
    if (first !== undefined && this.failures.length >= MIN_FAILURES && now - first >= FAIL_WINDOW_MS) {
      this.check('errors', `${this.failures.length} lỗi liên tiếp, lần cuối ${this.lastFailure}`);
      return;
    }
    for (const r of this.inFlight) {
      const quietFor = now - r.lastByteAt;
      if (quietFor >= HANG_MS && now - this.lastSuccessAt >= HANG_MS) {
        const what = r.stats.loading.first > 0 ? 'ngừng gửi dữ liệu' : 'không trả lời';
        this.check('hang', `máy chủ ${what} ${Math.round(quietFor / 1000)} giây: ${shortUrl(r.url)}`);
        return;
      }
    }
    const still = now - this.playhead.since;
    if (!this.media.paused && !this.media.ended && still >= STALL_MS) {
      const bytesComing = now - this.lastByteAt < STALL_QUIET_MS;
      if (!bytesComing || still >= STALL_MAX_MS)
        this.check('stall', `hình đứng ${Math.round(still / 1000)} giây ở ${this.media.currentTime.toFixed(1)} s`);
    }
  }

  /** Is it the server, or the viewer's own network? */
  private check(reason: DeadReason, detail: string): void {
    this.checking = true;
    void this.deps
      .viewerOnline()
      .catch(() => false)
      .then((online) => {
        this.checking = false;
        if (this.dead) return;
        if (online) this.declareDead(reason, detail);
        else if (!this.offline) {
          this.offline = true;
          this.offlineSince = this.deps.now();
          this.failures = [];
          this.deps.onViewerOffline(true);
        }
      });
  }

  private declareDead(reason: DeadReason, detail: string): void {
    this.dead = true;
    this.stop();
    this.deps.onDead(reason, detail);
  }
}

function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`.slice(-80);
  } catch {
    return url.slice(-80);
  }
}

/**
 * The viewer's own network: navigator.onLine, then our own origin (a lost Wi-Fi can leave onLine true). Any answer
 * from our origin means the viewer is online (a health check failing on its database is still an answer); none
 * within 3 s counts as offline: when unsure, nothing moves and nothing is reported.
 */
export async function viewerOnline(): Promise<boolean> {
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return false;
  try {
    const res = await fetch('/api/health', { cache: 'no-store', signal: timeoutSignal(3000) });
    await res.body?.cancel().catch(() => undefined);
    return true;
  } catch {
    return false;
  }
}
