// Issue 40 §7's texts and thresholds the player shares with the API, without zod (the player's chunk imports them).

export type SegmentKind = 'intro' | 'credits';

/** A published segment as the player reads it (seconds on the ad-filtered timeline). */
export interface PublicSegment {
  start: number;
  end: number;
}

/** GET /api/segments/{slug}/tap-{n}?server=: the episode's intro and credits start on that server, when known. */
export interface EpisodeSegments {
  data: { intro: PublicSegment | null; credits: { start: number } | null };
}

export const SKIP_INTRO_LABEL = 'Bỏ qua giới thiệu';
export const AUTO_SKIP_LABEL = 'Tự động bỏ qua';
export const AUTO_SKIPPED_TEXT = 'Đã bỏ qua giới thiệu';
export const REWATCH_INTRO_LABEL = 'Xem lại';
export const UP_NEXT_LABEL = 'Xem tập tiếp';

/** The reporting rules the player applies (web/src/features/player/skip-runs.ts) and the API checks. */
export const SKIP_RULES = {
  /** A forward seek shorter than this is no skip (a timeupdate step, a nudge). */
  minSeek: 2,
  /** Forward seeks separated by less than this much playback are one run (double taps, a scrub). */
  mergeGap: 2,
  /** A run's length, landing minus start. */
  minRun: 15,
  maxRun: 180,
  /** A run must start in the episode's first share, and within this many seconds. */
  introShare: 0.25,
  introMaxStart: 600,
  /** The playback after the landing that makes a run a skip (and within which a seek back counts against it). */
  confirm: 8,
  /** A seek back at least this long within `confirm` s of a skip is a vote against. */
  backSeek: 5,
  /** "Left for the next episode" counts in the episode's last share only. */
  creditsShare: 0.1,
  creditsMaxSpan: 300,
} as const;

/** The button shows from the intro's start until this many seconds before its end. */
export const SKIP_BUTTON_LEAD = 3;
