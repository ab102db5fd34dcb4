// The predicted schedule's wire shape and its Vietnamese texts, shared by the API and the web.
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
