import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FilmCard, FilmDetailResponse, HomeData, HomeTopData, Paginated, SidebarData } from '../../worker/schemas/catalogue';
import { CATEGORIES, COUNTRIES, GENRES, LISTING_ENDPOINTS } from '../../worker/schemas/taxonomy';
import { createTestApp, type TestApp } from '../helpers/app';
import { bearer, signedInUser } from '../helpers/auth';
import { seedCatalogue } from '../helpers/catalogue-fixture';
import { refreshRelated } from '../../worker/services/related/related';

let t: TestApp;
const getJson = async <T>(path: string, status = 200): Promise<T> => {
  const res = await t.request(path);
  const body = await res.json();
  expect(res.status, `${path} → ${JSON.stringify(body).slice(0, 200)}`).toBe(status);
  return body as T;
};
const expectError = async (path: string, status: number, field?: string, init?: RequestInit & { json?: unknown }) => {
  const res = await t.request(path, init);
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/json');
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBeTypeOf('string');
  if (field) expect(body.error.message.startsWith(`${field}:`), body.error.message).toBe(true);
  return body.error;
};

beforeAll(async () => {
  t = await createTestApp();
  await seedCatalogue(t.deps.db);
  // "Phim tương tự" as the scheduled job keeps it (docs/decisions/1090).
  await refreshRelated(t.deps.db, Date.now());
});

describe('GET /api/product/product-home', () => {
  it('returns every list of both readings, sized and without episode links', async () => {
    const home = await getJson<HomeData>('/api/product/product-home');
    for (const key of [
      'phimhot',
      'phimbomoicapnhat',
      'phimlemoicapnhat',
      'phimdahoanthanh',
      'phimhoathinh',
      'phimtamlytimcam',
      'phimvientuong',
      'phimhanhdong',
      'phimsapchieu',
    ] as const) {
      expect(Array.isArray(home[key]), key).toBe(true);
      expect(home[key].length, key).toBeLessThanOrEqual(12);
    }
    expect(home.phimbomoicapnhat[0]?.title).toBe('Đất Rừng Phương Nam');
    expect(home.phimbomoicapnhat.every((f) => f.category_id === 24)).toBe(true);
    expect(home.phimlemoicapnhat.every((f) => f.category_id === 25)).toBe(true);
    expect(home.phimhoathinh.map((f) => f.title)).toEqual(['Thám Tử Lừng Danh Conan']);
    expect(home.phimtamlytimcam.map((f) => f.title)).toEqual(expect.arrayContaining(['Mắt Biếc', 'Đất Phương Nam', 'Người Vợ Cuối Cùng']));
    expect(home.phimvientuong.map((f) => f.title)).toEqual(['Avengers: Hồi Kết']);
    expect(home.phimsapchieu.map((f) => f.title)).toEqual(['Lật Mặt 8']);
    expect(home.phimdahoanthanh.every((f) => f.trangthai !== 'Tập 2')).toBe(true);
    expect(Object.keys(home.phimtrending)).toEqual(['day', 'week', 'month']);
    expect(JSON.stringify(home)).not.toContain('m3u8');
  });
});

describe('GET /api/product/home-top', () => {
  it("returns the home's first screen: its hot films and new series, the same as the whole home's, and nothing else", async () => {
    const [home, top] = await Promise.all([getJson<HomeData>('/api/product/product-home'), getJson<HomeTopData>('/api/product/home-top')]);
    expect(Object.keys(top).sort()).toEqual(['phimbomoicapnhat', 'phimhot']);
    expect(top.phimhot.length).toBeGreaterThan(0);
    expect(top.phimhot).toEqual(home.phimhot);
    expect(top.phimbomoicapnhat).toEqual(home.phimbomoicapnhat);
  });
});

