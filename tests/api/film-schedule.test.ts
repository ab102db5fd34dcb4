// The film page's predicted schedule (issue 40 §5): GET /api/product/{slug} carries `schedule`, read in the film's
// own batch from the times the one film writer first saw each new episode (docs/decisions/1110).
import { describe, expect, it } from 'vitest';
import type { FilmInput } from '../../worker/services/films/film-writer';
import type { FilmDetailResponse } from '../../worker/schemas/catalogue';
import { filmScheduleText, type SeriesStatusResponse, waitingText } from '../../worker/schemas/schedule';
import { createTestApp } from '../helpers/app';
import { at, HOUR, seriesReleasedAt } from '../helpers/releases';

async function detail(now: number, title: string, releases: number[], status?: FilmInput['status']) {
  const t = await createTestApp({ now: () => now });
  const slug = await seriesReleasedAt(t.deps.db, title, releases, status);
  const res = await t.request(`/api/product/${slug}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as FilmDetailResponse).datafilm;
}

// Wednesdays and Thursdays around 20:00.
const twiceWeekly = [at(2, 20, 5), at(3, 19, 58), at(9, 20, 10), at(10, 20, 2), at(16, 19, 55), at(17, 20, 0)];

describe('GET /api/product/{slug}: schedule', () => {
  it('an ongoing series: its weekdays, hour and next slot, in the JSON shape the page reads', async () => {
    const film = await detail(at(18, 12), 'Hạ Cánh Nơi Anh', twiceWeekly);
    expect(film.schedule).toEqual({
      weekdays: [3, 4],
      minuteOfDay: 20 * 60,
      next: at(23, 20),
      lateAt: at(23, 20) + 7 * HOUR,
    });
    expect(filmScheduleText(film.schedule!)).toBe('Tập mới: Thứ 4, Thứ 5 · khoảng 20:00 (dự kiến)');
    expect(waitingText(9, film.schedule, at(18, 12))).toBe('Chờ tập 9 · dự kiến Thứ 4 · khoảng 20:00');
    expect(waitingText(9, film.schedule, at(24, 4))).toBe('Chờ tập 9 · Trễ lịch (dự kiến Thứ 4 · khoảng 20:00)');
  });

  it('none from fewer than 3 releases ("Chờ tập N" alone), for a completed film, or a week past a missed slot', async () => {
    const two = await detail(at(18, 12), 'Mới Hai Tập', twiceWeekly.slice(0, 2));
    expect(two.schedule).toBeNull();
    expect(waitingText(5, two.schedule, at(18, 12))).toBe('Chờ tập 5');
    expect((await detail(at(18, 12), 'Đã Xong Rồi', twiceWeekly, 'completed')).schedule).toBeNull();
    expect((await detail(at(31, 12), 'Ngừng Chiếu', twiceWeekly)).schedule).toBeNull();
  });

  it('"Xem tiếp" reads the same prediction from GET /api/series', async () => {
    const t = await createTestApp({ now: () => at(18, 12) });
    const slug = await seriesReleasedAt(t.deps.db, 'Hạ Cánh Nơi Anh', twiceWeekly);
    const film = ((await (await t.request(`/api/product/${slug}`)).json()) as FilmDetailResponse).datafilm;
    const status = (await (await t.request(`/api/series?slugs=${slug}`)).json()) as SeriesStatusResponse;
    expect(status.data[0]!.schedule).toEqual(film.schedule);
    expect(status.data[0]!.schedule).not.toBeNull();
  });
});
