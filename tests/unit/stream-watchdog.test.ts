// The stream's watchdog (web/src/features/player/stream/watchdog.ts, decision 0952) on a fake clock: when a server
// is dead for good, and when it is the viewer who is offline.
import { describe, expect, it } from 'vitest';
import {
  FAIL_WINDOW_MS,
  HANG_MS,
  OFFLINE_PROBE_MS,
  type RequestStats,
  STALL_MAX_MS,
  STALL_MS,
  StallWatchdog,
} from '../../web/src/features/player/stream/watchdog';

/** A clock, an interval timer driven by it, a <video> and a switchable network. */
function harness() {
  let now = 0;
  let tick: (() => void) | undefined;
  const media = { currentTime: 10, paused: false, ended: false };
  const dead: { reason: string; detail: string }[] = [];
  const offline: boolean[] = [];
  let online = true;
  const dog = new StallWatchdog(media, {
    now: () => now,
    setInterval: (run) => {
      tick = run;
      return 1;
    },
    clearInterval: () => {
      tick = undefined;
    },
    viewerOnline: async () => online,
    onDead: (reason, detail) => dead.push({ reason, detail }),
    onViewerOffline: (value) => offline.push(value),
  });
  /** Moves the clock on, ticking every 500 ms as the browser would, and lets the online check settle. */
  const advance = async (ms: number) => {
    for (let t = 0; t < ms; t += 500) {
      now += 500;
      tick?.();
      await Promise.resolve();
      await Promise.resolve();
    }
  };
  const stats = (): RequestStats => ({ loading: { start: now, first: 0 }, loaded: 0 });
  return {
    dog,
    media,
    dead,
    offline,
    advance,
    stats,
    setOnline: (value: boolean) => {
      online = value;
    },
  };
}

