// How a segment is learned from what devices reported (issue 40 §7, docs/decisions/1100-intros-learned-from-skips.md).
// Pure: the service feeds it an episode's reports; tests/unit/segment-learning.test.ts runs seeded viewers through it.
//
// A viewer who skips an intro lands at or a little after its end (a scrub overshoots by a few seconds, 10 s double
// taps by up to 10): the intro's end is the low edge of where viewers land, and it is placed a little before it, so
// the player keeps a moment of theme song rather than losing a line.

/** One device's report, as the learner reads it. */
export interface LearnReport {
  start: number;
  /** Where the run's last seek left from (the latest moment seen and still skipped); absent = start. */
  before?: number;
  end: number;
  via: 'seek' | 'button' | 'auto';
  back: boolean;
  /**
   * The run was equal steps (double taps, L presses): it lands anywhere in the step past the end, so it counts
   * toward the spread rule only.
   */
  stepped?: boolean;
}

export interface Learned {
  start: number;
  end: number;
  devices: number;
}

export const LEARN = {
  /** Devices whose landings lie within `tightWindow` s publish a segment. */
  tightDevices: 5,
  tightWindow: 5,
  /** Or this many landings within `spreadWindow` s (double taps spread landings over 10 s). */
  spreadDevices: 20,
  spreadWindow: 15,
  /** With a series' intro length agreed by `seriesEpisodes` episodes (within `seriesTolerance` s), this many devices. */
  seriesDevices: 2,
  seriesEpisodes: 3,
  seriesTolerance: 2,
  /** The end is the cluster's k-th lowest landing (k = max(2, ⌈share·n⌉): a stray below is ignored) minus this. */
  endMargin: 2,
  edgeShare: 0.1,
  /** With two devices (a series' length known), the lowest landing minus this. */
  fewMargin: 1,
  /** A start this close to 0 is 0 (the episode opens with the intro). */
  snapStart: 5,
  /** Hidden when more than this share of at least `voteMin` skips sought back right after. */
  againstShare: 0.3,
  voteMin: 10,
  /** Credits: where viewers leave for the next episode spreads over the credits: a wider window. */
  creditsWindow: 30,
} as const;

/** The densest run of sorted values within `width` s: the earliest of the largest. */
export function densest(sorted: readonly number[], width: number): { from: number; to: number } {
  let best = { from: 0, to: 0 };
  let j = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (j < i) j = i;
    while (j + 1 < sorted.length && (sorted[j + 1] as number) - (sorted[i] as number) <= width) j++;
    if (j - i + 1 > best.to - best.from) best = { from: i, to: j + 1 };
  }
  return best;
}

const median = (values: readonly number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

const round1 = (x: number) => Math.round(x * 10) / 10;

const edgeRank = (n: number) => Math.min(n, Math.max(2, Math.ceil(LEARN.edgeShare * n)));

/** The low edge of a cluster of sorted landings: its k-th lowest minus the margin. */
function lowEdge(cluster: readonly number[]): number {
  return (cluster[edgeRank(cluster.length) - 1] as number) - LEARN.endMargin;
}

/**
 * The end from a cluster with stepped runs: each says the end lies after where its last step left from (`before`)
 * and at or before where it landed. Of the interval the members agree on (the k-th highest `before`, the k-th lowest
 * landing: a stray is ignored), the end is placed a little after its low side, never past the landing edge.
 */
function steppedEdge(members: readonly LearnReport[]): number {
  const landings = members.map((r) => r.end).sort((a, b) => a - b);
  const befores = members.map((r) => r.before ?? r.start).sort((a, b) => b - a);
  const k = edgeRank(members.length);
  const high = (landings[k - 1] as number) - LEARN.endMargin;
  const low = befores[k - 1] as number;
  return Math.min(high, Math.max(low + LEARN.endMargin, high - 10));
}

/**
 * The series' intro length, when at least three other episodes' intros agree on it (within 2 s of their median),
 * else null.
 */
export function seriesLength(others: readonly { start: number; end: number }[]): number | null {
  if (others.length < LEARN.seriesEpisodes) return null;
  const lengths = others.map((s) => s.end - s.start);
  const m = median(lengths);
  const agree = lengths.filter((l) => Math.abs(l - m) <= LEARN.seriesTolerance);
  return agree.length >= LEARN.seriesEpisodes ? round1(median(agree)) : null;
}

/** The intro learned from an episode's reports (only the viewers' own seeks place it), or null when too few agree. */
export function learnIntro(reports: readonly LearnReport[], knownLength: number | null = null): Learned | null {
  const runs = reports.filter((r) => r.via === 'seek' && !r.back).sort((a, b) => a.end - b.end);
  const landings = runs.map((r) => r.end);
  const pick = (among: readonly LearnReport[], from: number, to: number, end: number): Learned => {
    const members = among.slice(from, to);
    let start = median(members.map((r) => r.start));
    if (knownLength !== null && to - from < LEARN.tightDevices) start = end - knownLength;
    start = start <= LEARN.snapStart ? 0 : start;
    return { start: round1(Math.max(0, Math.min(start, end - 1))), end: round1(end), devices: to - from };
  };
  // Scrubs (one drag, or seeks of any sizes) land just past the end: five within 5 s place it. Stepped runs spread.
  const scrubs = runs.filter((r) => !r.stepped);
  const scrubLandings = scrubs.map((r) => r.end);
  const tight = densest(scrubLandings, LEARN.tightWindow);
  const tightCount = tight.to - tight.from;
  if (tightCount >= LEARN.tightDevices) {
    const lo = scrubLandings[tight.from] as number;
    const hi = scrubLandings[tight.to - 1] as number;
    const from = landings.findIndex((x) => x >= lo);
    const to = landings.findLastIndex((x) => x <= hi) + 1;
    return pick(runs, from, to, lowEdge(landings.slice(from, to)));
  }
  const spread = densest(landings, LEARN.spreadWindow);
  if (spread.to - spread.from >= LEARN.spreadDevices)
    return pick(runs, spread.from, spread.to, steppedEdge(runs.slice(spread.from, spread.to)));
  if (knownLength !== null) {
    const few = densest(landings, LEARN.tightWindow);
    if (few.to - few.from >= LEARN.seriesDevices) return pick(runs, few.from, few.to, (landings[few.from] as number) - LEARN.fewMargin);
  }
  return null;
}

/** The credits' start learned from where devices left for the next episode, or null. */
export function learnCredits(reports: readonly LearnReport[]): { start: number; devices: number } | null {
  const leaves = reports.map((r) => r.end).sort((a, b) => a - b);
  const tight = densest(leaves, LEARN.tightWindow);
  const wide = densest(leaves, LEARN.creditsWindow);
  const cluster = tight.to - tight.from >= LEARN.tightDevices ? tight : wide.to - wide.from >= LEARN.spreadDevices ? wide : null;
  if (!cluster) return null;
  const members = leaves.slice(cluster.from, cluster.to);
  return { start: round1(Math.max(0, lowEdge(members))), devices: members.length };
}

/** Too many viewers sought back right after skipping: the segment is hidden. */
export function votedDown(reports: readonly LearnReport[]): boolean {
  const against = reports.filter((r) => r.back).length;
  return reports.length >= LEARN.voteMin && against / reports.length > LEARN.againstShare;
}
