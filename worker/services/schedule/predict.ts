// "Lịch chiếu dự kiến": when an ongoing series' next episode should come, inferred from the times its episodes were
// first seen by the crawler (episode_releases.created_at), in Asia/Ho_Chi_Minh (UTC+7 all year: Vietnam has no
// daylight saving). Pure: the catalogue reads the release times and asks this; docs/decisions/1080-predicted-schedule.md.

const VN_OFFSET_MS = 7 * 3600_000;
const DAY_MS = 86_400_000;
const MINUTES_PER_DAY = 1440;

/** No prediction from fewer releases than this (two points make no pattern). */
export const MIN_RELEASES = 3;
/** Weeks looked back from the newest release: a weekday counts when seen in at least WEEKDAY_MIN_WEEKS of them. */
export const LOOKBACK_WEEKS = 4;
export const WEEKDAY_MIN_WEEKS = 2;
/** The hour is the median of the newest this many releases (a changed slot wins within a few weeks). */
export const HOUR_SAMPLE = 6;
/** An episode is expected within this many minutes after the predicted time; "Trễ lịch" comes LATE_AFTER_MS later. */
export const WINDOW_MINUTES = 60;
export const LATE_AFTER_MS = 6 * 3600_000;

export interface SchedulePrediction {
  /** ISO weekdays in Vietnam: 1 = Thứ 2 … 7 = Chủ nhật, ascending. */
  weekdays: number[];
  /** Minutes after local midnight, rounded to 5. */
  minuteOfDay: number;
  /** The next expected release (epoch ms), after the newest one. */
  next: number;
  /** How many releases it was inferred from. */
  basedOn: number;
}

/** Local (Vietnam) minute of the day of an instant. */
function localMinute(at: number): number {
  return Math.floor(((((at + VN_OFFSET_MS) % DAY_MS) + DAY_MS) % DAY_MS) / 60_000);
}

/** Local day number (days since 1970-01-01 in Vietnam) of an instant. */
function localDay(at: number): number {
  return Math.floor((at + VN_OFFSET_MS) / DAY_MS);
}

/** ISO weekday (1 = Monday … 7 = Sunday) of a local day number (1970-01-01 was a Thursday). */
function isoWeekday(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

/** Signed difference a − b on the clock face, in (−720, 720]. */
function clockDelta(a: number, b: number): number {
  const d = (((a - b) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  return d > MINUTES_PER_DAY / 2 ? d - MINUTES_PER_DAY : d;
}

/** The circular mean of minutes of the day: the centre that releases around midnight (23:50, 00:10) share. */
function circularCentre(minutes: number[]): number {
  let x = 0;
  let y = 0;
  for (const m of minutes) {
    const angle = (2 * Math.PI * m) / MINUTES_PER_DAY;
    x += Math.cos(angle);
    y += Math.sin(angle);
  }
  const angle = Math.atan2(y, x);
  return ((((angle * MINUTES_PER_DAY) / (2 * Math.PI)) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Infers the series' weekdays and hour from the instants its episodes first appeared (any order, duplicates of one
 * drop allowed). Null below MIN_RELEASES or when no weekday recurs.
 *
 * - Hour: the median of the newest HOUR_SAMPLE releases' local times, taken around their circular mean, so a slot
 *   at midnight does not average to noon.
 * - Weekday of a release: the local day of its slot, not of the instant: 00:20 for a 23:50 slot belongs to the day
 *   before. Several episodes on one day count once.
 * - Weekdays: those seen in at least WEEKDAY_MIN_WEEKS of the LOOKBACK_WEEKS weeks before the newest release; a late
 *   or extra release on another day is seen once and so ignored.
 */
export function predictSchedule(releases: readonly number[]): SchedulePrediction | null {
  const times = [...releases].sort((a, b) => a - b);
  if (times.length < MIN_RELEASES) return null;
  const recent = times.slice(-HOUR_SAMPLE).map(localMinute);
  const centre = circularCentre(recent);
  const minuteOfDay =
    (Math.round(
      ((((centre + median(recent.map((m) => clockDelta(m, centre)))) % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY) / 5,
    ) *
      5) %
    MINUTES_PER_DAY;

  /** The local day whose slot an instant belongs to. */
  const slotDay = (at: number) => localDay(at - clockDelta(localMinute(at), minuteOfDay) * 60_000);
  const newest = times.at(-1)!;
  const newestDay = slotDay(newest);
  const weeksSeen = new Map<number, Set<number>>();
  for (const at of times) {
    const day = slotDay(at);
    const weeksAgo = Math.floor((newestDay - day) / 7);
    if (weeksAgo >= LOOKBACK_WEEKS) continue;
    const weekday = isoWeekday(day);
    const seen = weeksSeen.get(weekday) ?? new Set<number>();
    seen.add(weeksAgo);
    weeksSeen.set(weekday, seen);
  }
  const weekdays = [...weeksSeen]
    .filter(([, weeks]) => weeks.size >= WEEKDAY_MIN_WEEKS)
    .map(([weekday]) => weekday)
    .sort((a, b) => a - b);
  if (weekdays.length === 0) return null;

  let nextDay = newestDay + 1;
  while (!weekdays.includes(isoWeekday(nextDay))) nextDay++;
  const next = nextDay * DAY_MS - VN_OFFSET_MS + minuteOfDay * 60_000;
  return { weekdays, minuteOfDay, next, basedOn: times.length };
}

/** The expected release after `after` (an instant), on the predicted weekdays and hour. */
export function nextExpected(prediction: SchedulePrediction, after: number): number {
  let day = localDay(after);
  for (let i = 0; i < 8; i++, day++) {
    const at = day * DAY_MS - VN_OFFSET_MS + prediction.minuteOfDay * 60_000;
    if (at > after && prediction.weekdays.includes(isoWeekday(day))) return at;
  }
  return prediction.next;
}

/** The instant after which the expected episode is "Trễ lịch": LATE_AFTER_MS after its window closed. */
export function lateFrom(prediction: SchedulePrediction): number {
  return prediction.next + WINDOW_MINUTES * 60_000 + LATE_AFTER_MS;
}

/** "Trễ lịch": the expected episode has not come LATE_AFTER_MS after its window closed. */
export function isLate(prediction: SchedulePrediction, now: number): boolean {
  return now > lateFrom(prediction);
}
