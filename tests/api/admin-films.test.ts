// Films and episodes from the back office: add through the one film writer, edit, VIP1
// flag, delete one or many with everything keyed by them, episodes added/updated/edited/deleted.
import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditLog, comments, episodes, errorReports, filmGenres, films, ratings, viewEvents } from '../../worker/db/schema';
import type { AddFilmResponse, EpisodeWriteResponse, FilmEpisodesResponse } from '../../worker/schemas/admin';
import type { FilmDetailResponse, Paginated, FilmCard } from '../../worker/schemas/catalogue';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, createUser, signedInUser } from '../helpers/auth';

let t: TestApp;
let auth: { authorization: string };

const FILM = {
  title: 'Đất Rừng Phương Nam',
  hinhanh: 'https://img.example.com/dat-rung.jpg',
  nameenglish: 'Song of the South',
  trangthai: 'Hoàn Tất (1/1)',
  sotap: '1',
  thoiluong: '120 phút',
  namphathanh: 2023,
  chatluong: 'FHD',
  ngonngu: 'Tiếng Việt',
  daodien: 'Nguyễn Quang Dũng',
  dienvien: 'Hạo Khang, Tuấn Trần',
  theloai: 'Phiêu Lưu, Gia Đình',
  quocgia: 'Quốc Gia Khác',
  descripts: 'Hành trình tìm cha của bé An.',
  category_id: 25,
};

async function add(body: Record<string, unknown> = FILM) {
  const res = await t.request('/api/admin/addphim', { json: body, headers: auth });
  return { res, body: res.status < 300 ? ((await res.json()) as AddFilmResponse) : undefined };
}

beforeEach(async () => {
  t = await createTestApp();
  auth = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
});

describe('POST /api/admin/addphim', () => {
  it("adds a film with the spec's fields, answers 'Thêm thành công' and its slug, and the public site shows it", async () => {
    const { res, body } = await add();
    expect(res.status).toBe(201);
    expect(body).toEqual({ message: 'Thêm thành công', slug: 'dat-rung-phuong-nam', id: expect.any(Number) });
    const detail = (await (await t.request('/api/product/dat-rung-phuong-nam')).json()) as FilmDetailResponse;
    expect(detail.datafilm).toMatchObject({
      title: 'Đất Rừng Phương Nam',
      nameenglish: 'Song of the South',
      hinhanh: 'https://img.example.com/dat-rung.jpg',
      namphathanh: 2023,
      daodien: 'Nguyễn Quang Dũng',
      theloai: 'Phiêu Lưu, Gia Đình',
      quocgia: 'Quốc Gia Khác',
      category_id: 25,
      VIP1: 0,
    });
    // Found by the folded search like any crawled film.
    const search = (await (await t.request('/api/product/search?q=dat%20rung')).json()) as Paginated<FilmCard>;
    expect(search.data.map((f) => f.slug)).toContain('dat-rung-phuong-nam');
  });

  it('gives a second film of the same title a unique slug and accepts VIP2 holders', async () => {
    await add();
    const vip2 = await signedInUser(t, { permissions: 'VIP2' });
    const res = await t.request('/api/admin/addphim', { json: FILM, headers: bearer(vip2.session.token) });
    expect(res.status).toBe(201);
    expect(((await res.json()) as AddFilmResponse).slug).toBe('dat-rung-phuong-nam-2');
  });

  it.each([
    [{ ...FILM, title: '' }, 'title'],
    [{ ...FILM, category_id: 12 }, 'category_id'],
    [{ ...FILM, quocgia: 'Sao Hỏa' }, 'quocgia'],
    [{ ...FILM, theloai: 'Không Có' }, 'theloai'],
    [{ ...FILM, hinhanh: 'javascript:alert(1)' }, 'hinhanh'],
    [{ ...FILM, namphathanh: 'năm nay' }, 'namphathanh'],
    [{ ...FILM, VIP1: 2 }, 'VIP1'],
  ])('refuses bad input with a 400 naming the field (%#)', async (body, field) => {
    const { res } = await add(body);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message.startsWith(`${field}:`)).toBe(true);
    expect(await t.deps.db.$count(films)).toBe(0);
  });

  it('accepts the country and genres by slug and the 35th country', async () => {
    const { res, body } = await add({ title: 'Sa Mạc', category_id: 24, quocgia: 'a-rap-xe-ut', theloai: ['hanh-dong'] });
    expect(res.status).toBe(201);
    const detail = (await (await t.request(`/api/product/${body?.slug}`)).json()) as FilmDetailResponse;
    expect(detail.datafilm.quocgia).toBe('Ả Rập Xê Út');
    expect(detail.datafilm.theloai).toBe('Hành Động');
  });
});

