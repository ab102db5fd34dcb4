// "Phim tương tự" (issue 40 §4, docs/decisions/1090): related films scored from co-watch (plays), shared people,
// genres, country and year, each with its reason; the other seasons of a show are not here; the list is public.
import { beforeEach, describe, expect, it } from 'vitest';
import type { FilmDetailResponse } from '../../worker/schemas/catalogue';
import type { RelatedList } from '../../worker/schemas/related';
import { NO_IDENTITY } from '../../worker/services/films/film-identity';
import { type FilmInput, upsertFilms } from '../../worker/services/films/film-writer';
import { refreshRelated } from '../../worker/services/related/related';
import { createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
const NOW = Date.UTC(2026, 10, 27, 8, 0);
let clock = NOW;

const film = (slug: string, extra: Partial<FilmInput> = {}): FilmInput => ({
  title: slug.replace(/-/g, ' '),
  nameEnglish: `Original ${slug}`,
  slug,
  categoryId: 24,
  genreSlugs: ['hanh-dong'],
  countrySlugs: ['han-quoc'],
  year: 2020,
  sourceKey: `https://src.example:${slug}`,
  ...extra,
});
const device = (n: number) => `device-${String(n).padStart(12, '0')}`;
const play = (slug: string, n: number) => {
  const ip = `198.51.100.${n}`;
  return t.request('/api/product/play', {
    json: { slug, device: device(n), seconds: 130 },
    headers: { 'x-forwarded-for': ip, 'cf-connecting-ip': ip },
  });
};
const detail = async (slug: string) => (await (await t.request(`/api/product/${slug}`)).json()) as FilmDetailResponse;
const related = async (slug: string) => (await detail(slug)).recommended.map((f) => [f.slug, f.reason]);

const write = async (inputs: FilmInput[]) => {
  const { outcomes } = await upsertFilms(t.deps.db, inputs);
  expect(outcomes.map((o) => o.outcome)).toEqual(inputs.map(() => 'new'));
};

beforeEach(async () => {
  clock = NOW;
  t = await createTestApp({ now: () => clock, config: { PUBLIC_CACHE_SECONDS: 0 } });
});

describe('Phim tương tự', () => {
  it('ranks a shared actor or director above genre alone, and says which actor', async () => {
    await write([
      film('goc', { actors: 'Trấn Thành, Lý Hải', director: 'Victor Vũ' }),
      film('cung-dien-vien', { actors: 'Ngô Kiến Huy, Trấn Thành', genreSlugs: ['tinh-cam'], countrySlugs: ['nhat-ban'], year: 2010 }),
      film('cung-dao-dien', { director: 'Victor Vũ', genreSlugs: ['tinh-cam'], countrySlugs: ['nhat-ban'], year: 2010 }),
      film('cung-the-loai', { year: 2021 }),
      film('khong-lien-quan', { genreSlugs: ['tinh-cam'], countrySlugs: ['nhat-ban'], year: 1990 }),
    ]);
    expect(await refreshRelated(t.deps.db, clock)).toBe(5);
    const list = await related('goc');
    expect(list.slice(0, 2)).toEqual(
      expect.arrayContaining([
        ['cung-dien-vien', 'Cùng diễn viên Trấn Thành'],
        ['cung-dao-dien', 'Cùng đạo diễn'],
      ]),
    );
    expect(list[2]).toEqual(['cung-the-loai', 'Cùng thể loại Hành Động']);
    expect(list.map(([slug]) => slug)).not.toContain('khong-lien-quan');
    expect(list.map(([slug]) => slug)).not.toContain('goc');
  });

  it('10 members who watched A then B put B first for A, "Người xem cũng xem"', async () => {
    await write([
      film('phim-a', { actors: 'Trấn Thành' }),
      film('phim-b', { genreSlugs: ['tinh-cam'], countrySlugs: ['nhat-ban'], year: 2001 }),
      film('cung-dien-vien', { actors: 'Trấn Thành' }),
      ...Array.from({ length: 10 }, (_, i) => film(`cung-the-loai-${i}`)),
    ]);
    for (let n = 1; n <= 10; n++) {
      expect((await play('phim-a', n)).status).toBe(200);
      clock += 60_000;
      expect((await play('phim-b', n)).status).toBe(200);
    }
    // Two devices are not enough to say anything.
    for (let n = 11; n <= 12; n++) {
      await play('phim-a', n);
      await play('cung-the-loai-3', n);
    }
    await refreshRelated(t.deps.db, clock);
    const list = await related('phim-a');
    expect(list[0]).toEqual(['phim-b', 'Người xem cũng xem']);
    expect(list[1]).toEqual(['cung-dien-vien', 'Cùng diễn viên Trấn Thành']);
    expect(list.filter(([, reason]) => reason === 'Người xem cũng xem')).toHaveLength(1);
    expect(list).toHaveLength(8);
  });

  it('co-watch older than 90 days counts for nothing', async () => {
    await write([film('phim-a'), film('phim-b', { genreSlugs: ['tinh-cam'], countrySlugs: ['nhat-ban'], year: 1990 })]);
    for (let n = 1; n <= 10; n++) {
      await play('phim-a', n);
      await play('phim-b', n);
    }
    await refreshRelated(t.deps.db, clock + 91 * 86_400_000);
    expect(await related('phim-a')).toEqual([]);
  });

  it('leaves the other seasons of the same show to "Các phần"', async () => {
    const season = (n: number) => ({ ...NO_IDENTITY, tmdbType: 'tv' as const, tmdbId: '76479', tmdbSeason: n, kind: 'series' as const });
    await write([
      film('the-boys-phan-3', { actors: 'Karl Urban', identity: season(3) }),
      film('the-boys-phan-4', { actors: 'Karl Urban', identity: season(4) }),
      film('phim-khac', { actors: 'Karl Urban' }),
    ]);
    for (let n = 1; n <= 5; n++) {
      await play('the-boys-phan-3', n);
      await play('the-boys-phan-4', n);
    }
    await refreshRelated(t.deps.db, clock);
    const d = await detail('the-boys-phan-3');
    expect(d.datafilm.seasons.map((s) => s.slug)).toContain('the-boys-phan-4');
    expect(d.recommended.map((f) => [f.slug, f.reason])).toEqual([['phim-khac', 'Cùng diễn viên Karl Urban']]);
  });

  it('GET /api/related/{slug} is public and cached like the other public reads; an unknown film is a 404', async () => {
    const cached = await createTestApp({ now: () => clock, config: { PUBLIC_CACHE_SECONDS: 30 } });
    await upsertFilms(cached.deps.db, [film('goc', { actors: 'Trấn Thành' }), film('ban', { actors: 'Trấn Thành' })]);
    await refreshRelated(cached.deps.db, clock);
    const res = await cached.request('/api/related/goc');
    expect(res.status).toBe(200);
    const home = await cached.request('/api/product/product-home');
    expect(res.headers.get('cache-control')).toBe(home.headers.get('cache-control'));
    expect(res.headers.get('cache-control')).toMatch(/public/);
    const body = (await res.json()) as RelatedList;
    expect(body.film).toEqual({ slug: 'goc', title: 'goc' });
    expect(body.data.map((f) => [f.slug, f.reason])).toEqual([['ban', 'Cùng diễn viên Trấn Thành']]);
    expect((await cached.request('/api/related/goc')).headers.get('x-cache')).toBe('hit');
    expect((await cached.request('/api/related/khong-co')).status).toBe(404);
  });

  it('refreshes never-computed films first, then lists older than six hours', async () => {
    await write([film('mot'), film('hai')]);
    expect(await refreshRelated(t.deps.db, clock)).toBe(2);
    expect(await refreshRelated(t.deps.db, clock + 3_600_000)).toBe(0);
    await write([film('ba')]);
    expect(await refreshRelated(t.deps.db, clock + 3_600_000, { limit: 1 })).toBe(1);
    // The new film's neighbours are due again: the next tick puts it in their lists.
    expect((await related('mot')).map(([s]) => s)).toEqual(['hai']);
    expect(await refreshRelated(t.deps.db, clock + 3_600_000)).toBe(2);
    expect((await related('mot')).map(([s]) => s).sort()).toEqual(['ba', 'hai']);
    expect(await refreshRelated(t.deps.db, clock + 2 * 3_600_000)).toBe(0);
    expect(await refreshRelated(t.deps.db, clock + 8 * 3_600_000)).toBe(3);
  });
});
