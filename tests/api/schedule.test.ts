// "Lịch chiếu" (issue 40 §5): GET /api/lich-chieu from the times the one film writer first saw each new episode.
import { describe, expect, it } from 'vitest';
import type { upsertFilm } from '../../worker/services/films/film-writer';
import type { ScheduleWeek } from '../../worker/schemas/schedule';
import { scheduleEntryText, vietnamClock } from '../../worker/schemas/schedule';
import { createTestApp } from '../helpers/app';
import { at, seriesReleasedAt } from '../helpers/releases';

async function week(now: number, setUp: (db: Parameters<typeof upsertFilm>[0]) => Promise<unknown>): Promise<ScheduleWeek> {
  const t = await createTestApp({ now: () => now });
  await setUp(t.deps.db);
  const res = await t.request('/api/lich-chieu');
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toContain('public');
  return (await res.json()) as ScheduleWeek;
}

const texts = (w: ScheduleWeek) => w.days.map((d) => d.entries.map((e) => `${e.film.title}: ${scheduleEntryText(e, vietnamClock(e.at))}`));

// Four Wednesdays around 20:00 (episodes 3 to 6).
const wednesdays = [at(2, 20, 5), at(9, 19, 58), at(16, 20, 10), at(23, 20, 2)];

describe('GET /api/lich-chieu', () => {
  it('seven days from today; an ongoing series on its predicted weekday and hour with its next episode', async () => {
    const w = await week(at(26, 10), async (db) => {
      await seriesReleasedAt(db, 'Hạ Cánh Nơi Anh', wednesdays);
      // Completed, or too few releases: not on the calendar.
      await seriesReleasedAt(db, 'Đã Xong Rồi', wednesdays, 'completed');
      await seriesReleasedAt(db, 'Mới Hai Tập', wednesdays.slice(0, 2));
    });
    expect(w.days.map((d) => d.weekday)).toEqual([6, 7, 1, 2, 3, 4, 5]);
    expect(w.days[0]!.date).toBe('2026-11-28');
    expect(texts(w)).toEqual([[], [], [], [], ['Hạ Cánh Nơi Anh: Tập 7 · khoảng 20:05'], [], []]);
  });

  it('"Đã có tập 7" on the day it came, at the time it was first seen', async () => {
    const w = await week(at(30, 21), (db) => seriesReleasedAt(db, 'Hạ Cánh Nơi Anh', [...wednesdays, at(30, 20, 14)]));
    expect(texts(w)[0]).toEqual(['Hạ Cánh Nơi Anh: Đã có tập 7 · 20:14']);
    expect(texts(w).slice(1).flat()).toEqual([]);
  });

  it('"Trễ lịch" once six hours past the window, and the slot after it numbered on', async () => {
    const due = await week(at(31, 2), (db) => seriesReleasedAt(db, 'Hạ Cánh Nơi Anh', wednesdays));
    expect(texts(due)[0]).toEqual(['Hạ Cánh Nơi Anh: Tập 7 · khoảng 20:05']);
    const late = await week(at(31, 3, 30), (db) => seriesReleasedAt(db, 'Hạ Cánh Nơi Anh', wednesdays));
    expect(texts(late)[0]).toEqual(['Hạ Cánh Nơi Anh: Trễ lịch · Tập 7 (dự kiến 20:05)']);
    expect(texts(late)[6]).toEqual(['Hạ Cánh Nơi Anh: Tập 8 · khoảng 20:05']);
  });

  it('a series silent for more than a week after its slot leaves the calendar', async () => {
    const w = await week(at(40, 12), (db) => seriesReleasedAt(db, 'Hạ Cánh Nơi Anh', wednesdays));
    expect(texts(w).flat()).toEqual([]);
  });
});
