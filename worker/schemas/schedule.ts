// The predicted schedule's wire shape and its Vietnamese texts, shared by the API and the web.

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
