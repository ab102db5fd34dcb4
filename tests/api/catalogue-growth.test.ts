// Issue 10 goal 3 (docs/decisions/0607, 0608): the tables that keep the home, listings and search flat as
// the catalogue grows stay right — trending windows over a fake clock, listing counts and the filter bar's
// facet counts through the film writer, SQL updates and admin deletes, and the bounded search ranking over
// a large generated set.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { fold } from '../../worker/db/fold';
import { films } from '../../worker/db/schema';
import type { FilmCard, HomeData, Paginated } from '../../worker/schemas/catalogue';
import { SEARCH_CANDIDATES } from '../../worker/services/catalogue/search';
import { HOUR, refreshTrending } from '../../worker/services/catalogue/trending';
import { upsertFilm } from '../../worker/services/films/film-writer';
import { createTestApp, type TestApp } from '../helpers/app';
import { bearer, fakeClock, signedInUser } from '../helpers/auth';
import { seedCatalogue } from '../helpers/catalogue-fixture';

const DAY = 24 * HOUR;

async function getJson<T>(t: TestApp, path: string): Promise<T> {
  const res = await t.request(path);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

describe('trending windows kept per view and moved by the scheduler', () => {
  const clock = fakeClock();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ now: clock.now, config: { PUBLIC_CACHE_SECONDS: 0 } });
    await seedCatalogue(t.deps.db, clock.now());
  });

  /** The seed's most recently updated film: what tops up an empty window. */
  const NEWEST = 'dat-rung-phuong-nam';
  // Trending ranks plays (issue 40 §3): each a device of its own, 120 s of the film.
  let devices = 0;
  const view = async (slug: string, times: number) => {
    for (let i = 0; i < times; i++) {
      const device = `growth-device-${String(devices++).padStart(8, '0')}`;
      expect((await t.request('/api/product/play', { json: { slug, device, seconds: 120 } })).status).toBe(200);
    }
  };
  const leaders = async () => {
    const home = await getJson<HomeData>(t, '/api/product/product-home');
    const { day, week, month } = home.phimtrending;
    return { day: day[0]?.slug, week: week[0]?.slug, month: month[0]?.slug, hot: home.phimhot[0]?.slug };
  };
  /** The kept counts of every window equal the hourly rollup summed from the window's first hour. */
  const expectKeptCountsRight = async () => {
    const kept = await t.deps.db.all(sql`select span, film_id, views from trending_views where views != 0 order by span, film_id`);
    const summed = await t.deps.db.all(sql`
      select w.name as span, h.film_id, sum(h.views) as views from trending_windows w
      join film_views_hourly h on h.hour >= w.since_hour group by w.name, h.film_id order by w.name, h.film_id`);
    expect(kept).toEqual(summed);
  };
  /** The home answers the same from the summed rollup (windows not moved yet) as from the kept counts. */
  const expectBothPathsAgree = async (expected: Awaited<ReturnType<typeof leaders>>) => {
    expect(await leaders()).toEqual(expected);
    await refreshTrending(t.deps.db, clock.now());
    await expectKeptCountsRight();
    expect(await leaders()).toEqual(expected);
  };

  it('counts a view at once in every window, then lets it leave the day, the week and the month', async () => {
    await view('mat-biec', 3);
    await expectBothPathsAgree({ day: 'mat-biec', week: 'mat-biec', month: 'mat-biec', hot: 'mat-biec' });

    clock.advance(2 * DAY);
    await view('tham-tu-lung-danh-conan', 2);
    // Mắt Biếc's three views are two days old: out of the day, still ahead in the week and the month.
    await expectBothPathsAgree({ day: 'tham-tu-lung-danh-conan', week: 'mat-biec', month: 'mat-biec', hot: 'mat-biec' });

    // Once the windows are current, a new view is counted by the trigger without waiting for the scheduler.
    await view('tham-tu-lung-danh-conan', 2);
    expect(await leaders()).toEqual({
      day: 'tham-tu-lung-danh-conan',
      week: 'tham-tu-lung-danh-conan',
      month: 'tham-tu-lung-danh-conan',
      hot: 'tham-tu-lung-danh-conan',
    });
    await view('mat-biec', 2);

    clock.advance(6 * DAY); // Mắt Biếc: 3 views 8 days old, 2 views 6 days old; Conan: 4 views 6 days old.
    // Nobody watched today: the day's list is the top-up, the most recently updated film first (never the most
    // viewed: page loads rank nothing).
    await expectBothPathsAgree({ day: NEWEST, week: 'tham-tu-lung-danh-conan', month: 'mat-biec', hot: 'tham-tu-lung-danh-conan' });

    clock.advance(23 * DAY); // 31 and 29 days old: only the later plays are in the month.
    await expectBothPathsAgree({ day: NEWEST, week: NEWEST, month: 'tham-tu-lung-danh-conan', hot: NEWEST });

    clock.advance(3 * DAY);
    await view('lat-mat-8', 1);
    await expectBothPathsAgree({ day: 'lat-mat-8', week: 'lat-mat-8', month: 'lat-mat-8', hot: 'lat-mat-8' });
  });

  it('prunes hourly rows past the month and drops a deleted film from every window', async () => {
    clock.advance(40 * DAY);
    await view('mat-biec', 1);
    await refreshTrending(t.deps.db, clock.now());
    const [{ oldest }] = (await t.deps.db.all(sql`select min(hour) as oldest from film_views_hourly`)) as [{ oldest: number }];
    expect(oldest).toBe(Math.floor(clock.now() / HOUR));

    const [{ id }] = (await t.deps.db.all(sql`select id from films where slug = 'mat-biec'`)) as [{ id: number }];
    await t.deps.db.run(sql`delete from view_events where film_id = ${id}`);
    await t.deps.db.run(sql`delete from films where id = ${id}`);
    expect(await t.deps.db.all(sql`select * from trending_views where film_id = ${id}`)).toEqual([]);
    expect(await t.deps.db.all(sql`select * from film_views_hourly where film_id = ${id}`)).toEqual([]);
    await expectKeptCountsRight();
  });
});