describe('the stream watchdog', () => {
  it('a failed request followed by a success is a blip: hls.js retried it, nothing moves', async () => {
    const h = harness();
    h.dog.request('https://host/a/seg1.ts', h.stats()).failed(503);
    await h.advance(1000);
    h.dog.request('https://host/a/seg1.ts', h.stats()).succeeded();
    await h.advance(FAIL_WINDOW_MS * 3);
    expect(h.dead).toEqual([]);
  });

  it('requests that keep failing (4xx, 5xx, CORS) with no success between: dead once the failures span FAIL_WINDOW_MS', async () => {
    const h = harness();
    h.dog.request('https://host/a/seg375.ts', h.stats()).failed(404);
    await h.advance(1000);
    h.dog.request('https://host/b/seg375.ts', h.stats()).failed(404);
    await h.advance(FAIL_WINDOW_MS - 1500);
    expect(h.dead).toEqual([]);
    await h.advance(1000);
    expect(h.dead).toHaveLength(1);
    expect(h.dead[0]!.reason).toBe('errors');
    expect(h.dead[0]!.detail).toContain('HTTP 404');
    // Once: nothing more is said, whatever else fails.
    h.dog.request('https://host/a/seg376.ts', h.stats()).failed(404);
    await h.advance(FAIL_WINDOW_MS * 2);
    expect(h.dead).toHaveLength(1);
  });

  it('a request with no answer for HANG_MS: dead (a server that stops answering)', async () => {
    const h = harness();
    h.dog.request('https://host/a/seg375.ts', h.stats());
    await h.advance(HANG_MS - 500);
    expect(h.dead).toEqual([]);
    await h.advance(1000);
    expect(h.dead.map((d) => d.reason)).toEqual(['hang']);
    expect(h.dead[0]!.detail).toContain('không trả lời');
  });

  it('a slow request whose bytes keep coming is not a hang', async () => {
    const h = harness();
    const stats = h.stats();
    h.dog.request('https://host/a/seg375.ts', stats);
    stats.loading.first = 1;
    for (let i = 0; i < 20; i++) {
      stats.loaded += 10_000;
      await h.advance(1000);
    }
    expect(h.dead).toEqual([]);
  });

  it('a request whose bytes stop coming for HANG_MS is a hang', async () => {
    const h = harness();
    const stats = h.stats();
    h.dog.request('https://host/a/seg375.ts', stats);
    stats.loading.first = 1;
    stats.loaded = 5000;
    await h.advance(1000);
    await h.advance(HANG_MS + 500);
    expect(h.dead.map((d) => d.reason)).toEqual(['hang']);
    expect(h.dead[0]!.detail).toContain('ngừng gửi dữ liệu');
  });

  it('a stall with no error (the playhead still, nothing arriving): dead after STALL_MS', async () => {
    const h = harness();
    await h.advance(STALL_MS - 1000);
    expect(h.dead).toEqual([]);
    await h.advance(1500);
    expect(h.dead.map((d) => d.reason)).toEqual(['stall']);
  });

  it('a stall while bytes still come (a slow network) waits, up to STALL_MAX_MS', async () => {
    const h = harness();
    const stats = h.stats();
    h.dog.request('https://host/a/seg375.ts', stats);
    stats.loading.first = 1;
    for (let t = 0; t < STALL_MAX_MS - 1000; t += 1000) {
      stats.loaded += 1000;
      await h.advance(1000);
    }
    expect(h.dead).toEqual([]);
    stats.loaded += 1000;
    await h.advance(1500);
    expect(h.dead.map((d) => d.reason)).toEqual(['stall']);
  });

  it('a paused or advancing video never stalls', async () => {
    const h = harness();
    h.media.paused = true;
    await h.advance(STALL_MS * 2);
    h.media.paused = false;
    for (let t = 0; t < STALL_MS * 2; t += 1000) {
      h.media.currentTime += 1;
      await h.advance(1000);
    }
    expect(h.dead).toEqual([]);
  });

  it('the viewer offline: nothing moves, nothing is said dead; back online it is told, and looks again from then', async () => {
    const h = harness();
    h.setOnline(false);
    h.dog.request('https://host/a/seg375.ts', h.stats()).failed(0);
    h.dog.request('https://host/a/seg375.ts', h.stats()).failed(0);
    await h.advance(FAIL_WINDOW_MS + 1000);
    await h.advance(STALL_MS * 2);
    expect(h.dead).toEqual([]);
    expect(h.offline).toEqual([true]);
    // `online` came but our own origin does not answer yet: still offline.
    h.dog.viewerBack();
    await h.advance(500);
    expect(h.offline).toEqual([true]);
    h.setOnline(true);
    h.dog.viewerBack();
    await h.advance(500);
    expect(h.offline).toEqual([true, false]);
    // From now: the server itself failing is dead again.
    h.media.currentTime += 1;
    h.dog.request('https://host/a/seg376.ts', h.stats()).failed(404);
    h.dog.request('https://host/a/seg376.ts', h.stats()).failed(404);
    await h.advance(FAIL_WINDOW_MS + 500);
    expect(h.dead.map((d) => d.reason)).toEqual(['errors']);
  });

  it('the viewer offline with no `online` event to come: asked again every OFFLINE_PROBE_MS', async () => {
    const h = harness();
    h.setOnline(false);
    h.dog.fatal('fragLoadError', true);
    await h.advance(500);
    expect(h.offline).toEqual([true]);
    await h.advance(OFFLINE_PROBE_MS * 2);
    expect(h.offline).toEqual([true]);
    h.setOnline(true);
    await h.advance(OFFLINE_PROBE_MS + 500);
    expect(h.offline).toEqual([true, false]);
    expect(h.dead).toEqual([]);
  });

  it("hls.js's fatal error: dead at once for a media error; for a network error only once the viewer is online", async () => {
    const media = harness();
    media.dog.fatal('bufferAppendError', false);
    expect(media.dead.map((d) => d.reason)).toEqual(['fatal']);

    const network = harness();
    network.setOnline(false);
    network.dog.fatal('manifestLoadError (0)', true);
    await network.advance(500);
    expect(network.dead).toEqual([]);
    expect(network.offline).toEqual([true]);

    const online = harness();
    online.dog.fatal('manifestLoadError (404)', true);
    await online.advance(500);
    expect(online.dead).toEqual([{ reason: 'fatal', detail: 'manifestLoadError (404)' }]);
  });
});