describe('GET /api/product/sidebar', () => {
  it("returns the home's sidebar lists, the same films, and nothing else", async () => {
    const [home, sidebar] = await Promise.all([
      getJson<HomeData>('/api/product/product-home'),
      getJson<SidebarData>('/api/product/sidebar'),
    ]);
    expect(Object.keys(sidebar).sort()).toEqual(['phimhanhdong', 'phimsapchieu', 'phimtrending']);
    // The same films, with only what the sidebar shows of them (the VIP badge included).
    const shown = (films: FilmCard[]) =>
      films.map(({ id, slug, title, hinhanh, thumb, namphathanh, views, VIP1 }) => ({
        id,
        slug,
        title,
        hinhanh,
        thumb,
        namphathanh,
        views,
        VIP1,
      }));
    expect(sidebar.phimhanhdong).toEqual(shown(home.phimhanhdong));
    expect(sidebar.phimsapchieu).toEqual(shown(home.phimsapchieu));
    expect(sidebar.phimtrending).toEqual({
      day: shown(home.phimtrending.day),
      week: shown(home.phimtrending.week),
      month: shown(home.phimtrending.month),
    });
    expect(JSON.stringify(sidebar).length).toBeLessThan(JSON.stringify(home).length);
  });
});

describe('listing endpoints', () => {
  it('answers all 27 genre/category and 35 country endpoints', async () => {
    expect(LISTING_ENDPOINTS).toHaveLength(GENRES.length + CATEGORIES.length + COUNTRIES.length);
    expect(LISTING_ENDPOINTS).toHaveLength(62);
    for (const endpoint of LISTING_ENDPOINTS) {
      const body = await getJson<Paginated<FilmCard>>(`/api/product/product-${endpoint}`);
      expect(body.pagination.pageSize).toBe(25);
    }
  });

  it('paginates 25 per page', async () => {
    const first = await getJson<Paginated<FilmCard>>('/api/product/product-phimbo');
    expect(first.pagination).toEqual({ page: 1, pageSize: 25, totalItems: 33, totalPages: 2 });
    expect(first.data).toHaveLength(25);
    const second = await getJson<Paginated<FilmCard>>('/api/product/product-phimbo?page=2');
    expect(second.data).toHaveLength(8);
    expect(new Set([...first.data, ...second.data].map((f) => f.id)).size).toBe(33);
    const beyond = await getJson<Paginated<FilmCard>>('/api/product/product-phimbo?page=9');
    expect(beyond.data).toEqual([]);
    expect(beyond.pagination.totalItems).toBe(33);
  });

  it('scopes by genre, country and category', async () => {
    const coTrang = await getJson<Paginated<FilmCard>>('/api/product/product-phimcotrang');
    expect(coTrang.data.map((f) => f.title).sort()).toEqual(['Người Vợ Cuối Cùng', 'Đất Rừng Phương Nam']);
    const japan = await getJson<Paginated<FilmCard>>('/api/product/product-nhat-ban');
    expect(japan.data.map((f) => f.title)).toEqual(['Thám Tử Lừng Danh Conan']);
    const india = await getJson<Paginated<FilmCard>>('/api/product/product-ando');
    expect(india.data).toEqual([]);
    const upcoming = await getJson<Paginated<FilmCard>>('/api/product/product-phimsapchieu');
    expect(upcoming.data.map((f) => f.title)).toEqual(['Lật Mặt 8']);
  });

  it('applies the filter bar and combines filters', async () => {
    const action = '/api/product/product-phimhanhdong';
    const byYear = await getJson<Paginated<FilmCard>>(`${action}?year=2019`);
    expect(byYear.data.map((f) => f.title).sort()).toEqual(['Avengers: Hồi Kết', 'Phim Bộ Thử 10', 'Phim Bộ Thử 25']);
    const combined = await getJson<Paginated<FilmCard>>(`${action}?year=2019&type=25&category=vien-tuong&country=au-my`);
    expect(combined.data.map((f) => f.title)).toEqual(['Avengers: Hồi Kết']);
    const none = await getJson<Paginated<FilmCard>>(`${action}?year=2019&country=han-quoc`);
    expect(none.data).toEqual([]);
    const keyword = await getJson<Paginated<FilmCard>>(`${action}?keyword=${encodeURIComponent('rừng')}`);
    expect(keyword.data.map((f) => f.title)).toEqual(['Đất Rừng Phương Nam']);
    const keywordFolded = await getJson<Paginated<FilmCard>>(`${action}?keyword=rung`);
    expect(keywordFolded.data.map((f) => f.title)).toEqual(['Đất Rừng Phương Nam']);
    const emptyFilters = await getJson<Paginated<FilmCard>>(`${action}?sort=&category=&country=&type=&year=&keyword=`);
    expect(emptyFilters.pagination.totalItems).toBe(33);
  });

  it('sorts by views and by creation', async () => {
    await t.deps.db.run(sql`update films set views = 500 where slug = 'phim-bo-thu-7'`);
    const byViews = await getJson<Paginated<FilmCard>>('/api/product/product-phimbo?sort=views');
    expect(byViews.data[0]?.slug).toBe('phim-bo-thu-7');
    const byCreated = await getJson<Paginated<FilmCard>>('/api/product/product-phimbo?sort=createdAt');
    expect(byCreated.data[0]?.title).toBe('Đất Rừng Phương Nam');
  });

  it('rejects bad input with the field named, never 500', async () => {
    await expectError('/api/product/product-phimbo?page=-1', 400, 'page');
    await expectError('/api/product/product-phimbo?page=abc', 400, 'page');
    await expectError('/api/product/product-phimbo?page=1.5', 400, 'page');
    await expectError('/api/product/product-phimbo?type=99', 400, 'type');
    await expectError('/api/product/product-phimbo?year=abcd', 400, 'year');
    await expectError('/api/product/product-phimbo?sort=title', 400, 'sort');
    await expectError('/api/product/product-phimbo?category=nope', 400, 'category');
    await expectError('/api/product/product-phimbo?country=atlantis', 400, 'country');
    await expectError(`/api/product/product-phimbo?keyword=${'a'.repeat(101)}`, 400, 'keyword');
    // Not a listing: a film slug (titles like "Product X"), and there is no such film.
    await expectError('/api/product/product-nowhere', 404);
  });
});

