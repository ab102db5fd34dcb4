// The player's skip runs (issue 40 §7, web/src/features/player/skip-runs.ts): forward seeks merged while less than 2 s
// of playback separates them, reported after 8 s of real playback; a seek back right after counts against; where the
// viewer leaves for the next episode near the end.
import { describe, expect, it } from 'vitest';
import { type SkipReport, SkipTracker } from '../../web/src/features/player/skip-runs';

function tracker(duration = 2700) {
  const sent: SkipReport[] = [];
  const t = new SkipTracker(
    () => duration,
    (r) => sent.push(r),
  );
  /** Plays from `from` for `seconds` in 0.25 s time updates. */
  const play = (from: number, seconds: number) => {
    for (let s = 0; s <= seconds; s += 0.25) t.time(from + s);
  };
  return { t, sent, play };
}

describe('SkipTracker', () => {
  it('one drag of the bar, then 8 s of playback: one intro report', () => {
    const { t, sent, play } = tracker();
    play(30, 3);
    t.seek(60);
    t.seek(118); // the drag lets go further on
    play(118, 5);
    expect(sent).toHaveLength(0);
    play(123, 4);
    expect(sent).toEqual([{ kind: 'intro', start: 33, before: 60, end: 118, duration: 2700, stepped: false, via: 'seek', back: false }]);
    // Once per episode.
    t.seek(200);
    play(200, 10);
    expect(sent).toHaveLength(1);
  });

  it('nine double taps less than 2 s apart are one stepped run', () => {
    const { t, sent, play } = tracker();
    play(40, 2);
    let at = 42;
    for (let i = 0; i < 9; i++) {
      t.seek(at + 10);
      at += 10;
      play(at, 0.5);
      at += 0.5;
    }
    play(at, 9);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ kind: 'intro', start: 42, before: 126, end: 136, stepped: true, back: false });
  });

  it('a seek back within 8 s of the skip votes against; a short run or one late in the episode is no skip', () => {
    const a = tracker();
    a.play(30, 1);
    a.t.seek(120);
    a.play(120, 3);
    a.t.seek(100);
    expect(a.sent[0]).toMatchObject({ start: 31, end: 120, back: true });

    const b = tracker();
    b.play(30, 1);
    b.t.seek(40); // 9 s: a nudge, not an intro
    b.play(40, 10);
    b.play(1500, 1);
    b.t.seek(1600); // past the first quarter
    b.play(1600, 10);
    expect(b.sent).toHaveLength(0);
  });

  it('the button and auto skips are votes; "Xem lại" after an auto skip votes against', () => {
    const { t, sent, play } = tracker();
    play(30, 1);
    t.expect('auto');
    t.seek(118);
    play(118, 2);
    t.expect('rewind');
    t.seek(30);
    expect(sent).toEqual([{ kind: 'intro', start: 31, before: 31, end: 118, duration: 2700, stepped: false, via: 'auto', back: true }]);
  });

  it('leaving for the next episode in the last part reports the credits, once; earlier it reports nothing', () => {
    const { t, sent } = tracker();
    t.leave(1200);
    expect(sent).toHaveLength(0);
    t.leave(2590);
    t.leave(2600);
    expect(sent).toEqual([{ kind: 'credits', start: 2590, end: 2590, duration: 2700, stepped: false, via: 'seek', back: false }]);
  });
});
