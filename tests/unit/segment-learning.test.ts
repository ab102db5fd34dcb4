// Issue 40 §7's simulation: seeded viewers skip an intro as people do, 10 % of them with a stray seek, and the
// learner (worker/services/segments/learn.ts) places the intro's end within 3 s before to 1 s after the true end.
// Viewers report one by one (as devices do); the segment as first published, and as it stands after everyone, are
// both checked.
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../demo/catalogue';
import { type LearnReport, learnCredits, learnIntro, seriesLength, votedDown } from '../../worker/services/segments/learn';

type Rand = () => number;
const between = (r: Rand, a: number, b: number) => a + (b - a) * r();

/** An episode's intro [t0, t1]: 0–120 s in, 60–110 s long. */
function intro(r: Rand) {
  const t0 = r() < 0.25 ? 0 : between(r, 10, 120);
  return { t0, t1: t0 + between(r, 60, 110) };
}

/** A stray seek: a forward run somewhere in the first part, unrelated to the intro (it passes the player's filters). */
const stray = (r: Rand): LearnReport => {
  const start = between(r, 0, 400);
  return { start, end: start + between(r, 15, 180), via: 'seek', back: false };
};

/** A scrubbing viewer: recognises the theme within 5 s, drags the bar and lands within 4 s after its end. */
const scrubber = (r: Rand, t0: number, t1: number): LearnReport =>
  r() < 0.1 ? stray(r) : { start: t0 + between(r, 0, 5), end: t1 + between(r, 0, 4), via: 'seek', back: false };

/**
 * A double-tapping viewer: recognises the theme within 8 s, then +10 s per double tap, the video playing 0.2–1.2 s
 * between taps (one run: less than 2 s apart), until what shows is past the end: lands up to 10 s after it.
 */
const tapper = (r: Rand, t0: number, t1: number): LearnReport => {
  if (r() < 0.1) return stray(r);
  const start = t0 + between(r, 0, 8);
  let at = start;
  let before = start;
  while (at < t1) {
    before = at;
    at += 10;
    if (at < t1) at += between(r, 0.2, 1.2);
  }
  return { start, before, end: at, via: 'seek', back: false, stepped: true };
};

const TRIALS = 1000;

function simulate(viewer: (r: Rand, t0: number, t1: number) => LearnReport, viewers: number, seed: number) {
  const r = seededRandom(seed);
  let firstOk = 0;
  let finalOk = 0;
  let published = 0;
  let startOk = 0;
  const arrivedAt: number[] = [];
  for (let trial = 0; trial < TRIALS; trial++) {
    const { t0, t1 } = intro(r);
    const reports: LearnReport[] = [];
    let first: ReturnType<typeof learnIntro> = null;
    for (let v = 0; v < viewers; v++) {
      reports.push(viewer(r, t0, t1));
      const learned = learnIntro(reports);
      if (learned && !first) {
        first = learned;
        arrivedAt.push(v + 1);
      }
    }
    const last = learnIntro(reports);
    if (!first || !last) continue;
    published++;
    if (first.end >= t1 - 3 && first.end <= t1 + 1) firstOk++;
    if (last.end >= t1 - 3 && last.end <= t1 + 1) finalOk++;
    if (last.start >= t0 - 1 && last.start <= t0 + 5) startOk++;
  }
  arrivedAt.sort((a, b) => a - b);
  const figures = {
    published: published / TRIALS,
    firstInWindow: firstOk / TRIALS,
    finalInWindow: finalOk / TRIALS,
    startInWindow: startOk / TRIALS,
    medianViewersToPublish: arrivedAt[arrivedAt.length >> 1],
  };
  console.log(`[segment simulation] ${viewer.name} × ${viewers}:`, JSON.stringify(figures));
  return figures;
}

describe('an intro learned from seeded viewers (10 % stray seeks)', () => {
  it('5 agreeing scrubbers place its end within [t1 − 3, t1 + 1] at least 95 % of the time', () => {
    // Viewers keep arriving until five agree (strays delay it); 12 arrivals are enough for nearly every trial.
    const f = simulate(scrubber, 12, 40);
    expect(f.published).toBeGreaterThanOrEqual(0.99);
    expect(f.medianViewersToPublish).toBeLessThanOrEqual(6);
    expect(f.firstInWindow).toBeGreaterThanOrEqual(0.95);
    expect(f.finalInWindow).toBeGreaterThanOrEqual(0.95);
  });

  it('20 double tappers (landings spread over 10 s) place its end within [t1 − 3, t1 + 1] at least 95 % of the time', () => {
    const f = simulate(tapper, 30, 41);
    expect(f.published).toBeGreaterThanOrEqual(0.99);
    expect(f.firstInWindow).toBeGreaterThanOrEqual(0.95);
    expect(f.finalInWindow).toBeGreaterThanOrEqual(0.95);
  });

  it('4 devices publish nothing, however well they agree', () => {
    const r = seededRandom(42);
    for (let trial = 0; trial < 200; trial++) {
      const { t0, t1 } = intro(r);
      const reports = [1, 2, 3, 4].map(() => ({ start: t0 + 1, end: t1 + between(r, 0, 1), via: 'seek' as const, back: false }));
      expect(learnIntro(reports)).toBeNull();
    }
  });

  it('once three episodes agree on the length, two devices publish the next, its start at end − length', () => {
    const length = seriesLength([
      { start: 0, end: 89.5 },
      { start: 60, end: 150 },
      { start: 31, end: 120.8 },
    ]);
    expect(length).toBe(89.8);
    const two: LearnReport[] = [
      { start: 42, end: 133, via: 'seek', back: false },
      { start: 44, end: 135, via: 'seek', back: false },
    ];
    expect(learnIntro(two)).toBeNull();
    const learned = learnIntro(two, length);
    expect(learned?.end).toBe(132);
    expect(learned?.start).toBeCloseTo(42.2, 1);
    // Lengths that disagree give no series length.
    expect(
      seriesLength([
        { start: 0, end: 60 },
        { start: 0, end: 90 },
        { start: 0, end: 120 },
      ]),
    ).toBeNull();
  });

  it('button and auto skips vote but never place the segment; a seek back votes against', () => {
    const used = Array.from({ length: 10 }, (_, i): LearnReport => ({ start: 30, end: 120, via: 'button', back: i < 3 }));
    expect(learnIntro(used)).toBeNull();
    expect(votedDown(used)).toBe(false);
    used.push({ start: 30, end: 120, via: 'auto', back: true });
    expect(votedDown(used)).toBe(true);
    // Sought back after a skip: not a landing.
    const backs = Array.from({ length: 6 }, (): LearnReport => ({ start: 30, end: 120, via: 'seek', back: true }));
    expect(learnIntro(backs)).toBeNull();
  });

  it('credits start where viewers begin to leave for the next episode', () => {
    const r = seededRandom(43);
    const leaves = Array.from({ length: 8 }, (): LearnReport => {
      const t = 2580 + between(r, 0, 4);
      return { start: t, end: t, via: 'seek', back: false };
    });
    const learned = learnCredits(leaves);
    expect(learned?.start).toBeGreaterThanOrEqual(2577);
    expect(learned?.start).toBeLessThanOrEqual(2581);
    expect(learnCredits(leaves.slice(0, 4))).toBeNull();
  });
});