describe('edit, VIP1, delete', () => {
  it('edits the given fields of a film and audits before → after', async () => {
    const { body } = await add();
    const res = await t.request('/api/product/edit_productphim', {
      json: { data: { slug: body?.slug, title: 'Đất Rừng Phương Nam (2023)', chatluong: 'HD', theloai: 'Hành Động' } },
      headers: auth,
    });
    expect(res.status).toBe(200);
    const detail = (await (await t.request(`/api/product/${body?.slug}`)).json()) as FilmDetailResponse;
    expect(detail.datafilm).toMatchObject({
      title: 'Đất Rừng Phương Nam (2023)',
      chatluong: 'HD',
      theloai: 'Hành Động',
      daodien: 'Nguyễn Quang Dũng',
    });
    const [entry] = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'film.update'));
    expect(JSON.parse(entry!.before!)).toMatchObject({ title: 'Đất Rừng Phương Nam', chatluong: 'FHD' });
    expect(JSON.parse(entry!.after!)).toMatchObject({ title: 'Đất Rừng Phương Nam (2023)', chatluong: 'HD' });
  });

  it('answers 404 for an unknown film and 400 without data.slug', async () => {
    expect(
      (await t.request('/api/product/edit_productphim', { json: { data: { slug: 'khong-co', title: 'X' } }, headers: auth })).status,
    ).toBe(404);
    const res = await t.request('/api/product/edit_productphim', { json: { data: { title: 'X' } }, headers: auth });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/^data\.slug:/);
  });

  it('flips VIP1 and the public detail gates the film', async () => {
    const { body } = await add();
    const res = await t.request('/api/product/edit_packageVIP1', { json: { title: body?.slug, VIP1: 1 }, headers: auth });
    expect(res.status).toBe(200);
    const detail = (await (await t.request(`/api/product/${body?.slug}`)).json()) as FilmDetailResponse;
    expect(detail.datafilm.VIP1).toBe(1);
    expect(detail.error1).toBe(true);
    expect((await t.request('/api/product/edit_packageVIP1', { json: { title: body?.slug, VIP1: 'có' }, headers: auth })).status).toBe(400);
  });

  it('deletes one film by ?title= (not taken for an episode page by the catalogue route)', async () => {
    const { body } = await add();
    const res = await t.request(`/api/product/delete_product?title=${body?.slug}`, { method: 'DELETE', headers: auth });
    expect(res.status).toBe(200);
    expect((await t.request(`/api/product/${body?.slug}`)).status).toBe(404);
    expect((await t.request('/api/product/delete_product', { method: 'DELETE', headers: auth })).status).toBe(400);
  });

  it('deletes several films in one batch with their episodes, comments, ratings, views, reports, links and search rows', async () => {
    const a = (await add()).body!;
    const b = (await add({ ...FILM, title: 'Mắt Biếc' })).body!;
    const keep = (await add({ ...FILM, title: 'Bố Già' })).body!;
    const viewer = await createUser(t.deps.db);
    for (const film of [a, b, keep]) {
      await t.request('/api/product/create_xemphim', {
        json: { selectedTitle: film.slug, episode: 1, linkfilm: `https://cdn.example.com/${film.slug}.m3u8` },
        headers: auth,
      });
      await t.deps.db.insert(comments).values({ filmId: film.id, userId: viewer.id, body: 'Hay quá' });
      await t.deps.db.insert(ratings).values({ filmId: film.id, userId: viewer.id, stars: 9 });
      await t.deps.db.insert(viewEvents).values({ filmId: film.id, viewedAt: t.deps.now() });
      await t.deps.db.insert(errorReports).values({ filmId: film.id, episode: 1, reason: 'khac' });
    }
    const ftsCount = async () =>
      ((await t.deps.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM films_fts WHERE films_fts MATCH 'phuong'`)) as [{ n: number }])[0]
        .n;
    expect(await ftsCount()).toBeGreaterThan(0);

    const res = await t.request('/api/product/delete_products', { method: 'DELETE', json: { titles: [a.slug, b.slug] }, headers: auth });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ deleted: 2 });
    expect((await t.deps.db.select({ slug: films.slug }).from(films)).map((f) => f.slug)).toEqual([keep.slug]);
    for (const table of [episodes, comments, ratings, viewEvents, errorReports]) expect(await t.deps.db.$count(table)).toBe(1);
    expect(await t.deps.db.$count(filmGenres)).toBe(2);
    // 'Bố Già' is left; the two deleted films' search rows are gone with them.
    expect(await ftsCount()).toBe(0);
    const [{ n }] = (await t.deps.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM films_fts`)) as [{ n: number }];
    expect(n).toBe(1);
    expect(await t.deps.db.$count(auditLog, eq(auditLog.action, 'film.delete'))).toBe(2);
  });

  it('deletes nothing when one of the titles is unknown (404) and refuses an empty list (400)', async () => {
    const a = (await add()).body!;
    const res = await t.request('/api/product/delete_products', {
      method: 'DELETE',
      json: { titles: [a.slug, 'khong-co'] },
      headers: auth,
    });
    expect(res.status).toBe(404);
    expect(await t.deps.db.$count(films)).toBe(1);
    const empty = await t.request('/api/product/delete_products', { method: 'DELETE', json: { titles: [] }, headers: auth });
    expect(empty.status).toBe(400);
    expect((await errorOf(empty)).message).toMatch(/^titles:/);
  });
});

