// "Lịch chiếu dự kiến" (issue 40 §5): the prediction from first-seen release times, on 200 seeded synthetic
// histories (weekly once, weekly twice, daily; ±45 min jitter; 10 % of releases late by hours).
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../demo/catalogue';
import { isLate, MIN_RELEASES, nextExpected, predictSchedule } from '../../worker/services/schedule/predict';
import { scheduleText } from '../../worker/schemas/schedule';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const VN = 7 * HOUR;
/** Monday 2026-01-05 00:00 in Vietnam. */
const MONDAY = Date.UTC(2026, 0, 5) - VN;

/** An instant on the local (Vietnam) day `day` after MONDAY at `minute` past midnight. */
const at = (day: number, minute: number) => MONDAY + day * DAY + minute * 60_000;
const weekdayOf = (instant: number) => {
  const day = Math.floor((instant + VN) / DAY);
  return ((((day + 3) % 7) + 7) % 7) + 1;
};

describe('predictSchedule', () => {
  it('a weekly Wednesday and Thursday 20:00 series', () => {
    const releases = [0, 1, 2, 3].flatMap((week) => [at(week * 7 + 2, 20 * 60 + 3), at(week * 7 + 3, 19 * 60 + 58)]);
    const p = predictSchedule(releases)!;
    expect(p.weekdays).toEqual([3, 4]);
    expect(p.minuteOfDay).toBe(20 * 60);
    expect(scheduleText(p.weekdays, p.minuteOfDay)).toBe('Thứ 4, Thứ 5 · khoảng 20:00');
    // After Thursday of week 3, the next is Wednesday of week 4.
    expect(p.next).toBe(at(4 * 7 + 2, 20 * 60));
  });

  it('no prediction from fewer than 3 releases, nor from a burst on one day', () => {
    expect(MIN_RELEASES).toBe(3);
    expect(predictSchedule([at(0, 1200), at(7, 1200)])).toBeNull();
    expect(predictSchedule([at(0, 1200), at(0, 1201), at(0, 1202), at(1, 1200)])).toBeNull();
  });

  it('a slot at midnight keeps its day: 23:50 and 00:10 are one slot, not noon', () => {
    const releases = [0, 1, 2, 3].map((week) => at(week * 7 + 4, week % 2 ? 23 * 60 + 50 : 24 * 60 + 10));
    const p = predictSchedule(releases)!;
    // One weekday (Friday night: 23:55 Friday or 00:00 Saturday), and the next one a week after the last.
    expect(p.weekdays).toHaveLength(1);
    expect(Math.abs(p.next - at(4 * 7 + 4, 24 * 60))).toBeLessThanOrEqual(10 * 60_000);
    expect(scheduleText([1, 2, 3, 4, 5, 6, 7], 0)).toBe('Hằng ngày · khoảng 00:00');
  });

  it('"Trễ lịch" six hours after the window, and the next slot after any instant', () => {
    const releases = [0, 1, 2].map((week) => at(week * 7, 21 * 60));
    const p = predictSchedule(releases)!;
    expect(p.next).toBe(at(21, 21 * 60));
    expect(isLate(p, at(21, 21 * 60) + 6 * HOUR)).toBe(false);
    expect(isLate(p, at(21, 22 * 60) + 6 * HOUR + 1)).toBe(true);
    expect(nextExpected(p, at(21, 22 * 60))).toBe(at(28, 21 * 60));
  });

  it('on 200 synthetic histories: next weekday right ≥ 90 %, hour within ±60 min ≥ 85 %', () => {
    const random = seededRandom(40_5);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    let weekdayRight = 0;
    let hourRight = 0;
    let predicted = 0;
    const RUNS = 200;
    for (let run = 0; run < RUNS; run++) {
      const kind = pick(['weekly', 'twice', 'daily'] as const);
      const first = Math.floor(random() * 7);
      const second = (first + 1 + Math.floor(random() * 6)) % 7;
      const days = kind === 'daily' ? [0, 1, 2, 3, 4, 5, 6] : kind === 'twice' ? [first, second] : [first];
      // Any slot of the day, midnight's neighbours included, on the quarter hour.
      const base = Math.floor(random() * 96) * 15;
      const weeks = 3 + Math.floor(random() * 8);
      const scheduled: number[] = [];
      for (let week = 0; week <= weeks; week++) for (const d of days) scheduled.push(at(week * 7 + d, base));
      scheduled.sort((a, b) => a - b);
      // History: everything before a cut; the truth: the first scheduled release after it.
      const cut = Math.max(MIN_RELEASES, scheduled.length - 1 - Math.floor(random() * Math.min(3, days.length)));
      const truth = scheduled[cut]!;
      const seen = scheduled.slice(0, cut).map((s) => {
        const jitter = (random() * 2 - 1) * 45 * 60_000;
        const late = random() < 0.1 ? (2 + random() * 22) * HOUR : 0;
        return s + jitter + late;
      });
      const p = predictSchedule(seen);
      if (!p) continue;
      predicted++;
      if (weekdayOf(p.next) === weekdayOf(truth)) weekdayRight++;
      const delta = Math.abs(((p.minuteOfDay - base + 720 + 1440) % 1440) - 720);
      if (delta <= 60) hourRight++;
    }
    expect(predicted).toBeGreaterThanOrEqual(RUNS * 0.95);
    expect(weekdayRight / RUNS).toBeGreaterThanOrEqual(0.9);
    expect(hourRight / RUNS).toBeGreaterThanOrEqual(0.85);
  });
});