describe('film detail and watch data', () => {
  it('returns datafilm with episodes grouped by server, comments and rating data', async () => {
    const body = await getJson<FilmDetailResponse>('/api/product/dat-rung-phuong-nam');
    expect(body.datafilm).toMatchObject({
      title: 'Đất Rừng Phương Nam',
      nameenglish: 'Song of the South',
      slug: 'dat-rung-phuong-nam',
      VIP1: 0,
      category_id: 24,
      theloai: 'Hành Động, Cổ Trang',
      quocgia: 'Quốc Gia Khác',
      namphathanh: 2023,
      descripts: 'Hành trình của An.',
    });
    expect(body.datafilm.servers.map((s) => s.server_name)).toEqual(['Vietsub #1', 'Thuyết Minh #2']);
    expect(body.datafilm.servers[1]?.linkfilms.map((e) => e.episode)).toEqual([1, 2, 3]);
    expect(body.datafilm.linkfilms).toEqual(body.datafilm.servers[0]?.linkfilms);
    expect(body.datafilm.linkfilms[0]?.linkfilm).toBe('https://cdn.example.com/0/1/index.m3u8');
    expect(body.datafilm.genres).toEqual([
      { slug: 'hanh-dong', name: 'Hành Động' },
      { slug: 'co-trang', name: 'Cổ Trang' },
    ]);
    expect(body.comments).toEqual([]);
    expect(body.general_assessment).toEqual({ totalRatings: 0, averageRating: null });
    expect(body.rating_star).toEqual({ rating: null });
    expect(body.error).toBeUndefined();
    expect(body.error1).toBeUndefined();
    expect(body.recommended.map((f) => f.slug)).not.toContain('dat-rung-phuong-nam');
    expect(body.recommended.length).toBeGreaterThan(0);
    expect(body.recommended[0]?.theloai).toMatch(/Hành Động|Cổ Trang/);
    expect(body.recommended.every((f) => f.reason.length > 0)).toBe(true);
  });

  it('withholds every episode link of a VIP-only film from an anonymous viewer', async () => {
    const body = await getJson<FilmDetailResponse>('/api/product/nguoi-vo-cuoi-cung');
    expect(body.error1).toBe(true);
    expect(body.datafilm.VIP1).toBe(1);
    expect(body.datafilm.linkfilms).toHaveLength(1);
    expect(JSON.stringify(body)).not.toMatch(/cdn\.example|player\.example/);
    const episode = await t.request('/api/product/nguoi-vo-cuoi-cung/1');
    expect(episode.status).toBe(401);
    expect(JSON.stringify(await episode.json())).not.toMatch(/example/);
    const id = body.datafilm.id;
    const watch = await getJson<{ data: FilmDetailResponse['datafilm']; error1?: boolean }>(`/api/product/getdetail_xemphim/${id}`);
    expect(watch.error1).toBe(true);
    expect(JSON.stringify(watch)).not.toMatch(/example/);
  });

  it('answers one episode by number or tap-{n}, on a chosen server', async () => {
    const byNumber = await getJson<{ data: { episode: number; linkfilm: string; server_name: string; title: string } }>(
      '/api/product/dat-rung-phuong-nam/2',
    );
    expect(byNumber.data).toMatchObject({
      episode: 2,
      title: 'Đất Rừng Phương Nam',
      server_name: 'Vietsub #1',
      linkfilm: 'https://cdn.example.com/0/2/index.m3u8',
    });
    const byTap = await getJson<{ data: { linkfilm: string } }>(
      `/api/product/dat-rung-phuong-nam/tap-2?server=${encodeURIComponent('Thuyết Minh #2')}`,
    );
    expect(byTap.data.linkfilm).toBe('https://cdn.example.com/1/2/index.m3u8');
    await expectError('/api/product/dat-rung-phuong-nam/9', 404);
    await expectError('/api/product/dat-rung-phuong-nam/tap-x', 400, 'episode');
    await expectError('/api/product/khong-co-phim-nay/1', 404);
  });

  it('answers the watch detail by id', async () => {
    const detail = await getJson<FilmDetailResponse>('/api/product/mat-biec');
    const watch = await getJson<{ data: { title: string; linkfilms: unknown[] } }>(`/api/product/getdetail_xemphim/${detail.datafilm.id}`);
    expect(watch.data.title).toBe('Mắt Biếc');
    expect(watch.data.linkfilms).toHaveLength(1);
    await expectError('/api/product/getdetail_xemphim/abc', 400, 'id');
    await expectError('/api/product/getdetail_xemphim/999999', 404);
  });

  it('404s an unknown film in the JSON error shape', async () => {
    const error = await expectError('/api/product/khong-co-phim-nay', 404);
    expect(error.code).toBe('not_found');
  });
});