describe('listing counts kept by triggers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { PUBLIC_CACHE_SECONDS: 0 } });
    await seedCatalogue(t.deps.db);
  });

  /** Every kept count equals a count of the rows themselves (zero counts may stay as rows). */
  const expectCountsRight = async () => {
    const wrong = await t.deps.db.all(sql`
      with actual(scope, n) as (
        select 'category:' || category_id, count(*) from films group by category_id
        union all select 'genre:' || genre_id, count(*) from film_genres group by genre_id
        union all select 'country:' || country_id, count(*) from film_countries group by country_id)
      select coalesce(a.scope, k.scope) as scope, a.n, k.films from actual a full join listing_counts k on k.scope = a.scope
      where coalesce(a.n, 0) != coalesce(k.films, 0)`);
    expect(wrong).toEqual([]);
    const total = (path: string) => getJson<Paginated<FilmCard>>(t, path).then((b) => b.pagination.totalItems);
    const count = async (query: ReturnType<typeof sql>) => ((await t.deps.db.all(query)) as [{ n: number }])[0].n;
    expect(await total('/api/product/product-phimbo')).toBe(await count(sql`select count(*) as n from films where category_id = 24`));
    expect(await total('/api/product/product-phimhanhdong')).toBe(
      await count(sql`select count(*) as n from film_genres join genres on genres.id = genre_id where genres.slug = 'hanh-dong'`),
    );
    expect(await total('/api/product/product-han-quoc')).toBe(
      await count(
        sql`select count(*) as n from film_countries join countries on countries.id = country_id where countries.slug = 'han-quoc'`,
      ),
    );
    expect(await total('/api/product?limit=5')).toBe(await t.deps.db.$count(films));
    await expectFacetCountsRight();
  };

  /**
   * listing_facet_counts (docs/decisions/0608) equals the facets recounted from the rows: every
   * combination of no genre or one of the film's genres, no country or one of its countries, no category or
   * its category, no year or its year; and the filter bar's totals, read from it, equal counts of the films.
   */
  const expectFacetCountsRight = async () => {
    const wrong = await t.deps.db.all(sql`
      with actual(facets, n) as (
        select printf('g%s:k%s:c%s:y%s', g.v, k.v, case when c.on_ = 1 then f.category_id end, case when y.on_ = 1 then f.year end), count(*)
        from films f
        join (select id as film_id, null as v from films union all select film_id, genre_id from film_genres) g on g.film_id = f.id
        join (select id as film_id, null as v from films union all select film_id, country_id from film_countries) k on k.film_id = f.id
        join (select 0 as on_ union all select 1) c join (select 0 as on_ union all select 1) y
        where y.on_ = 0 or f.year is not null
        group by 1)
      select coalesce(a.facets, k.facets) as facets, a.n, k.films from actual a full join listing_facet_counts k on k.facets = a.facets
      where coalesce(a.n, 0) != coalesce(k.films, 0)`);
    expect(wrong).toEqual([]);
    const total = (path: string) => getJson<Paginated<FilmCard>>(t, path).then((b) => b.pagination.totalItems);
    const count = async (query: ReturnType<typeof sql>) => ((await t.deps.db.all(query)) as [{ n: number }])[0].n;
    const inGenre = sql`exists (select 1 from film_genres join genres on genres.id = genre_id where film_id = films.id and genres.slug = 'hanh-dong')`;
    const inCountry = sql`exists (select 1 from film_countries join countries on countries.id = country_id where film_id = films.id and countries.slug = 'han-quoc')`;
    for (const year of [2019, 2020, 2023, 2024]) {
      expect(await total(`/api/product/product-phimhanhdong?year=${year}`)).toBe(
        await count(sql`select count(*) as n from films where ${inGenre} and year = ${year}`),
      );
      expect(await total(`/api/product/product-han-quoc?year=${year}&type=24`)).toBe(
        await count(sql`select count(*) as n from films where ${inCountry} and year = ${year} and category_id = 24`),
      );
      expect(await total(`/api/product/product-phimbo?year=${year}&category=hanh-dong&country=han-quoc`)).toBe(
        await count(sql`select count(*) as n from films where ${inGenre} and ${inCountry} and year = ${year} and category_id = 24`),
      );
    }
    expect(await total('/api/product/product-phimhanhdong?type=25')).toBe(
      await count(sql`select count(*) as n from films where ${inGenre} and category_id = 25`),
    );
  };

  it('stay right after the migration backfill and crawler inserts and updates', async () => {
    await expectCountsRight();
    const film = {
      sourceKey: 'ophim:dem-trang',
      title: 'Đêm Trăng',
      categoryId: 24 as const,
      genreSlugs: ['hanh-dong', 'tinh-cam'],
      countrySlugs: ['han-quoc'],
    };
    await upsertFilm(t.deps.db, film);
    await expectCountsRight();
    // The crawler sees the film again: another category, other genres and country.
    await upsertFilm(t.deps.db, { ...film, categoryId: 25, genreSlugs: ['tinh-cam', 'vien-tuong'], countrySlugs: ['nhat-ban'] });
    await expectCountsRight();
    // And again unchanged, links omitted: kept as they are.
    await upsertFilm(t.deps.db, { sourceKey: film.sourceKey, title: film.title, categoryId: 25 });
    await expectCountsRight();
    // A year set, then changed by the crawler, then by straight SQL along with the category.
    await upsertFilm(t.deps.db, { ...film, year: 2024, genreSlugs: ['hanh-dong'], countrySlugs: ['han-quoc', 'nhat-ban'] });
    await expectCountsRight();
    await upsertFilm(t.deps.db, { ...film, year: 2020, genreSlugs: ['hanh-dong'], countrySlugs: ['han-quoc'] });
    await expectCountsRight();
    await t.deps.db.run(sql`update films set year = 2019, category_id = 25 where slug = 'dem-trang'`);
    await expectCountsRight();
    await t.deps.db.run(sql`update films set year = null where slug = 'dem-trang'`);
    await expectCountsRight();
    await t.deps.db.run(sql`update films set year = 2023 where slug = 'dem-trang'`);
    await expectCountsRight();
  });

  it('a keyword finds the films whose folded text contains it, through the FTS index from 3 characters', async () => {
    const like = async (keyword: string, where = sql`true`) => {
      const folded = fold(keyword);
      const match = sql`instr(search_text, ${folded}) > 0`;
      const rows = (await t.deps.db.all(sql`select id from films where ${where} and ${match} order by updated_at desc, id desc`)) as {
        id: number;
      }[];
      return rows.map((r) => r.id);
    };
    for (const keyword of ['rừng', 'phuong nam', 'ma', 'Đ', 'Đêm', 'a"b', '50%', 'dat_', 'nam 2', 'ng']) {
      const listing = await getJson<Paginated<FilmCard>>(t, `/api/product/product-phimbo?keyword=${encodeURIComponent(keyword)}`);
      const expected = await like(keyword, sql`category_id = 24`);
      expect(
        listing.data.map((f) => f.id),
        keyword,
      ).toEqual(expected.slice(0, 25));
      expect(listing.pagination.totalItems, keyword).toBe(expected.length);
      const all = await getJson<Paginated<FilmCard>>(t, `/api/product?q=${encodeURIComponent(keyword)}&pageSize=100`);
      expect(
        all.data.map((f) => f.id),
        keyword,
      ).toEqual((await like(keyword)).slice(0, 100));
    }
    expect((await like('phuong nam')).length).toBeGreaterThan(0);
    expect((await like('ma')).length).toBeGreaterThan(0);
  });

  it('answer the last page whole and a page past it (or an empty combination) with no rows and the total', async () => {
    const ids = async (query: ReturnType<typeof sql>) => ((await t.deps.db.all(query)) as { id: number }[]).map((r) => r.id);
    const inGenre = sql`exists (select 1 from film_genres join genres on genres.id = genre_id where film_id = films.id and genres.slug = 'hanh-dong')`;
    const cases: [string, ReturnType<typeof sql>][] = [
      ['/api/product/product-phimhanhdong', inGenre],
      ['/api/product/product-phimhanhdong?year=2023', sql`${inGenre} and year = 2023`],
      ['/api/product/product-phimbo?year=2023&category=hanh-dong', sql`${inGenre} and year = 2023 and category_id = 24`],
      ['/api/product/product-phimhanhdong?year=1990', sql`${inGenre} and year = 1990`],
    ];
    for (const [path, where] of cases) {
      const expected = await ids(sql`select id from films where ${where} order by updated_at desc, id desc`);
      const first = await getJson<Paginated<FilmCard>>(t, path);
      expect(
        first.data.map((f) => f.id),
        path,
      ).toEqual(expected.slice(0, 25));
      for (const page of [Math.floor(expected.length / 25) + 2, 10_000]) {
        const past = await getJson<Paginated<FilmCard>>(t, `${path}${path.includes('?') ? '&' : '?'}page=${page}`);
        expect(past.data, path).toEqual([]);
        expect(past.pagination.totalItems, path).toBe(expected.length);
      }
    }
    expect((await ids(sql`select id from films where ${inGenre} and year = 2023`)).length).toBeGreaterThan(0);
  });

  it('stay right after admin deletes and a cascading delete', async () => {
    const auth = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
    const res = await t.request('/api/product/delete_products', {
      method: 'DELETE',
      json: { titles: ['dem-trang', 'mat-biec'] },
      headers: auth,
    });
    expect(res.status).toBe(200);
    await expectCountsRight();
    // Straight SQL with foreign keys on: film_genres and film_countries rows go by ON DELETE CASCADE.
    await t.deps.db.run(sql`delete from comments where film_id in (select id from films where slug = 'lat-mat-8')`);
    await t.deps.db.run(sql`delete from films where slug = 'lat-mat-8'`);
    await expectCountsRight();
  });
});

