// The watch party's sync engine, pure: no DOM, no socket, no timers (the hook drives it). Clock offset to the
// room from ping samples over the room's own socket (the lowest round trips win, the device clock is never
// trusted), and the correction a screen applies to stay on the room's timeline: hold until a scheduled start,
// nudge the rate by at most ±5 %, seek when more than a second off, at most one seek per few seconds.
import { type Timeline, timelinePosition } from '../../../../party/watch-messages';

/** Samples kept; the estimate comes from the ones with the lowest round trips (Jellyfin keeps 8, uses the best). */
export const CLOCK_SAMPLES = 8;
const BEST_SAMPLES = 3;
/** Below this the screen is in step and plays at the room's rate. */
export const DEAD_BAND_S = 0.03;
/** The rate moves at most this far from the room's rate. */
export const MAX_RATE_NUDGE = 0.05;
/** Seconds of drift the nudge removes per second (0.1 s off → the whole 5 %). */
const NUDGE_GAIN = 0.5;
/** Further off than this is a seek, not a nudge. */
export const SEEK_THRESHOLD_S = 1;
/** Seeks are at least this far apart (never a loop of seeks). */
export const SEEK_COOLDOWN_MS = 3000;
/** When paused, a screen further than this from the party's position snaps to it. */
const PAUSED_TOLERANCE_S = 0.05;

interface Sample {
  rtt: number;
  offset: number;
}

/**
 * Offset of the room's clock from a local monotonic clock (performance.now()). A sample is a ping sent at
 * local `sentAt`, answered with the room's time `roomTime`, received at local `receivedAt`.
 */
export class RoomClock {
  private samples: Sample[] = [];

  add(sentAt: number, roomTime: number, receivedAt: number): void {
    const rtt = receivedAt - sentAt;
    if (!(rtt >= 0) || !Number.isFinite(roomTime)) return;
    // The room stamped its reply somewhere in the round trip: in the middle, give or take rtt/2.
    this.samples.push({ rtt, offset: roomTime + rtt / 2 - receivedAt });
    if (this.samples.length > CLOCK_SAMPLES) this.samples.shift();
  }

  get count(): number {
    return this.samples.length;
  }

  /** Ready to schedule once a few samples are in. */
  get ready(): boolean {
    return this.samples.length >= BEST_SAMPLES;
  }

  /** The lowest round trip seen among the kept samples (ms), reported to the room for its start lead. */
  get rtt(): number {
    return this.samples.length ? Math.min(...this.samples.map((s) => s.rtt)) : 0;
  }

  /** room time = local time + offset; the mean offset of the lowest-rtt samples. */
  get offset(): number {
    if (this.samples.length === 0) return 0;
    const best = [...this.samples].sort((a, b) => a.rtt - b.rtt).slice(0, BEST_SAMPLES);
    return best.reduce((sum, s) => sum + s.offset, 0) / best.length;
  }

  roomNow(localNow: number): number {
    return localNow + this.offset;
  }

  /** Forget the samples (a reconnect, the tab coming back): the network path may have changed. */
  reset(): void {
    this.samples = [];
  }
}

/** What a screen sees of its player. */
export interface PlayerView {
  currentTime: number;
  paused: boolean;
  seeking: boolean;
}

export type Correction =
  /** Stay paused at `position` (seek there first when `seek`). */
  | { kind: 'paused'; position: number; seek: boolean }
  /** A play is scheduled: hold at `position` and start in `startInMs`. */
  | { kind: 'scheduled'; position: number; seek: boolean; startInMs: number }
  /** Playing: at `rate`; `seekTo` when too far off and allowed to seek now. */
  | { kind: 'playing'; rate: number; drift: number; seekTo?: number };

/**
 * The correction for one tick. `drift` > 0 means the screen is ahead of the party. `lastSeekAt` (local ms)
 * keeps seeks apart; `seekLatencyS` is how long a seek takes here (the target leads by that much).
 */
export function correction(
  timeline: Timeline,
  roomNow: number,
  player: PlayerView,
  localNow: number,
  lastSeekAt: number,
  seekLatencyS = 0.15,
): Correction {
  if (!timeline.playing) {
    return { kind: 'paused', position: timeline.position, seek: Math.abs(player.currentTime - timeline.position) > PAUSED_TOLERANCE_S };
  }
  if (roomNow < timeline.at) {
    return {
      kind: 'scheduled',
      position: timeline.position,
      seek: Math.abs(player.currentTime - timeline.position) > PAUSED_TOLERANCE_S,
      startInMs: timeline.at - roomNow,
    };
  }
  const expected = timelinePosition(timeline, roomNow);
  const drift = player.currentTime - expected;
  if (Math.abs(drift) > SEEK_THRESHOLD_S) {
    if (!player.seeking && localNow - lastSeekAt >= SEEK_COOLDOWN_MS)
      return { kind: 'playing', rate: timeline.rate, drift, seekTo: expected + seekLatencyS * timeline.rate };
    // Waiting for the cooldown (or a seek in flight): the strongest nudge meanwhile.
    return { kind: 'playing', rate: timeline.rate * (1 - Math.sign(drift) * MAX_RATE_NUDGE), drift };
  }
  if (Math.abs(drift) <= DEAD_BAND_S) return { kind: 'playing', rate: timeline.rate, drift };
  const nudge = Math.max(-MAX_RATE_NUDGE, Math.min(MAX_RATE_NUDGE, drift * NUDGE_GAIN));
  return { kind: 'playing', rate: timeline.rate * (1 - nudge), drift };
}

/**
 * Tells the player's own events apart from those the sync engine caused: each change the engine makes is
 * recorded, and a matching event within the window is its echo, not a person's action.
 */
export class EchoFilter {
  private expected: { kind: 'play' | 'pause' | 'seek' | 'rate'; value: number; until: number }[] = [];

  constructor(private readonly windowMs = 1500) {}

  /** The engine is about to make this change at local time `now`. */
  expect(kind: 'play' | 'pause' | 'seek' | 'rate', value: number, now: number): void {
    this.expected = this.expected.filter((e) => e.until > now && e.kind !== kind);
    this.expected.push({ kind, value, until: now + this.windowMs });
  }

  /** True when this event is the engine's own echo (consumed), false when a person did it. */
  isEcho(kind: 'play' | 'pause' | 'seek' | 'rate', value: number, now: number): boolean {
    const i = this.expected.findIndex(
      (e) =>
        e.kind === kind &&
        e.until > now &&
        (kind === 'seek' ? Math.abs(e.value - value) < 0.5 : kind === 'rate' ? Math.abs(e.value - value) < 0.005 : true),
    );
    if (i < 0) return false;
    this.expected.splice(i, 1);
    return true;
  }
}
