// The web's play counter (issue 40 §3): it reports a play only after 120 s of real playback; seeks, jumps and
// replays of the same seconds' updates add nothing, and it reports once.
import { describe, expect, it } from 'vitest';
import { PlayCounter } from '../../web/src/features/player/play-counter';

/** Time updates every 0.25 s of playback from `from` for `seconds`, as a playing <video> sends them. */
function playFor(counter: PlayCounter, from: number, seconds: number) {
  for (let t = from; t <= from + seconds + 1e-9; t += 0.25) counter.tick(t);
}

describe('PlayCounter', () => {
  it('does not report a 90 s play, reports at 120 s of playback, and only once', () => {
    let reports = 0;
    const counter = new PlayCounter(() => reports++);
    playFor(counter, 0, 90);
    expect(reports).toBe(0);
    playFor(counter, 90, 29.5);
    expect(reports).toBe(0);
    playFor(counter, 119.5, 1);
    expect(reports).toBe(1);
    playFor(counter, 120.5, 600);
    expect(reports).toBe(1);
  });

  it('counts no seek: jumping to 45:00 after 10 s of playback is 10 s, not 2,700', () => {
    let reports = 0;
    const counter = new PlayCounter(() => reports++);
    playFor(counter, 0, 10);
    counter.tick(2_700);
    playFor(counter, 2_700, 60);
    expect(counter.seconds).toBeCloseTo(70, 5);
    expect(reports).toBe(0);
  });

  it('counts no seek back either, and a new episode starts a new run without a jump', () => {
    let reports = 0;
    const counter = new PlayCounter(() => reports++);
    playFor(counter, 100, 50);
    counter.tick(20);
    playFor(counter, 20, 50);
    counter.restart();
    playFor(counter, 0, 25);
    expect(counter.seconds).toBeCloseTo(125, 5);
    expect(reports).toBe(1);
  });

  it('a paused video sends no updates; repeated updates at one time add nothing', () => {
    let reports = 0;
    const counter = new PlayCounter(() => reports++);
    for (let i = 0; i < 1_000; i++) counter.tick(30);
    expect(counter.seconds).toBe(0);
    expect(reports).toBe(0);
  });
});
