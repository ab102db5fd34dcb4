// The stream controller (web/src/features/player/stream/controller.ts, decision 0952) without React or a browser:
// a fake <video>, a fake <hls-video> whose hls.js API is a stub, a fake engine, fake timers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type ControllerDeps,
  type Engine,
  type HlsHost,
  MESSAGES,
  type StreamView,
  streamControllerFor,
} from '../../web/src/features/player/stream/controller';

class FakeVideo extends EventTarget {
  currentTime = 0;
  paused = true;
  ended = false;
  preload = 'metadata';
  currentSrc = '';
  src = '';
  duration = Number.NaN;
  error: { code: number } | null = null;
  plays = 0;
  refuse: string | undefined;
  play(): Promise<void> {
    this.plays++;
    if (this.refuse) return Promise.reject(Object.assign(new Error('refused'), { name: this.refuse }));
    this.paused = false;
    this.dispatchEvent(new Event('play'));
    return Promise.resolve();
  }
  pause(): void {
    this.paused = true;
    this.dispatchEvent(new Event('pause'));
  }
}

interface FakeApi {
  handlers: Map<string, (event: string, data: never) => void>;
  startLevel: number;
  loads: (number | undefined)[];
  stopped: number;
  on(event: string, listener: (event: string, data: never) => void): void;
  recoverMediaError(): void;
  startLoad(position?: number): void;
  stopLoad(): void;
  fire(event: string, data: unknown): void;
}

function fakeApi(): FakeApi {
  const api: FakeApi = {
    handlers: new Map(),
    startLevel: -1,
    loads: [],
    stopped: 0,
    on(event, listener) {
      api.handlers.set(event, listener);
    },
    recoverMediaError() {},
    startLoad(position) {
      api.loads.push(position);
    },
    stopLoad() {
      api.stopped++;
    },
    fire(event, data) {
      api.handlers.get(event)?.(event, data as never);
    },
  };
  return api;
}

/** A <hls-video> on the page: setting src makes its hls.js instance a microtask later, as hls-video-element does. */
function fakeHost(): HlsHost & { api: FakeApi | null } {
  let src = '';
  const host = {
    isConnected: true,
    config: undefined as unknown,
    api: null as FakeApi | null,
    get src() {
      return src;
    },
    set src(value: string) {
      src = value;
      void Promise.resolve().then(() => {
        host.api = fakeApi();
      });
    },
  };
  return host as unknown as HlsHost & { api: FakeApi | null };
}

function viewSpy(withFailover = true) {
  const calls: string[] = [];
  const failures: unknown[] = [];
  const messages: (string | null)[] = [];
  const view: StreamView = {
    started: () => calls.push('started'),
    pending: (on) => calls.push(`pending:${on}`),
    message: (text) => messages.push(text),
    adsRemoved: () => calls.push('ads'),
    attached: () => calls.push('attached'),
    detach: () => calls.push('detach'),
    ...(withFailover ? { failed: (f: unknown) => failures.push(f) } : {}),
  };
  return { view, calls, failures, messages };
}

function deps(overrides: Partial<ControllerDeps> = {}) {
  const configs: { hooks: Parameters<Engine['createHlsConfig']>[0]; options: Parameters<Engine['createHlsConfig']>[1] }[] = [];
  let controlsLoaded = 0;
  let online = true;
  const d: ControllerDeps = {
    loadEngine: async () => ({
      createHlsConfig: (hooks, options) => {
        configs.push({ hooks, options });
        return { fake: true };
      },
    }),
    loadControls: async () => {
      controlsLoaded++;
    },
    viewerOnline: async () => online,
    bandwidth: () => 1_600_000,
    now: () => Date.now(),
    setInterval: (run, ms) => setInterval(run, ms),
    clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
    idle: (run) => void setTimeout(run, 0),
    ...overrides,
  };
  return {
    d,
    configs,
    controlsLoaded: () => controlsLoaded,
    setOnline: (value: boolean) => {
      online = value;
    },
  };
}

