// The film page's predicted schedule (issue 40 §5, docs/decisions/1110): read in the film record's own batch (its
// newest release times, one indexed statement beside the others), predicted once per record, and checked against
// the clock per request so a series that stopped leaves the page as it leaves "Lịch chiếu".
import type { FilmSchedule } from '../../schemas/schedule';
import { PAUSE_AFTER_MS } from './calendar';
import { HOUR_SAMPLE, LOOKBACK_WEEKS, lateFrom, type SchedulePrediction } from './predict';

/**
 * The newest releases the record reads: enough for the prediction's 4 weeks of a daily series with two episodes a
 * day and its newest 6 for the hour.
 */
export const RELEASES_READ = Math.max(LOOKBACK_WEEKS * 7 * 2, HOUR_SAMPLE);

/** What the film page carries: null with no prediction, or a week after a missed slot (a pause, as on "Lịch chiếu"). */
export function filmScheduleOf(prediction: SchedulePrediction | null, now: number): FilmSchedule | null {
  if (!prediction || now - prediction.next > PAUSE_AFTER_MS) return null;
  return { weekdays: prediction.weekdays, minuteOfDay: prediction.minuteOfDay, next: prediction.next, lateAt: lateFrom(prediction) };
}
