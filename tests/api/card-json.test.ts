// Card lists built by the database as JSON (services/catalogue/film-card.ts cardJson, cardList) answer exactly
// what toFilmCard makes of the same films' rows: every field, its type and its order, the list's order, and
// the description cut the same way whatever its length or characters.
import { inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { films } from '../../worker/db/schema';
import type { FilmCard, FilmDetailResponse, HomeData, Paginated, SidebarData } from '../../worker/schemas/catalogue';
import { cardColumns, toFilmCard } from '../../worker/services/catalogue/film-card';
import { upsertFilm } from '../../worker/services/films/film-writer';
import { refreshRelated } from '../../worker/services/related/related';
import { createTestApp, type TestApp } from '../helpers/app';
import { seedCatalogue } from '../helpers/catalogue-fixture';

let t: TestApp;

const word = 'Phim ';
const DESCRIPTIONS = {
  short: 'Ngắn gọn.',
  exactly200: 'a'.repeat(200),
  exactly201: 'b'.repeat(201),
  longWords: word.repeat(80),
  noSpace: 'x'.repeat(400),
  // Characters outside the BMP count two UTF-16 units in JavaScript, one character in SQLite: a card counts
  // characters (code points), so 183 of them are not cut, and a cut never splits one.
  emoji: `${'🎬 '.repeat(90)}hết`,
  emojiLong: '🎬 '.repeat(150),
  // White space other than ' ' is no place to cut at, but is dropped from the end of a cut as trimEnd() drops it.
  otherSpaces: `${'chữ\u00a0'.repeat(49)}ab\n\t\u3000\u2028${'z'.repeat(50)}`,
  quotes: `"Trích dẫn" \\ và </script> ${'chữ '.repeat(70)}`,
};

beforeAll(async () => {
  t = await createTestApp();
  const now = Date.now();
  await seedCatalogue(t.deps.db, now - 60_000);
  // Newest of all, so they lead the series rail; one VIP-only, one with no year.
  for (const [i, [key, description]] of Object.entries(DESCRIPTIONS).entries()) {
    await upsertFilm(
      t.deps.db,
      {
        title: `Phim mô tả ${key}`,
        categoryId: 24,
        description,
        year: i === 0 ? null : 2000 + i,
        vipOnly: i === 1,
        genreSlugs: ['hanh-dong'],
        countrySlugs: ['han-quoc'],
      },
      { now: () => now - i * 1000 },
    );
  }
});

async function expectRowCards(cards: FilmCard[]) {
  const rows = await t.deps.db
    .select(cardColumns)
    .from(films)
    .where(
      inArray(
        films.id,
        cards.map((c) => c.id),
      ),
    );
  const byId = new Map(rows.map((r) => [r.id, toFilmCard(r)]));
  for (const card of cards) {
    const expected = byId.get(card.id);
    expect(card).toEqual(expected);
    expect(Object.keys(card)).toEqual(Object.keys(expected!));
  }
}

describe('card lists built by the database', () => {
  it('answer the home rails and trending lists exactly as toFilmCard would, in their order', async () => {
    const home = (await (await t.request('/api/product/product-home')).json()) as HomeData;
    const series = home.phimbomoicapnhat;
    expect(series.slice(0, Object.keys(DESCRIPTIONS).length).map((c) => c.title)).toEqual(
      Object.keys(DESCRIPTIONS).map((k) => `Phim mô tả ${k}`),
    );
    const lists = [
      home.phimhot,
      home.phimtrending.day,
      home.phimtrending.week,
      home.phimtrending.month,
      series,
      home.phimlemoicapnhat,
      home.phimdahoanthanh,
      home.phimhoathinh,
      home.phimtamlytimcam,
      home.phimvientuong,
      home.phimhanhdong,
      home.phimsapchieu,
    ];
    for (const list of lists) await expectRowCards(list);
    const byTitle = new Map(series.map((c) => [c.title, c]));
    expect(byTitle.get('Phim mô tả short')?.descripts).toBe('Ngắn gọn.');
    expect(byTitle.get('Phim mô tả short')?.namphathanh).toBeNull();
    expect(byTitle.get('Phim mô tả exactly200')?.descripts).toBe('a'.repeat(200));
    expect(byTitle.get('Phim mô tả exactly200')?.VIP1).toBe(1);
    expect(byTitle.get('Phim mô tả exactly201')?.descripts).toBe(`${'b'.repeat(200)}…`);
    expect(byTitle.get('Phim mô tả noSpace')?.descripts).toBe(`${'x'.repeat(200)}…`);
    expect(byTitle.get('Phim mô tả emoji')?.descripts).toBe(DESCRIPTIONS.emoji);
    expect(byTitle.get('Phim mô tả emojiLong')?.descripts).toBe(`${'🎬 '.repeat(99)}🎬…`);
    expect(byTitle.get('Phim mô tả otherSpaces')?.descripts).toBe(`${'chữ\u00a0'.repeat(49)}ab…`);
    for (const card of series) expect(Array.from(card.descripts).length).toBeLessThanOrEqual(201);
  });

  it('answer the sidebar with the home sidebar films', async () => {
    const sidebar = (await (await t.request('/api/product/sidebar')).json()) as SidebarData;
    const home = (await (await t.request('/api/product/product-home')).json()) as HomeData;
    expect(sidebar.phimhanhdong.map((f) => f.id)).toEqual(home.phimhanhdong.map((f) => f.id));
    expect(sidebar.phimhanhdong[0]).toEqual({
      id: home.phimhanhdong[0]!.id,
      slug: home.phimhanhdong[0]!.slug,
      title: home.phimhanhdong[0]!.title,
      hinhanh: home.phimhanhdong[0]!.hinhanh,
      thumb: home.phimhanhdong[0]!.thumb,
      namphathanh: home.phimhanhdong[0]!.namphathanh,
      views: home.phimhanhdong[0]!.views,
      VIP1: home.phimhanhdong[0]!.VIP1,
    });
  });
});

describe('every other card list', () => {
  const page = async (path: string) => {
    const res = await t.request(path);
    expect(res.status, path).toBe(200);
    return ((await res.json()) as Paginated<FilmCard>).data;
  };

  it('listings (with and without filters, any page), search, recommendations and the whole catalogue', async () => {
    const series = await page('/api/product/product-phimbo');
    expect(series.slice(0, Object.keys(DESCRIPTIONS).length).map((c) => c.title)).toEqual(
      Object.keys(DESCRIPTIONS).map((k) => `Phim mô tả ${k}`),
    );
    const lists = [
      series,
      await page('/api/product/product-phimbo?page=2'),
      await page('/api/product/product-phimhanhdong?country=han-quoc&sort=views'),
      await page(`/api/product/search?q=${encodeURIComponent('phim mô tả')}&limit=20`),
      await page('/api/product/search?q=ph&limit=20&page=2'),
    ];
    await refreshRelated(t.deps.db, Date.now());
    const detail = (await (await t.request(`/api/product/${series[0]!.slug}`)).json()) as FilmDetailResponse;
    // A related card is a card plus its reason (docs/decisions/1090).
    lists.push(detail.recommended.map(({ reason: _, ...card }) => card));
    for (const list of lists) {
      expect(list.length).toBeGreaterThan(0);
      await expectRowCards(list);
    }
    const filtered = lists[2]!;
    expect(filtered.map((c) => c.title)).toEqual(expect.arrayContaining(Object.keys(DESCRIPTIONS).map((k) => `Phim mô tả ${k}`)));
    const found = lists[3]!;
    expect(found.map((c) => c.title).sort()).toEqual(
      Object.keys(DESCRIPTIONS)
        .map((k) => `Phim mô tả ${k}`)
        .sort(),
    );
  });

  it('a search with no match and a page past the end are empty lists with their totals', async () => {
    const none = (await (await t.request('/api/product/search?q=khongcophimnao')).json()) as Paginated<FilmCard>;
    expect(none.data).toEqual([]);
    expect(none.pagination.totalItems).toBe(0);
    const past = (await (
      await t.request(`/api/product/search?q=${encodeURIComponent('phim mô tả')}&limit=5&page=9`)
    ).json()) as Paginated<FilmCard>;
    expect(past.data).toEqual([]);
    expect(past.pagination.totalItems).toBe(Object.keys(DESCRIPTIONS).length);
  });
});