describe('POST /api/product/update_view', () => {
  it('records a view event that counts toward the total, not trending (plays rank: issue 40 §3)', async () => {
    const before = await getJson<HomeData>('/api/product/product-home');
    const res = await t.request('/api/product/update_view', { json: { title: 'mat-biec' } });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as { data: { views: number } };
    await t.request('/api/product/update_view', { json: { title: 'mat-biec' } });
    t.advance(11_000); // past the public read cache
    const detail = await getJson<FilmDetailResponse>('/api/product/mat-biec');
    expect(detail.datafilm.views).toBe(data.views + 1);
    const home = await getJson<HomeData>('/api/product/product-home');
    const slugs = (h: HomeData) => Object.values(h.phimtrending).map((list: FilmCard[]) => list.map((f) => f.slug));
    expect(slugs(home)).toEqual(slugs(before));
    await t.request('/api/product/play', { json: { slug: 'mat-biec', device: 'catalogue-device-0001', seconds: 125 } });
    t.advance(11_000);
    const played = await getJson<HomeData>('/api/product/product-home');
    expect(played.phimtrending.day[0]?.slug).toBe('mat-biec');
    expect(played.phimtrending.month[0]?.slug).toBe('mat-biec');
  });

  it('counts no view for a visit the VIP rule refuses, and one for a viewer who may watch', async () => {
    const views = async () => {
      const [row] = await t.deps.db.all<{ views: number; events: number }>(
        sql`select views, (select count(*) from view_events where film_id = films.id) as events from films where slug = 'nguoi-vo-cuoi-cung'`,
      );
      return row!;
    };
    const before = await views();
    const anonymous = await expectError('/api/product/update_view', 401, undefined, { json: { title: 'nguoi-vo-cuoi-cung' } });
    expect(anonymous.code).toBe('vip_login_required');
    const plain = await signedInUser(t);
    const refused = await expectError('/api/product/update_view', 403, undefined, {
      json: { title: 'nguoi-vo-cuoi-cung' },
      headers: bearer(plain.session.token),
    });
    expect(refused.code).toBe('vip_required');
    expect(await views()).toEqual(before);
    const vip = await signedInUser(t, { permissions: 'VIP1' });
    const res = await t.request('/api/product/update_view', { json: { title: 'nguoi-vo-cuoi-cung' }, headers: bearer(vip.session.token) });
    expect(res.status).toBe(200);
    expect(await views()).toEqual({ views: before.views + 1, events: before.events + 1 });
  });

  it('keeps trending windows apart: plays 10 days ago count for the month, not the day or week', async () => {
    const conan = await getJson<FilmDetailResponse>('/api/product/tham-tu-lung-danh-conan');
    const old = t.deps.now() - 10 * 24 * 3600 * 1000;
    for (let i = 0; i < 5; i++)
      await t.deps.db.run(
        sql`insert into plays (day, film_id, device, played_at) values (${Math.floor(old / 86_400_000)}, ${conan.datafilm.id}, ${`old-${i}`}, ${old})`,
      );
    t.advance(11_000);
    const home = await getJson<HomeData>('/api/product/product-home');
    expect(home.phimtrending.month[0]?.slug).toBe('tham-tu-lung-danh-conan');
    // In the day and week windows only Mắt Biếc was watched: it leads; older views do not count there.
    expect(home.phimtrending.week[0]?.slug).toBe('mat-biec');
    expect(home.phimtrending.day[0]?.slug).toBe('mat-biec');
  });

  it('rejects bad bodies', async () => {
    await expectError('/api/product/update_view', 400, 'title', { json: {} });
    await expectError('/api/product/update_view', 404, undefined, { json: { title: 'khong-co' } });
    await expectError('/api/product/update_view', 400, 'body', {
      method: 'POST',
      body: '{"title":',
      headers: { 'content-type': 'application/json' },
    });
  });
});

