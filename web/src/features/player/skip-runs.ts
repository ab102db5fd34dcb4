// What this device tells the API about intros and credits (issue 40 §7, docs/decisions/1100): a "skip run" is the
// forward seeks in an episode's first part that less than 2 s of playback separate (a drag of the bar, double taps,
// L presses: one run), followed by real playback; a seek back right after it counts against. Where the viewer
// leaves for the next episode by their own act near the end is where the credits are. Times are the <video>'s, on
// the ad-filtered timeline (stream/playlist.ts removes the ads before the player sees them). Once per device,
// episode and server; the API dedupes and rate-limits too.
import type { SegmentReportInput } from '../../../../worker/schemas/segments';
import { SKIP_RULES } from '../../../../worker/schemas/segment-texts';

export type SkipReport = Omit<SegmentReportInput, 'slug' | 'episode' | 'server' | 'device'>;

interface Run {
  start: number;
  before: number;
  end: number;
  steps: number[];
  via: 'seek' | 'button' | 'auto';
  /** Playback since the landing (forward steps of at most 2 s). */
  played: number;
}

/** A timeupdate step longer than this is a seek or a stalled tab catching up, not playback. */
const MAX_STEP = 2;

/** One episode's skip runs on one server; `send` gets each report once. */
export class SkipTracker {
  private last: number | null = null;
  private run: Run | null = null;
  private introSent = false;
  private creditsSent = false;
  /** The next seek is ours (the button, auto skip, "Xem lại"): set before the player seeks. */
  private ours: 'button' | 'auto' | 'rewind' | null = null;

  constructor(
    private readonly duration: () => number,
    private readonly send: (report: SkipReport) => void,
  ) {}

  /** A time update of the playing video. */
  time(t: number): void {
    const step = this.last === null ? 0 : t - this.last;
    this.last = t;
    const run = this.run;
    if (!run || !(step > 0 && step <= MAX_STEP)) return;
    run.played += step;
    if (run.played >= SKIP_RULES.confirm) this.finish(false);
  }

  /** The player is about to seek on the viewer's behalf ("Bỏ qua giới thiệu", auto skip, "Xem lại"). */
  expect(kind: 'button' | 'auto' | 'rewind'): void {
    this.ours = kind;
  }

  /** A seek landed at `to` (the <video>'s `seeking`). */
  seek(to: number): void {
    const from = this.last;
    const ours = this.ours;
    this.ours = null;
    this.last = to;
    if (from === null) return;
    const delta = to - from;
    const run = this.run;
    if (ours === 'rewind') {
      if (run) this.finish(true);
      return;
    }
    if (ours === 'button' || ours === 'auto') {
      this.run = { start: from, before: from, end: to, steps: [delta], via: ours, played: 0 };
      return;
    }
    if (run && run.via === 'seek' && run.played < SKIP_RULES.mergeGap && Math.abs(delta) >= 0.1) {
      // Part of the same run: a double tap, a drag (which may move back a little before letting go).
      run.end = to;
      run.played = 0;
      if (delta > 0) {
        run.before = from;
        run.steps.push(delta);
      } else run.steps.push(Number.NaN);
      return;
    }
    if (run && delta <= -SKIP_RULES.backSeek) {
      this.finish(true);
      return;
    }
    if (delta >= SKIP_RULES.minSeek) this.run = { start: from, before: from, end: to, steps: [delta], via: 'seek', played: 0 };
    else if (run && delta > 0) this.run = null; // a nudge forward while confirming: not a clean skip
  }

  private finish(back: boolean): void {
    const run = this.run;
    this.run = null;
    if (!run || this.introSent) return;
    const duration = this.duration();
    if (!(duration >= 60)) return;
    const length = run.end - run.start;
    const ownSeek = run.via === 'seek';
    if (ownSeek && (length < SKIP_RULES.minRun || length > SKIP_RULES.maxRun)) return;
    if (run.start > Math.min(duration * SKIP_RULES.introShare, SKIP_RULES.introMaxStart)) return;
    if (!ownSeek && length <= 0) return;
    const steps = run.steps;
    const first = steps[0] as number;
    const stepped = ownSeek && steps.length >= 2 && steps.every((s) => Math.abs(s - first) <= 0.5);
    this.introSent = true;
    this.send({
      kind: 'intro',
      start: round(run.start),
      before: round(run.before),
      end: round(run.end),
      duration: round(duration),
      stepped,
      via: run.via,
      back,
    });
  }

  /** The viewer went to the next episode by their own act (not the up-next card) at `t`. */
  leave(t: number): void {
    const duration = this.duration();
    if (this.creditsSent || !(duration >= 60)) return;
    if (t < duration - Math.min(duration * SKIP_RULES.creditsShare, SKIP_RULES.creditsMaxSpan) || t > duration) return;
    this.creditsSent = true;
    this.send({ kind: 'credits', start: round(t), end: round(t), duration: round(duration), stepped: false, via: 'seek', back: false });
  }
}

const round = (x: number) => Math.round(x * 10) / 10;
