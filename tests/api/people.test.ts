// People pages, people in search suggestions and the film page's extras (issue 40 §1–2).
import { beforeAll, describe, expect, it } from 'vitest';
import type { FilmDetailResponse, Paginated, FilmCard, SearchResults } from '../../worker/schemas/catalogue';
import type { PersonPageData } from '../../worker/schemas/discovery';
import { upsertFilm, upsertFilms } from '../../worker/services/films/film-writer';
import { createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
const getJson = async <T>(path: string, status = 200): Promise<T> => {
  const res = await t.request(path);
  const body = await res.json();
  expect(res.status, `${path} → ${JSON.stringify(body).slice(0, 300)}`).toBe(status);
  return body as T;
};

const film = (n: number, extra: Record<string, unknown> = {}) => ({
  title: `Phim số ${n}`,
  categoryId: 24 as const,
  year: 2000 + n,
  genreSlugs: ['hanh-dong'],
  countrySlugs: ['han-quoc'],
  sourceKey: `https://src.example:${n}`,
  ...extra,
});

beforeAll(async () => {
  t = await createTestApp();
  // Three films with Trấn Thành (one spelled without accents), one without; a batch as the crawler writes.
  await upsertFilms(t.deps.db, [
    film(1, { actors: 'Trấn Thành, Tuấn Trần', director: 'Trấn Thành' }),
    film(2, { actors: 'Tran Thanh, Đang cập nhật', director: 'Đang cập nhật' }),
    film(3, { actors: 'Trấn Thành', director: '' }),
    film(4, { actors: 'Ai Khác', director: 'N/A' }),
    // A title that would fold to "tran thanh ..." too: the person comes first in suggestions all the same.
    film(5, { title: 'Trận Thanh Long', actors: '' }),
  ]);
  // Thirty films with one actor: two pages of 25.
  await upsertFilms(
    t.deps.db,
    Array.from({ length: 30 }, (_, i) => film(100 + i, { title: `Phim dài ${i}`, year: 1990 + i, actors: 'Diễn Viên Chăm' })),
  );
});

describe('people from films', () => {
  it("a person's page lists exactly the films naming them, newest first, with their count", async () => {
    const page = await getJson<PersonPageData>('/api/people/actor/tran-thanh');
    expect(page.person).toEqual({ slug: 'tran-thanh', name: 'Trấn Thành', role: 'actor' });
    expect(page.pagination.totalItems).toBe(3);
    expect(page.data.map((f) => f.title)).toEqual(['Phim số 3', 'Phim số 2', 'Phim số 1']);
    const directed = await getJson<PersonPageData>('/api/people/director/tran-thanh');
    expect(directed.data.map((f) => f.title)).toEqual(['Phim số 1']);
  });

  it('pages 25 films at a time', async () => {
    const first = await getJson<PersonPageData>('/api/people/actor/dien-vien-cham');
    expect(first.data).toHaveLength(25);
    expect(first.pagination).toEqual({ page: 1, pageSize: 25, totalItems: 30, totalPages: 2 });
    expect(first.data[0]?.title).toBe('Phim dài 29');
    const second = await getJson<PersonPageData>('/api/people/actor/dien-vien-cham?page=2');
    expect(second.data.map((f) => f.title)).toEqual(['Phim dài 4', 'Phim dài 3', 'Phim dài 2', 'Phim dài 1', 'Phim dài 0']);
  });

  it('placeholders create no one; an unknown person or a role they never had is a 404', async () => {
    for (const slug of ['dang-cap-nhat', 'n-a', 'khong-co-ai']) await getJson(`/api/people/actor/${slug}`, 404);
    await getJson('/api/people/director/dang-cap-nhat', 404);
    await getJson('/api/people/director/tuan-tran', 404);
    await getJson('/api/people/writer/tuan-tran', 400);
  });

  it('an admin edit of the cast moves the film between people pages', async () => {
    const { db } = t.deps;
    const [row] = (await getJson<Paginated<FilmCard>>('/api/product/search?q=Phim%20so%204&limit=1')).data;
    await upsertFilm(db, { id: row!.id, title: 'Phim số 4', categoryId: 24, actors: 'Tuấn Trần' });
    expect((await getJson<PersonPageData>('/api/people/actor/tuan-tran')).data.map((f) => f.title)).toContain('Phim số 4');
    await getJson('/api/people/actor/ai-khac', 404);
  });

  it('the film page links its directors and actors by slug', async () => {
    const { datafilm } = await getJson<FilmDetailResponse>('/api/product/phim-so-1');
    expect(datafilm.directors).toEqual([{ slug: 'tran-thanh', name: 'Trấn Thành' }]);
    expect(datafilm.actors).toEqual([
      { slug: 'tran-thanh', name: 'Trấn Thành' },
      { slug: 'tuan-tran', name: 'Tuấn Trần' },
    ]);
    const two = await getJson<FilmDetailResponse>('/api/product/phim-so-2');
    expect(two.datafilm.directors).toEqual([]);
  });
});

describe('people in search suggestions', () => {
  it('"tran thanh" suggests the person with role and film count, and the film titles as before', async () => {
    const res = await getJson<SearchResults>('/api/product/search?q=tran%20thanh&limit=5');
    expect(res.people[0]).toEqual({ slug: 'tran-thanh', name: 'Trấn Thành', role: 'actor', films: 3 });
    expect(res.people).toContainEqual({ slug: 'tran-thanh', name: 'Trấn Thành', role: 'director', films: 1 });
    expect(res.data[0]?.title).toBe('Trận Thanh Long');
    const accented = await getJson<SearchResults>('/api/product/search?q=Tr%E1%BA%A5n&limit=5');
    expect(accented.people[0]?.slug).toBe('tran-thanh');
    expect((await getJson<SearchResults>('/api/product/search?q=tran%20thanh&page=2&limit=5')).people).toEqual([]);
  });
});

describe('the film page as full as its source', () => {
  it('carries trailer, schedule, notice, chieurap; TMDB only from 20 votes; seasons of one show in order', async () => {
    const { db } = t.deps;
    const show = (season: number | null, year: number, votes: number) =>
      film(200 + (season ?? 99), {
        title: `The Boys ${season ?? 'đặc biệt'}`,
        year,
        trailerId: 'IN5TD4VRcSM',
        showtimes: '21h tối thứ 6',
        notify: 'Tuần này hoãn chiếu',
        chieurap: season === 1,
        tmdbVoteAverage: 8.287,
        tmdbVoteCount: votes,
        identity: { tmdbType: 'tv', tmdbId: '76479', tmdbSeason: season, imdbId: null, originKey: null, year, kind: 'series' },
      });
    await upsertFilms(db, [show(4, 2024, 19), show(2, 2020, 4010), show(null, 2022, 0), show(1, 2019, 20)]);
    const s2 = (await getJson<FilmDetailResponse>('/api/product/the-boys-2')).datafilm;
    expect(s2.trailer).toBe('IN5TD4VRcSM');
    expect([s2.showtimes, s2.notify, s2.chieurap]).toEqual(['21h tối thứ 6', 'Tuần này hoãn chiếu', false]);
    expect(s2.tmdb).toEqual({ score: 8.287, votes: 4010 });
    expect(s2.seasons.map((s) => [s.slug, s.season])).toEqual([
      ['the-boys-1', 1],
      ['the-boys-2', 2],
      ['the-boys-4', 4],
      ['the-boys-dac-biet', null],
    ]);
    expect((await getJson<FilmDetailResponse>('/api/product/the-boys-4')).datafilm.tmdb).toBeNull();
    expect((await getJson<FilmDetailResponse>('/api/product/the-boys-1')).datafilm.tmdb).toEqual({ score: 8.287, votes: 20 });
    expect((await getJson<FilmDetailResponse>('/api/product/phim-so-1')).datafilm.seasons).toEqual([]);
  });

  it('filters listings to "Phim chiếu rạp" with chieurap=1', async () => {
    const all = await getJson<Paginated<FilmCard>>('/api/product/product-phimbo?chieurap=1');
    expect(all.data.map((f) => f.slug)).toEqual(['the-boys-1']);
    expect(all.pagination.totalItems).toBe(1);
    const genre = await getJson<Paginated<FilmCard>>('/api/product/product-phimhanhdong?chieurap=1');
    expect(genre.data.map((f) => f.slug)).toEqual(['the-boys-1']);
    await getJson('/api/product/product-phimbo?chieurap=yes', 400);
  });
});