/** Lets every pending promise and zero-delay timer run. */
async function settle() {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await vi.advanceTimersByTimeAsync(1);
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('window', new EventTarget());
  vi.stubGlobal('MediaError', { MEDIA_ERR_NETWORK: 2 });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const M3U8 = 'https://video.example/phim/index.m3u8';

describe('the stream controller', () => {
  it('a play before the engine is in asks the browser at once (inside the tap), then attaches and starts where asked', async () => {
    const video = new FakeVideo();
    const host = fakeHost();
    const { d, configs } = deps();
    const c = streamControllerFor(video as unknown as HTMLVideoElement, host, { m3u8: M3U8, startAt: 1800 }, d);
    const spy = viewSpy();
    c.setView(spy.view);
    c.play();
    // Asked synchronously, before any engine: a browser that allows play() only just after a tap has it.
    expect(video.plays).toBe(1);
    expect(spy.calls).toContain('pending:true');
    await settle();
    expect(host.src).toBe(M3U8);
    expect(host.config).toEqual({ fake: true });
    // The viewer asked already: no 'metadata' hold on the buffer.
    expect(video.preload).toBe('auto');
    expect(configs[0]!.options.startPosition).toBe(1800);
    expect(typeof configs[0]!.hooks.take).toBe('function');
    expect(typeof configs[0]!.hooks.track).toBe('function');
    expect(spy.calls).toContain('attached');
    video.dispatchEvent(new Event('playing'));
    expect(spy.calls.slice(-2)).toEqual(['pending:false', 'started']);
    expect(c.started).toBe(true);
    c.destroy();
  });

  it("an engine already in (evaluated at the film page's tap) attaches within the play itself, not a task later", async () => {
    const video = new FakeVideo();
    const host = fakeHost();
    const engine: Engine = { createHlsConfig: () => ({ fake: true }) };
    const { d } = deps({ loadEngine: () => engine });
    const c = streamControllerFor(video as unknown as HTMLVideoElement, host, { m3u8: M3U8 }, d);
    c.setView(viewSpy().view);
    c.play();
    expect(host.src).toBe(M3U8);
    expect(host.config).toEqual({ fake: true });
    expect(video.preload).toBe('auto');
    await settle();
    expect(c.attached).toBe(true);
    c.destroy();
  });

  it('a browser that refuses the play (no recent tap): "Phát" stays as it was, and the next tap plays', async () => {
    const video = new FakeVideo();
    video.refuse = 'NotAllowedError';
    const { d } = deps();
    const c = streamControllerFor(video as unknown as HTMLVideoElement, fakeHost(), { m3u8: M3U8 }, d);
    const spy = viewSpy();
    c.setView(spy.view);
    c.play();
    await settle();
    expect(c.wantsPlay).toBe(false);
    expect(spy.calls.filter((x) => x.startsWith('pending'))).toEqual(['pending:false', 'pending:true', 'pending:false']);
    video.refuse = undefined;
    c.toggle();
    expect(c.wantsPlay).toBe(true);
    expect(video.paused).toBe(false);
    c.destroy();
  });

  it('warm: the engine attached without playing (metadata only); the control bar only once the app owns the markup', async () => {
    const video = new FakeVideo();
    const { d, controlsLoaded } = deps();
    const c = streamControllerFor(video as unknown as HTMLVideoElement, fakeHost(), { m3u8: M3U8 }, d);
    const start = viewSpy();
    c.setView(start.view, false);
    c.warm();
    await settle();
    expect(c.attached).toBe(true);
    expect(video.plays).toBe(0);
    expect(video.preload).toBe('metadata');
    // The start path's view (the host's markup, before hydration): media-chrome would add to what React hydrates.
    expect(controlsLoaded()).toBe(0);
    const app = viewSpy();
    c.setView(app.view);
    await settle();
    expect(start.calls).toContain('detach');
    expect(app.calls).toContain('attached');
    expect(controlsLoaded()).toBe(1);
    c.destroy();
  });

  it('a stream attached ahead, adopted and then played, loads the control bar after its first frame, not before', async () => {
    // The film page's tap attaches the stream off the page (hand-over.ts); the watch page adopts it, then plays.
    const video = new FakeVideo();
    const { d, controlsLoaded } = deps();
    const c = streamControllerFor(video as unknown as HTMLVideoElement, fakeHost(), { m3u8: M3U8 }, d);
    c.warm();
    await settle();
    expect(c.attached).toBe(true);
    c.setView(viewSpy().view);
    c.play();
    await settle();
    // Its evaluation is a long task of its own (~0.9 s on the phone profile): it waits for the picture.
    expect(controlsLoaded()).toBe(0);
    video.dispatchEvent(new Event('playing'));
    await settle();
    expect(controlsLoaded()).toBe(1);
    c.destroy();
  });

  it("the component adopts the start path's controller on the same <video> and source; another source starts afresh", async () => {
    const video = new FakeVideo();
    const host = fakeHost();
    const { d } = deps();
    const early = streamControllerFor(video as unknown as HTMLVideoElement, host, { m3u8: M3U8 }, d);
    early.setView(viewSpy().view, false);
    early.play();
    await settle();
    video.dispatchEvent(new Event('playing'));
    const adopted = streamControllerFor(video as unknown as HTMLVideoElement, host, { m3u8: M3U8, startAt: 12 }, d);
    expect(adopted).toBe(early);
    const app = viewSpy();
    adopted.setView(app.view);
    // What already happened is told again.
    expect(app.calls).toEqual(expect.arrayContaining(['attached', 'started', 'pending:false']));
    const other = streamControllerFor(video as unknown as HTMLVideoElement, host, { m3u8: 'https://other.example/x.m3u8' }, d);
    expect(other).not.toBe(early);
    expect(early.isDestroyed).toBe(true);
    other.destroy();
  });

  it('a server dead for good: the watch page gets where the viewer was and that it was playing; without it, a message', async () => {
    for (const withFailover of [true, false]) {
      const video = new FakeVideo();
      const host = fakeHost();
      const { d } = deps();
      const c = streamControllerFor(video as unknown as HTMLVideoElement, host, { m3u8: M3U8, failover: withFailover }, d);
      const spy = viewSpy(withFailover);
      c.setView(spy.view);
      c.play();
      await settle();
      video.currentTime = 1500;
      host.api!.fire('hlsError', { fatal: true, type: 'networkError', details: 'fragLoadError', response: { code: 404 } });
      await settle();
      if (withFailover) {
        expect(spy.failures).toEqual([{ position: 1500, playing: true, detail: 'fragLoadError (404)' }]);
        expect(spy.messages.at(-1)).toBeNull();
      } else {
        expect(spy.failures).toEqual([]);
        expect(spy.messages.at(-1)).toBe(MESSAGES.cannotLoad);
      }
      expect(host.api!.stopped).toBe(1);
      c.destroy();
    }
  });

  it("a server that stops answering: moved from on the watch page; waited for on a watch party's screen (nowhere to move)", async () => {
    for (const failover of [true, false]) {
      const video = new FakeVideo();
      const host = fakeHost();
      const { d, configs } = deps();
      const c = streamControllerFor(video as unknown as HTMLVideoElement, host, { m3u8: M3U8, failover }, d);
      const spy = viewSpy(failover);
      c.setView(spy.view);
      c.play();
      await settle();
      video.currentTime = 1500;
      // A segment request that never answers, far past the hang bound.
      configs[0]!.hooks.track!('https://video.example/phim/seg375.ts', {
        loading: { start: 0, first: 0, end: 0 },
        loaded: 0,
      } as never);
      await vi.advanceTimersByTimeAsync(20_000);
      await settle();
      if (failover) {
        expect(spy.failures).toHaveLength(1);
        expect(host.api!.stopped).toBe(1);
      } else {
        expect(spy.messages.filter((m) => m !== null)).toEqual([]);
        expect(host.api!.stopped).toBe(0);
      }
      c.destroy();
    }
  });

  it('the viewer offline: a message and no move; back online, loading starts again from where the viewer is', async () => {
    const video = new FakeVideo();
    const host = fakeHost();
    const { d, setOnline } = deps();
    const c = streamControllerFor(video as unknown as HTMLVideoElement, host, { m3u8: M3U8, failover: true }, d);
    const spy = viewSpy();
    c.setView(spy.view);
    c.play();
    await settle();
    video.currentTime = 1500;
    setOnline(false);
    host.api!.fire('hlsError', { fatal: true, type: 'networkError', details: 'fragLoadError' });
    await settle();
    expect(spy.failures).toEqual([]);
    expect(spy.messages.at(-1)).toBe(MESSAGES.offline);
    setOnline(true);
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(spy.messages.at(-1)).toBeNull();
    expect(host.api!.loads).toEqual([1500]);
    expect(spy.failures).toEqual([]);
    c.destroy();
  });

  it("the level to start with follows the viewer's bandwidth (an eighth of it), or the quality they chose", async () => {
    const levels = [
      { url: ['https://v/180p.m3u8'], bitrate: 160_000, height: 180 },
      { url: ['https://v/360p.m3u8'], bitrate: 270_000, height: 360 },
      { url: ['https://v/540p.m3u8'], bitrate: 420_000, height: 540 },
    ];
    for (const [bandwidth, expected] of [
      [1_600_000, 0],
      [2_400_000, 1],
      [10_000_000, 2],
    ] as const) {
      const host = fakeHost();
      const { d } = deps({ bandwidth: () => bandwidth });
      const c = streamControllerFor(new FakeVideo() as unknown as HTMLVideoElement, host, { m3u8: M3U8 }, d);
      c.setView(viewSpy().view);
      c.warm();
      await settle();
      host.api!.fire('hlsManifestParsed', { levels });
      expect(host.api!.startLevel).toBe(expected);
      c.destroy();
    }
  });

  it('the bandwidth is measured once: the level hls.js starts with is the one the prefetch chose, however the estimate moves', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const estimates = [1_600_000, 10_000_000];
    let measured = 0;
    const host = fakeHost();
    const { d } = deps({ bandwidth: () => estimates[Math.min(measured++, estimates.length - 1)]! });
    const c = streamControllerFor(new FakeVideo() as unknown as HTMLVideoElement, host, { m3u8: M3U8 }, d);
    c.setView(viewSpy().view);
    await c.prepare();
    c.warm();
    await settle();
    host.api!.fire('hlsManifestParsed', {
      levels: [
        { url: ['https://v/180p.m3u8'], bitrate: 160_000, height: 180 },
        { url: ['https://v/540p.m3u8'], bitrate: 420_000, height: 540 },
      ],
    });
    expect(host.api!.startLevel).toBe(0);
    expect(measured).toBe(1);
    c.destroy();
  });
});
