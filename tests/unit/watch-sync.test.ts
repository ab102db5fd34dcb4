import { describe, expect, it } from 'vitest';
import type { Timeline } from '../../party/watch-messages';
import {
  correction,
  DEAD_BAND_S,
  EchoFilter,
  MAX_RATE_NUDGE,
  RoomClock,
  SEEK_COOLDOWN_MS,
} from '../../web/src/features/watch-party/sync-engine';

const playing = (over: Partial<Timeline> = {}): Timeline => ({
  episode: 1,
  server: 'Vietsub #1',
  playing: true,
  position: 100,
  at: 1_000_000,
  rate: 1,
  seq: 3,
  ...over,
});
const view = (currentTime: number, over: Partial<{ paused: boolean; seeking: boolean }> = {}) => ({
  currentTime,
  paused: false,
  seeking: false,
  ...over,
});

describe('RoomClock', () => {
  it('estimates the offset from the lowest round trips, whatever the device clock says', () => {
    // The device's monotonic clock is unrelated to the room's (minutes off): only the offset matters.
    const trueOffset = 7 * 60_000 + 123; // room = local + offset
    const clock = new RoomClock();
    const paths = [
      [40, 10],
      [200, 170],
      [30, 12],
      [35, 15],
      [500, 20],
      [32, 11],
    ]; // [up, down] ms: asymmetric and jittery
    let local = 5000;
    for (const [up, down] of paths) {
      const sentAt = local;
      const roomTime = sentAt + up! + trueOffset;
      const receivedAt = sentAt + up! + down!;
      clock.add(sentAt, roomTime, receivedAt);
      local += 1000;
    }
    expect(clock.ready).toBe(true);
    expect(clock.rtt).toBe(42);
    // Best three (42, 43, 50 ms round trips): error ≤ half their asymmetry.
    expect(Math.abs(clock.offset - trueOffset)).toBeLessThan(15);
    expect(clock.roomNow(10_000)).toBeCloseTo(10_000 + clock.offset, 6);
  });

  it('keeps the last 8 samples and ignores impossible ones', () => {
    const clock = new RoomClock();
    clock.add(100, 5000, 90); // negative round trip
    clock.add(100, Number.NaN, 120);
    expect(clock.count).toBe(0);
    for (let i = 0; i < 12; i++) clock.add(i * 100, i * 100 + 1000 + 5, i * 100 + 10);
    expect(clock.count).toBe(8);
    expect(clock.offset).toBeCloseTo(1000, 6);
    clock.reset();
    expect(clock.ready).toBe(false);
  });
});

describe('correction', () => {
  it('paused: holds at the party position, seeking only when off', () => {
    const t = playing({ playing: false, position: 42 });
    expect(correction(t, 0, view(42.01, { paused: true }), 0, 0)).toEqual({ kind: 'paused', position: 42, seek: false });
    expect(correction(t, 0, view(40, { paused: true }), 0, 0)).toEqual({ kind: 'paused', position: 42, seek: true });
  });

  it('a play scheduled at a room time ahead holds, then starts in exactly the time left', () => {
    const c = correction(playing(), 1_000_000 - 400, view(100), 0, 0);
    expect(c).toEqual({ kind: 'scheduled', position: 100, seek: false, startInMs: 400 });
  });

  it('small drift: the rate, at most ±5 %, in the direction that closes the gap', () => {
    const now = 1_000_000 + 10_000; // expected 110
    const inStep = correction(playing(), now, view(110 + DEAD_BAND_S / 2), 0, 0);
    expect(inStep).toMatchObject({ kind: 'playing', rate: 1 });
    const ahead = correction(playing(), now, view(110.06), 0, 0);
    expect(ahead.kind === 'playing' && ahead.rate).toBeCloseTo(0.97, 6);
    const behind = correction(playing(), now, view(109.5), 0, 0);
    expect(behind.kind === 'playing' && behind.rate).toBeCloseTo(1 + MAX_RATE_NUDGE, 6);
    const fast = correction(playing({ rate: 2 }), now, view(120.5), 0, 0); // expected 120 at 2×
    expect(fast.kind === 'playing' && fast.rate).toBeCloseTo(2 * (1 - MAX_RATE_NUDGE), 6);
  });

  it('large drift: one seek, then none for a few seconds, never a loop', () => {
    const now = 1_000_000 + 10_000;
    const first = correction(playing(), now, view(104), 50_000, 0);
    expect(first).toMatchObject({ kind: 'playing', seekTo: 110.15 });
    const soon = correction(playing(), now, view(104), 50_000 + 1000, 50_000);
    expect(soon.kind === 'playing' && soon.seekTo).toBeUndefined();
    expect(soon.kind === 'playing' && soon.rate).toBeCloseTo(1.05, 6);
    const seeking = correction(playing(), now, view(104, { seeking: true }), 60_000, 50_000);
    expect(seeking.kind === 'playing' && seeking.seekTo).toBeUndefined();
    const later = correction(playing(), now, view(104), 50_000 + SEEK_COOLDOWN_MS, 50_000);
    expect(later.kind === 'playing' && later.seekTo).toBeCloseTo(110.15, 6);
  });

  it('a simulated screen that started 80 ms late converges under 30 ms within 3 s by rate alone', () => {
    const t = playing();
    let current = 100 - 0.08;
    let roomNow = t.at;
    let seeks = 0;
    for (let step = 0; step < 30; step++) {
      const c = correction(t, roomNow, view(current), roomNow, -1e9);
      if (c.kind !== 'playing') throw new Error('should be playing');
      if (c.seekTo !== undefined) seeks++;
      current += c.rate * 0.1;
      roomNow += 100;
    }
    expect(seeks).toBe(0);
    expect(Math.abs(current - (100 + (roomNow - t.at) / 1000))).toBeLessThan(0.03);
  });
});

describe('EchoFilter', () => {
  it("recognises the engine's own changes once, within the window, and nothing else", () => {
    const f = new EchoFilter(1000);
    f.expect('seek', 750, 0);
    f.expect('pause', 0, 0);
    expect(f.isEcho('seek', 750.2, 100)).toBe(true);
    expect(f.isEcho('seek', 750.2, 150)).toBe(false); // consumed
    expect(f.isEcho('play', 0, 100)).toBe(false); // a person pressed play
    expect(f.isEcho('pause', 0, 1500)).toBe(false); // too late: a person's
    f.expect('rate', 1.03, 2000);
    expect(f.isEcho('rate', 1.5, 2100)).toBe(false);
    expect(f.isEcho('rate', 1.03, 2100)).toBe(true);
  });
});