describe('GET /api/category and GET /api/product', () => {
  it('lists the four categories with their type ids', async () => {
    const body = await getJson<{ data: { id: number; namecategory: string }[] }>('/api/category');
    expect(body.data.map((c) => [c.id, c.namecategory])).toEqual([
      [24, 'Phim Bộ'],
      [25, 'Phim Lẻ'],
      [26, 'TV Shows'],
      [27, 'Phim Sắp Chiếu'],
    ]);
  });

  it('pages through the whole catalogue, never all in one response', async () => {
    const first = await getJson<Paginated<FilmCard>>('/api/product');
    expect(first.pagination).toMatchObject({ page: 1, pageSize: 50, totalItems: 37, totalPages: 1 });
    const small = await getJson<Paginated<FilmCard>>('/api/product?pageSize=10&page=4');
    expect(small.data).toHaveLength(7);
    const filtered = await getJson<Paginated<FilmCard>>('/api/product?q=conan');
    expect(filtered.data.map((f) => f.title)).toEqual(['Thám Tử Lừng Danh Conan']);
    await expectError('/api/product?pageSize=100000', 400, 'pageSize');
  });
});

describe('GET /api/product/search', () => {
  const search = (q: string, extra = '') => getJson<Paginated<FilmCard>>(`/api/product/search?q=${encodeURIComponent(q)}${extra}`);

  it('folds diacritics: "dat rung" finds Đất Rừng Phương Nam first', async () => {
    const body = await search('dat rung');
    expect(body.data[0]?.title).toBe('Đất Rừng Phương Nam');
  });

  it('matches upper-case Vietnamese and ranks title prefixes first', async () => {
    const body = await search('ĐẤT');
    expect(
      body.data
        .map((f) => f.title)
        .slice(0, 2)
        .sort(),
    ).toEqual(['Đất Phương Nam', 'Đất Rừng Phương Nam']);
    expect((await search('mat biec')).data[0]?.title).toBe('Mắt Biếc');
    expect((await search('Mắt Biếc')).data[0]?.title).toBe('Mắt Biếc');
  });

  it('ranks an exact title above longer titles containing it', async () => {
    const body = await search('dat phuong nam');
    expect(body.data[0]?.title).toBe('Đất Phương Nam');
  });

  it('finds substrings and English names', async () => {
    expect((await search('phuong')).data.map((f) => f.title).sort()).toEqual(['Đất Phương Nam', 'Đất Rừng Phương Nam']);
    expect((await search('dreamy')).data[0]?.title).toBe('Mắt Biếc');
    expect((await search('hồi kết')).data[0]?.title).toBe('Avengers: Hồi Kết');
  });

  it('answers one- and two-letter queries by word prefix', async () => {
    const two = await search('ma');
    expect(two.data.map((f) => f.title)).toContain('Mắt Biếc');
    expect(two.data.map((f) => f.title)).not.toContain('Thám Tử Lừng Danh Conan');
    const one = await search('đ');
    expect(one.data.map((f) => f.title)).toEqual(expect.arrayContaining(['Đất Phương Nam', 'Đất Rừng Phương Nam']));
  });

  it('limits suggestions to 5 by default and pages results', async () => {
    const body = await search('phim bo thu');
    expect(body.data).toHaveLength(5);
    expect(body.pagination).toMatchObject({ pageSize: 5, totalItems: 30, totalPages: 6 });
    const page2 = await search('phim bo thu', '&limit=20&page=2');
    expect(page2.data).toHaveLength(10);
  });

  it('treats wildcard and quote characters literally', async () => {
    expect((await search('%')).data).toEqual([]);
    expect((await search('"dat')).data).toEqual([]);
    expect((await search('_')).data).toEqual([]);
  });

  it('rejects missing, empty and oversized queries', async () => {
    await expectError('/api/product/search', 400, 'q');
    await expectError('/api/product/search?q=%20%20', 400, 'q');
    await expectError(`/api/product/search?q=${'a'.repeat(10_000)}`, 400, 'q');
    await expectError('/api/product/search?q=dat&limit=0', 400, 'limit');
  });
});

