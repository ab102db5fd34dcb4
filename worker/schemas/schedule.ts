// The predicted schedule's wire shape and its Vietnamese texts, shared by the API and the web. No zod here: the web's
// film page imports these texts, and a schema built at import would cost its start (schedule-query.ts has the API's).
import type { FilmCard } from './catalogue';

/** ISO weekday (1 = Monday … 7 = Sunday) as Vietnamese calendars name it. */
export function weekdayName(weekday: number): string {
  return weekday === 7 ? 'Chủ nhật' : `Thứ ${weekday + 1}`;
}

/** "20:00" from minutes after midnight. */
export function clockText(minuteOfDay: number): string {
  const h = Math.floor(minuteOfDay / 60);
  const m = minuteOfDay % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/** "Thứ 4, Thứ 5 · khoảng 20:00" (every day: "Hằng ngày · khoảng 20:00"). */
export function scheduleText(weekdays: readonly number[], minuteOfDay: number): string {
  const days = weekdays.length === 7 ? 'Hằng ngày' : weekdays.map(weekdayName).join(', ');
  return `${days} · khoảng ${clockText(minuteOfDay)}`;
}

/**
 * A series' predicted slot on its film page ("Tập mới: Thứ 4, Thứ 5 · khoảng 20:00 (dự kiến)"): its weekdays and hour
 * in Vietnam and the next expected release after its newest one. Never from fewer than 3 releases.
 */
export interface FilmSchedule {
  /** ISO weekdays, 1 = Thứ 2 … 7 = Chủ nhật, ascending. */
  weekdays: number[];
  /** Minutes after midnight in Vietnam. */
  minuteOfDay: number;
  /** The next expected release (epoch ms) after the newest one; may be past when the episode is late. */
  next: number;
  /** From this instant the expected episode is "Trễ lịch" (services/schedule/predict.ts, isLate). */
  lateAt: number;
}

/** "Tập mới: Thứ 4, Thứ 5 · khoảng 20:00 (dự kiến)". */
export function filmScheduleText(schedule: FilmSchedule): string {
  return `Tập mới: ${scheduleText(schedule.weekdays, schedule.minuteOfDay)} (dự kiến)`;
}

/** ISO weekday (1 = Thứ 2 … 7 = Chủ nhật) of an instant in Vietnam. */
export function vietnamWeekday(at: number): number {
  const day = Math.floor((at + 7 * 3600_000) / 86_400_000);
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

/**
 * What waits for the next episode says ("Chờ tập 6 · dự kiến Thứ 4 · khoảng 20:00"): the expected slot's weekday and
 * hour; "Trễ lịch" once it is late; just "Chờ tập 6" with no prediction.
 */
export function waitingText(episode: number, schedule: FilmSchedule | null, now: number): string {
  if (!schedule) return `Chờ tập ${episode}`;
  const slot = `${weekdayName(vietnamWeekday(schedule.next))} · khoảng ${vietnamClock(schedule.next)}`;
  if (now > schedule.lateAt) return `Chờ tập ${episode} · Trễ lịch (dự kiến ${slot})`;
  return `Chờ tập ${episode} · dự kiến ${slot}`;
}

/** One film on one day of "Lịch chiếu": an episode expected, arrived, or late. */
export interface ScheduleEntry {
  film: FilmCard;
  episode: number;
  /** expected: its predicted time; arrived: when it was first seen; late: the time it was expected. */
  at: number;
  state: 'expected' | 'arrived' | 'late';
}

/** One tab of "Lịch chiếu": a day in Vietnam, today first. */
export interface ScheduleDay {
  /** ISO weekday, 1 = Thứ 2 … 7 = Chủ nhật. */
  weekday: number;
  /** The local date, YYYY-MM-DD. */
  date: string;
  entries: ScheduleEntry[];
}

export interface ScheduleWeek {
  days: ScheduleDay[];
}

/** "Tập 7 · khoảng 20:00", "Đã có tập 7 · 20:14", "Trễ lịch · Tập 7 (dự kiến 20:00)" (times in Vietnam). */
export function scheduleEntryText(entry: Pick<ScheduleEntry, 'episode' | 'state'>, clock: string): string {
  if (entry.state === 'arrived') return `Đã có tập ${entry.episode} · ${clock}`;
  if (entry.state === 'late') return `Trễ lịch · Tập ${entry.episode} (dự kiến ${clock})`;
  return `Tập ${entry.episode} · khoảng ${clock}`;
}

/** "20:14": an instant's time of day in Vietnam (UTC+7 all year), whatever the viewer's own zone. */
export function vietnamClock(at: number): string {
  const minutes = Math.floor(((((at + 7 * 3600_000) % 86_400_000) + 86_400_000) % 86_400_000) / 60_000);
  return clockText(minutes);
}

/** "Xem tiếp" cards read this many films' series status at most (the row shows 10). */
export const SERIES_STATUS_MAX = 20;

/**
 * What a "Xem tiếp" card needs of its film: its episode numbers (any server), whether it goes on, when its newest
 * episode first appeared (null: every episode came with the film, before anyone watched it here) and when the next
 * should come.
 */
export interface SeriesStatus {
  slug: string;
  episodes: number[];
  ongoing: boolean;
  releasedAt: number | null;
  /** As the film page's (FilmDetail.schedule): null below 3 releases, for a finished film, or a week past a slot. */
  schedule: FilmSchedule | null;
}

export interface SeriesStatusResponse {
  data: SeriesStatus[];
}