describe('episodes', () => {
  it('adds an episode that plays on the public site; the same episode on the same server updates it', async () => {
    const film = (await add({ ...FILM, category_id: 24, title: 'Nhà Bà Nữ' })).body!;
    const first = await t.request('/api/product/create_xemphim', {
      json: { selectedTitle: film.slug, episode: 1, linkfilm: 'https://cdn.example.com/nha-ba-nu/1.m3u8' },
      headers: auth,
    });
    expect(first.status).toBe(201);
    expect((await first.json()) as EpisodeWriteResponse).toMatchObject({ message: 'Thêm tập phim mới thành công', updated: false });

    const again = await t.request('/api/product/create_xemphim', {
      json: { selectedTitle: film.slug, episode: '1', linkfilm: 'https://cdn.example.com/nha-ba-nu/1-v2.m3u8' },
      headers: auth,
    });
    expect(again.status).toBe(200);
    expect(((await again.json()) as EpisodeWriteResponse).updated).toBe(true);
    const other = await t.request('/api/product/create_xemphim', {
      json: { selectedTitle: film.slug, episode: 1, linkfilm: 'https://player.example.com/embed/1', server: 'Thuyết Minh' },
      headers: auth,
    });
    expect(other.status).toBe(201);
    expect(await t.deps.db.$count(episodes)).toBe(2);

    const play = (await (await t.request(`/api/product/${film.slug}/tap-1`)).json()) as { data: { linkfilm: string } };
    expect(play.data.linkfilm).toBe('https://cdn.example.com/nha-ba-nu/1-v2.m3u8');

    const list = (await (
      await t.request(`/api/product/admin_episodes?title=${film.slug}`, { headers: auth })
    ).json()) as FilmEpisodesResponse;
    expect(list.data.map((e) => [e.server, e.episode, e.linkfilm])).toEqual([
      ['Thuyết Minh', 1, 'https://player.example.com/embed/1'],
      ['Vietsub #1', 1, 'https://cdn.example.com/nha-ba-nu/1-v2.m3u8'],
    ]);
  });

  it.each([
    [{ selectedTitle: 'x', episode: 1, linkfilm: 'ftp://cdn.example.com/1.m3u8' }, 'linkfilm'],
    [{ selectedTitle: 'x', episode: 1, linkfilm: 'không phải link' }, 'linkfilm'],
    [{ selectedTitle: 'x', episode: 0, linkfilm: 'https://cdn.example.com/1.m3u8' }, 'episode'],
    [{ episode: 1, linkfilm: 'https://cdn.example.com/1.m3u8' }, 'selectedTitle'],
  ])('refuses %j with a 400 naming %s', async (json, field) => {
    const res = await t.request('/api/product/create_xemphim', { json, headers: auth });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message.startsWith(`${field}:`)).toBe(true);
  });

  it('answers 404 for an unknown film', async () => {
    const res = await t.request('/api/product/create_xemphim', {
      json: { selectedTitle: 'khong-co', episode: 1, linkfilm: 'https://cdn.example.com/1.m3u8' },
      headers: auth,
    });
    expect(res.status).toBe(404);
  });

  it('edits and deletes one episode; moving onto a taken episode number is a 409', async () => {
    const film = (await add()).body!;
    const ids: number[] = [];
    for (const episode of [1, 2]) {
      const res = await t.request('/api/product/create_xemphim', {
        json: { selectedTitle: film.slug, episode, linkfilm: `https://cdn.example.com/${episode}.m3u8` },
        headers: auth,
      });
      ids.push(((await res.json()) as EpisodeWriteResponse).episode.id);
    }
    const edit = await t.request('/api/product/edit_xemphim', {
      json: { id: ids[1], episode: 3, linkfilm: 'https://cdn.example.com/3.m3u8' },
      headers: auth,
    });
    expect(edit.status).toBe(200);
    expect(((await edit.json()) as EpisodeWriteResponse).episode).toMatchObject({ episode: 3, linkfilm: 'https://cdn.example.com/3.m3u8' });
    expect((await t.request('/api/product/edit_xemphim', { json: { id: ids[1], episode: 1 }, headers: auth })).status).toBe(409);
    expect((await t.request(`/api/product/delete_xemphim?id=${ids[0]}`, { method: 'DELETE', headers: auth })).status).toBe(200);
    expect((await t.request(`/api/product/delete_xemphim?id=${ids[0]}`, { method: 'DELETE', headers: auth })).status).toBe(404);
    expect((await t.request('/api/product/delete_xemphim?id=abc', { method: 'DELETE', headers: auth })).status).toBe(400);
    expect(await t.deps.db.$count(episodes)).toBe(1);
    const actions = (await t.deps.db.select({ a: auditLog.action }).from(auditLog).orderBy(auditLog.id)).map((r) => r.a);
    expect(actions).toEqual(['film.create', 'episode.create', 'episode.create', 'episode.update', 'episode.delete']);
  });
});

describe('the admin list: GET /api/product', () => {
  it('pages 50 films and filters by folded title', async () => {
    for (let i = 0; i < 55; i++) await add({ title: `Phim Số ${i}`, category_id: 25 });
    await add({ title: 'Đất Rừng Phương Nam', category_id: 25 });
    const page = (await (await t.request('/api/product?page=2', { headers: auth })).json()) as Paginated<FilmCard>;
    expect(page.pagination).toMatchObject({ page: 2, pageSize: 50, totalItems: 56, totalPages: 2 });
    expect(page.data).toHaveLength(6);
    const filtered = (await (await t.request('/api/product?q=dat%20rung', { headers: auth })).json()) as Paginated<FilmCard>;
    expect(filtered.data.map((f) => f.title)).toEqual(['Đất Rừng Phương Nam']);
  });
});