describe('public read cache', () => {
  it('reuses anonymous listing responses for a few seconds, then reads again', async () => {
    const path = '/api/product/product-phimle?sort=views';
    const first = await t.request(path);
    expect(first.headers.get('x-cache')).toBe('miss');
    await t.deps.db.run(sql`update films set views = views + 1000 where slug = 'mat-biec'`);
    const second = await t.request(path);
    expect(second.headers.get('x-cache')).toBe('hit');
    expect(await second.text()).toBe(await first.text());
    t.advance(11_000);
    const third = await t.request(path);
    expect(third.headers.get('x-cache')).toBe('miss');
    expect(((await third.json()) as Paginated<FilmCard>).data[0]?.slug).toBe('mat-biec');
  });

  it('never serves a cached response to a request with credentials, nor caches errors', async () => {
    await t.request('/api/product/product-phimle');
    const withToken = await t.request('/api/product/product-phimle', { headers: { authorization: 'Bearer x' } });
    expect(withToken.headers.get('x-cache')).toBeNull();
    await t.request('/api/product/product-phimle?page=-1');
    expect((await t.request('/api/product/product-phimle?page=-1')).status).toBe(400);
  });

  it('shows a new comment on the next detail load although the film data is cached', async () => {
    const before = await getJson<FilmDetailResponse>('/api/product/dat-phuong-nam');
    expect(before.comments).toEqual([]);
    await t.deps.db.run(sql`insert into users (email, username) values ('c@example.com', 'khach')`);
    await t.deps.db.run(
      sql`insert into comments (film_id, user_id, body) values (${before.datafilm.id}, (select id from users where email = 'c@example.com'), 'Hay quá')`,
    );
    const after = await getJson<FilmDetailResponse>('/api/product/dat-phuong-nam');
    expect(after.comments.map((c) => c.comment)).toEqual(['Hay quá']);
  });
});