describe('search of a common word over a large generated set', () => {
  let t: TestApp;
  type Row = { id: number; title: string; titleFolded: string; searchText: string; views: number };
  let rows: Row[];

  // A word in four kinds of place, many times each, plus titles without it.
  const TITLES = [
    'Tình',
    ...Array.from({ length: 300 }, (_, i) => `Tình Yêu ${i}`),
    ...Array.from({ length: 300 }, (_, i) => `Chuyện Tình ${i}`),
    ...Array.from({ length: 300 }, (_, i) => `Kitình ${i}`),
    ...Array.from({ length: 150 }, (_, i) => `Mùa Hè ${i}`),
  ];

  beforeAll(async () => {
    t = await createTestApp({ config: { PUBLIC_CACHE_SECONDS: 0 } });
    const values = TITLES.map((title, i) => ({
      slug: `phim-${i}`,
      title,
      nameEnglish: `Film ${i}`,
      categoryId: 24,
      // Deterministic spread; the exact title is the least viewed and the oldest film.
      views: i === 0 ? 0 : (i * 7919) % 1000,
      titleFolded: fold(title),
      searchText: fold(`${title} Film ${i}`),
    }));
    for (let i = 0; i < values.length; i += 200) await t.deps.db.insert(films).values(values.slice(i, i + 200));
    rows = (await t.deps.db
      .select({ id: films.id, title: films.title, titleFolded: films.titleFolded, searchText: films.searchText, views: films.views })
      .from(films)) as Row[];
  });

  const tier = (titleFolded: string, q: string) =>
    titleFolded === q ? 0 : titleFolded.startsWith(q) ? 1 : titleFolded.includes(` ${q}`) ? 2 : titleFolded.includes(q) ? 3 : 4;
  const search = (q: string, limit: number, page = 1) =>
    getJson<Paginated<FilmCard>>(t, `/api/product/search?q=${encodeURIComponent(q)}&limit=${limit}&page=${page}`);
  const expectOrdered = (data: FilmCard[], q: string) => {
    const byId = new Map(rows.map((r) => [r.id, r]));
    const keys = data.map((f) => byId.get(f.id)!).map((r) => [tier(r.titleFolded, q), -r.views, -r.id] as const);
    for (let i = 1; i < keys.length; i++) {
      const [a, b] = [keys[i - 1]!, keys[i]!];
      expect(
        a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] < b[2]))),
        `${data[i - 1]?.title} before ${data[i]?.title}`,
      ).toBe(true);
    }
  };

  it('keeps exact > prefix > word prefix > substring for the results it returns, and counts every match', async () => {
    expect(TITLES.length - 150 - 1).toBeGreaterThan(SEARCH_CANDIDATES * 4);
    const suggestions = await search('tinh', 5);
    // The exact title is the oldest and least viewed film: found through the title index all the same.
    expect(suggestions.data[0]?.title).toBe('Tình');
    expect(suggestions.data.slice(1).every((f) => f.title.startsWith('Tình Yêu'))).toBe(true);
    expect(suggestions.pagination).toMatchObject({ totalItems: 901, totalPages: 181 });
    const results = await search('tinh', 50, 4);
    expectOrdered(results.data, 'tinh');
    expect(results.data).toHaveLength(50);
    // A page past the candidates ranks every match: still ordered, still counted.
    const deep = await search('tinh', 50, 6);
    expectOrdered(deep.data, 'tinh');
    expect(deep.pagination.totalItems).toBe(901);
    const words = await search('chuyen tinh', 20);
    expectOrdered(words.data, 'chuyen tinh');
  });

  it('answers the last page and pages past it with the total (a page past the end ranks nothing)', async () => {
    const all = rows.filter((r) => r.searchText.includes('tinh'));
    expect(all).toHaveLength(901);
    const last = await search('tinh', 50, 19);
    expect(last.data).toHaveLength(1);
    expect(last.pagination).toMatchObject({ totalItems: 901, totalPages: 19 });
    for (const page of [20, 10_000]) {
      const past = await search('tinh', 50, page);
      expect(past.data).toEqual([]);
      expect(past.pagination).toMatchObject({ page, totalItems: 901, totalPages: 19 });
    }
    // Under 3 characters: the title prefix, counted in the title index.
    const short = rows.filter((r) => r.titleFolded.startsWith('ti')).length;
    expect(short).toBe(301);
    expect((await search('ti', 50, 7)).data).toHaveLength(1);
    expect((await search('ti', 50, 8)).data).toEqual([]);
    expect((await search('ti', 50, 8)).pagination.totalItems).toBe(301);
    // A listing's last page holds what is left after the page's offset, from the kept count.
    const lastListing = await getJson<Paginated<FilmCard>>(t, '/api/product/product-phimbo?page=43');
    expect(lastListing.data.map((f) => f.id)).toEqual([Math.min(...rows.map((r) => r.id))]);
    expect(lastListing.pagination).toMatchObject({ totalItems: 1051, totalPages: 43 });
    expect((await getJson<Paginated<FilmCard>>(t, '/api/product/product-phimbo?page=44')).data).toEqual([]);
  });

  it('serves the same pages whether titles starting with the query fill them (no FTS read) or not', async () => {
    // 'mua he' and 'kitinh 1': every match starts with the query, so the title index fills each page;
    // 'he 1' and 'film 2': no title starts with them, so the page comes from the FTS candidates.
    for (const q of ['mua he', 'kitinh 1', 'he 1', 'film 2']) {
      const expected = rows
        .filter((r) => r.searchText.includes(q))
        .sort((a, b) => tier(a.titleFolded, q) - tier(b.titleFolded, q) || b.views - a.views || b.id - a.id)
        .map((r) => r.id);
      expect(expected.length, q).toBeLessThanOrEqual(SEARCH_CANDIDATES);
      for (const [limit, page] of [
        [5, 1],
        [7, 3],
        [50, 2],
      ] as const) {
        const body = await search(q, limit, page);
        expect(
          body.data.map((f) => f.id),
          `${q} limit ${limit} page ${page}`,
        ).toEqual(expected.slice((page - 1) * limit, page * limit));
        expect(body.pagination.totalItems, q).toBe(expected.length);
      }
    }
  });

  it('ranks every match as before when a query matches fewer titles than the candidate bound', async () => {
    const q = 'mua he';
    const expected = rows
      .filter((r) => r.titleFolded.includes(q))
      .sort((a, b) => tier(a.titleFolded, q) - tier(b.titleFolded, q) || b.views - a.views || b.id - a.id)
      .map((r) => r.id);
    const got = [...(await search(q, 50, 1)).data, ...(await search(q, 50, 2)).data, ...(await search(q, 50, 3)).data].map((f) => f.id);
    expect(got).toEqual(expected);
  });
});
