// "Xem tiếp" knows the next episode and what is new (issue 40 §6): GET /api/series?slugs= gives each film's episode
// numbers, whether it goes on and when its newest episode first appeared, in one public, cacheable read.
import { describe, expect, it } from 'vitest';
import { upsertFilm, type FilmInput } from '../../worker/services/films/film-writer';
import type { SeriesStatusResponse } from '../../worker/schemas/schedule';
import { createTestApp } from '../helpers/app';

const series = (title: string, episodes: number[], status: FilmInput['status'] = 'ongoing'): FilmInput => ({
  title,
  sourceKey: `https://nguon.example:${title}`,
  categoryId: 24,
  status,
  statusText: `Tập ${episodes.length}`,
  year: 2026,
  genreSlugs: ['tam-ly'],
  countrySlugs: ['han-quoc'],
  episodes: episodes.flatMap((episode) =>
    ['Vietsub #1', 'Thuyết Minh'].map((serverName) => ({
      serverName,
      episode,
      name: `Tập ${episode}`,
      m3u8Url: `https://cdn.example.com/${title.length}/${serverName.length}/${episode}/index.m3u8`,
      embedUrl: '',
    })),
  ),
});

describe('GET /api/series', () => {
  it('each film: its episode numbers once (any server), ongoing, and when its newest episode first appeared', async () => {
    const t = await createTestApp({ now: () => 5_000_000 });
    const db = t.deps.db;
    const a = await upsertFilm(db, series('Hạ Cánh Nơi Anh', [1, 2, 3]), { now: () => 1_000_000 });
    await upsertFilm(db, series('Hạ Cánh Nơi Anh', [1, 2, 3, 4, 5]), { now: () => 2_000_000 });
    const b = await upsertFilm(db, series('Đã Xong Rồi', [1, 2], 'completed'), { now: () => 1_500_000 });
    const res = await t.request(`/api/series?slugs=${b.slug},${a.slug},khong-co-phim-nay`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('public');
    const body = (await res.json()) as SeriesStatusResponse;
    expect(body.data.sort((x, y) => x.slug.localeCompare(y.slug))).toEqual(
      [
        { slug: a.slug, episodes: [1, 2, 3, 4, 5], ongoing: true, releasedAt: 2_000_000, schedule: null },
        // Its episodes came with the film: no release after anyone could watch it.
        { slug: b.slug, episodes: [1, 2], ongoing: false, releasedAt: null, schedule: null },
      ].sort((x, y) => x.slug.localeCompare(y.slug)),
    );
  });

  it('names the field when the slugs are missing or too many', async () => {
    const t = await createTestApp();
    for (const query of ['', '?slugs=', `?slugs=${Array.from({ length: 21 }, (_, i) => `phim-${i}`).join(',')}`]) {
      const res = await t.request(`/api/series${query}`);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain('slugs');
    }
  });
});