describe('POST /api/product/report_error', () => {
  it('stores a report for admins and rate limits per IP', async () => {
    const report = {
      slug: 'dat-rung-phuong-nam',
      episode: 2,
      server_name: 'Vietsub #1',
      reason: 'khong-phat-duoc',
      message: 'Màn hình đen',
    };
    const headers = { 'x-forwarded-for': '198.51.100.9' };
    const res = await t.request('/api/product/report_error', { json: report, headers });
    expect(res.status).toBe(201);
    const rows = await t.deps.db.all<{ reason: string; message: string; episode: number }>(
      sql`select reason, message, episode from error_reports`,
    );
    expect(rows).toEqual([{ reason: 'khong-phat-duoc', message: 'Màn hình đen', episode: 2 }]);
    for (let i = 0; i < 9; i++) expect((await t.request('/api/product/report_error', { json: report, headers })).status).toBe(201);
    await expectError('/api/product/report_error', 429, undefined, { json: report, headers });
    expect((await t.request('/api/product/report_error', { json: report, headers: { 'x-forwarded-for': '198.51.100.10' } })).status).toBe(
      201,
    );
  });

  it('rejects bad reports with the field named', async () => {
    const headers = { 'x-forwarded-for': '198.51.100.11' };
    await expectError('/api/product/report_error', 400, 'reason', { json: { slug: 'mat-biec', episode: 1, reason: 'boring' }, headers });
    await expectError('/api/product/report_error', 400, 'episode', { json: { slug: 'mat-biec', episode: 'x', reason: 'khac' }, headers });
    await expectError('/api/product/report_error', 404, undefined, { json: { slug: 'khong-co', episode: 1, reason: 'khac' }, headers });
  });
});

describe('POST /api/product/report_error from the player (a server it moved away from)', () => {
  it('keeps one report per episode, server and Vietnamese day, whatever the number of viewers', async () => {
    const fresh = await createTestApp();
    await seedCatalogue(fresh.deps.db);
    const auto = { slug: 'mat-biec', episode: 1, server_name: 'Vietsub #1', reason: 'server-loi', message: 'manifestLoadError (404)' };
    const send = (body: object, ip: string) =>
      fresh.request('/api/product/report_error', { json: body, headers: { 'x-forwarded-for': ip } });
    // Five viewers at once, each from their own address: one row, every answer names it.
    const answers = await Promise.all([1, 2, 3, 4, 5].map((i) => send(auto, `203.0.113.${i}`)));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const ids = new Set(await Promise.all(answers.map(async (r) => ((await r.json()) as { data: { id: number } }).data.id)));
    expect(ids.size).toBe(1);
    const rows = () =>
      fresh.deps.db.all<{ server_name: string; episode: number; reason: string }>(
        sql`select server_name, episode, reason from error_reports order by id`,
      );
    expect(await rows()).toEqual([{ server_name: 'Vietsub #1', episode: 1, reason: 'server-loi' }]);
    // Another server, another episode: their own rows. A viewer's own report is never folded.
    await send({ ...auto, server_name: 'Thuyết minh' }, '203.0.113.9');
    await send({ ...auto, episode: 2 }, '203.0.113.9');
    await send({ ...auto, reason: 'khong-phat-duoc' }, '203.0.113.9');
    await send({ ...auto, reason: 'khong-phat-duoc' }, '203.0.113.9');
    expect(await rows()).toHaveLength(5);
    // Filed yesterday (a minute before 00:00 at UTC+7): today files again.
    const now = fresh.deps.now();
    const startOfToday = Math.floor((now + 7 * 3600_000) / 86_400_000) * 86_400_000 - 7 * 3600_000;
    await fresh.deps.db.run(sql`update error_reports set created_at = ${startOfToday - 60_000}`);
    expect((await send(auto, '203.0.113.20')).status).toBe(201);
    expect((await rows()).filter((r) => r.reason === 'server-loi' && r.server_name === 'Vietsub #1' && r.episode === 1)).toHaveLength(2);
  });
});

describe('hot and trending lists on a catalogue with few views', () => {
  it('fill up to their size with the most recently updated films', async () => {
    const fresh = await createTestApp();
    await seedCatalogue(fresh.deps.db);
    await fresh.request('/api/product/play', { json: { slug: 'mat-biec', device: 'fresh-device-00001', seconds: 121 } });
    const home = (await (await fresh.request('/api/product/product-home')).json()) as HomeData;
    expect(home.phimhot).toHaveLength(10);
    expect(home.phimhot[0]?.slug).toBe('mat-biec');
    expect(new Set(home.phimhot.map((f) => f.id)).size).toBe(10);
    expect(home.phimtrending.day).toHaveLength(8);
    expect(home.phimtrending.day[0]?.slug).toBe('mat-biec');
  });
});
