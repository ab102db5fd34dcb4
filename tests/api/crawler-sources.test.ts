// Issue 32: one film, every source. Two stand-in sources built from the real responses in ../shared/source-samples/
// (an OPhim v1 source from the real list and detail, a KKPhim source from the real detail and KKPhim's copies of
// OPhim's films), with the traps the real data has: seasons of one TMDB id, null and junk seasons, empty and '0' ids,
// remakes, one film under two slugs, one slug for two films. Each film is one film with both sources' servers.
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { crawlLog, episodes, filmSources, films, mergeSuggestions, sources } from '../../worker/db/schema';
import type { FilmDetailResponse } from '../../worker/schemas/catalogue';
import { runCrawl } from '../../worker/services/crawler/index';
import { createTestApp, type TestApp } from '../helpers/app';
import { bearer, signedInUser } from '../helpers/auth';
import { ophimFilm, type Standin, startOphimStandin } from '../helpers/ophim-standin';
import {
  haveSourceSamples,
  kkphimDetail,
  kkphimTwin,
  ophimFilmsFromList,
  ophimLegacyDetail,
  ophimV1Detail,
  SKIP_REASON,
} from '../helpers/source-samples';

const open: Standin[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

const OPHIM_CDN = (slug: string, n: number) => `https://vip.opstream13.com/${slug}/${n}/index.m3u8`;
const KK_CDN = (slug: string, n: number) => `https://s4.phim1280.tv/${slug}/${n}/index.m3u8`;

/** The two sources: OPhim v1 (the real list, the real detail, and films of its own) and KKPhim (its copies and the real detail). */
async function twoSources() {
  const ophim = await startOphimStandin({ dialect: 'v1', pageSize: 10 });
  const kkphim = await startOphimStandin({ dialect: 'kkphim', pageSize: 10 });
  open.push(ophim, kkphim);
  const fromList = ophimFilmsFromList(OPHIM_CDN);
  const bySlug = (slug: string) => fromList.find((f) => f.movie.slug === slug)!;
  // The real v1 detail replaces its list entry's stand-in.
  const detail = ophimV1Detail();
  ophim.films.push(...fromList.map((f) => (f.movie.slug === detail.movie.slug ? detail : f)));
  ophim.films.push(
    // A remake's slug, and a film that KKPhim has under another season (the real KKPhim detail says season 2).
    ophimFilm({
      slug: 'vua-su-tu',
      name: 'Vua Sư Tử',
      origin_name: 'The Lion King',
      type: 'single',
      year: 2019,
      tmdb: { type: 'movie', id: '420818', season: null },
      imdb: { id: 'tt6105098' },
    }),
    ophimFilm({
      slug: 'ngoi-truong-xac-song',
      name: 'Ngôi Trường Xác Sống',
      origin_name: 'All of Us Are Dead',
      year: 2022,
      tmdb: { type: 'tv', id: '99966', season: 1 },
      imdb: { id: 'tt14169960' },
    }),
  );
  kkphim.films.push(
    kkphimDetail(),
    // Shared, as KKPhim really differs: the same TMDB ids with another slug (one film under two slugs)…
    kkphimTwin(bySlug('co-di-ma-lay-chong-toi'), KK_CDN, { slug: 'co-di-ma-lay-chong-toi-2024', episodes: 5 }),
    kkphimTwin(bySlug('nu-hoang-nuoc-mat'), KK_CDN),
    kkphimTwin(detail, KK_CDN, { episodes: 6 }),
    // …ids empty, '0' or missing: found by the original name, year and kind…
    kkphimTwin(bySlug('cong-anh-ma-chay'), KK_CDN, { tmdb: { type: 'tv', id: '', season: null }, imdb: { id: '' } }),
    kkphimTwin(bySlug('cua-hang-sat-thu'), KK_CDN, { tmdb: { type: 'tv', id: '0', season: 1 }, imdb: { id: null } }),
    // …a junk season (199 at OPhim) and a missing one (null at OPhim, 1 here).
    kkphimTwin(bySlug('tinh-yeu-199-muon-mai-mai-yeu'), KK_CDN, { tmdb: { type: 'tv', id: '225930', season: null } }),
    kkphimTwin(bySlug('con-trai-ban-me'), KK_CDN, { tmdb: { type: 'tv', id: '241454', season: 1 } }),
    // Another season of a series OPhim has (The Boys 4 there; 3 here): another film.
    kkphimTwin(bySlug('sieu-anh-hung-pha-hoai-phan-4'), KK_CDN, {
      slug: 'sieu-anh-hung-pha-hoai-phan-3',
      name: 'Siêu Anh Hùng Phá Hoại (Phần 3)',
      tmdb: { type: 'tv', id: '76479', season: 3 },
      imdb: { id: 'tt1190634' },
    }),
    // The remake under the same slug: another film.
    {
      ...kkphimTwin(ophim.films.find((f) => f.movie.slug === 'vua-su-tu')!, KK_CDN),
      movie: {
        ...kkphimTwin(ophim.films.find((f) => f.movie.slug === 'vua-su-tu')!, KK_CDN).movie,
        year: 1994,
        tmdb: { type: 'movie', id: '8587', season: null },
        imdb: { id: 'tt0110357' },
        type: 'hoathinh',
      },
    },
  );
  return { ophim, kkphim, detail };
}

async function app(standins: Standin[]) {
  return createTestApp({
    config: {
      CRAWL_SOURCES: standins.map((s) => s.origin),
      CRAWL_SOURCE: standins.map((s) => s.url).join(','),
      CRAWL_DELAY_MS: 0,
      CRAWL_CONCURRENCY: 4,
    },
  });
}

async function crawl(t: TestApp, source: Standin, force = false) {
  const lines: string[] = [];
  const summary = await runCrawl(
    { db: t.deps.db, fetch: globalThis.fetch, config: t.deps.config, now: t.deps.now, log: (l) => lines.push(l) },
    { source: source.url, trigger: 'cli', retryBaseMs: 1, force },
  );
  return { summary, lines };
}

async function detailOf(t: TestApp, slug: string): Promise<FilmDetailResponse> {
  const res = await t.request(`/api/product/${slug}`);
  expect(res.status, slug).toBe(200);
  return (await res.json()) as FilmDetailResponse;
}

describe.skipIf(!haveSourceSamples)(`two sources built from the real samples${haveSourceSamples ? '' : ` (${SKIP_REASON})`}`, () => {
  it('joins each shared film into one film with both sources’ servers, and keeps apart what only looks alike', async () => {
    const { ophim, kkphim, detail } = await twoSources();
    const t = await app([ophim, kkphim]);
    const first = await crawl(t, ophim);
    expect(first.summary).toMatchObject({ filmsNew: ophim.films.length, filmsMerged: 0, filmsFailed: 0 });
    const second = await crawl(t, kkphim);
    // Seven copies join OPhim's films; the real KKPhim detail (season 2), The Boys 3 and the 1994 Lion King do not.
    expect(second.summary).toMatchObject({ filmsMerged: 7, filmsNew: 3, filmsFailed: 0 });
    expect(await t.deps.db.$count(films)).toBe(ophim.films.length + 3);

    // The families were told from their answers; each source's films carry its name on their servers.
    const registered = await t.deps.db.select().from(sources).orderBy(sources.priority);
    expect(registered.map((s) => [s.name, s.family])).toEqual([
      ['OPhim', 'ophim-v1'],
      ['KKPhim', 'kkphim'],
    ]);

    // One film under two slugs: OPhim's slug stays, both sources' servers, the first source's first.
    const shared = await detailOf(t, 'co-di-ma-lay-chong-toi');
    expect(shared.datafilm.servers.map((s) => [s.server_name, s.source?.name, s.linkfilms.length])).toEqual([
      ['Vietsub #1 · OPhim', 'OPhim', 3],
      ['#Hà Nội (Vietsub) · KKPhim', 'KKPhim', 5],
    ]);
    // 'Tập 01' and '1' are one episode; the source with more episodes adds them.
    expect(shared.datafilm.servers[1]!.linkfilms.map((e) => e.episode)).toEqual([1, 2, 3, 4, 5]);
    expect(shared.datafilm.servers[1]!.linkfilms[0]!.link_m3u8).toBe(KK_CDN('co-di-ma-lay-chong-toi-2024', 1));
    expect((await t.request('/api/product/co-di-ma-lay-chong-toi-2024')).status).toBe(404);

    // The real OPhim v1 detail with KKPhim's six episodes.
    const real = await detailOf(t, detail.movie.slug);
    expect(real.datafilm.servers.map((s) => s.linkfilms.length)).toEqual([3, 6]);
    expect(real.datafilm.title).toBe('Anh Cũng Có Ngày Này');

    // Empty and '0' ids, a junk season and a missing one: found by the original name and year.
    for (const slug of ['cong-anh-ma-chay', 'cua-hang-sat-thu', 'tinh-yeu-199-muon-mai-mai-yeu', 'con-trai-ban-me']) {
      expect(
        (await detailOf(t, slug)).datafilm.servers.map((s) => s.source?.name),
        slug,
      ).toEqual(['OPhim', 'KKPhim']);
    }
    // Seasons of one TMDB id are different films; so are remakes (the 1994 one under the slug taken: 'vua-su-tu-2').
    const boys = await t.deps.db
      .select({ slug: films.slug, season: films.tmdbSeason })
      .from(films)
      .where(eq(films.tmdbId, '76479'))
      .orderBy(films.tmdbSeason);
    expect(boys).toEqual([
      { slug: 'sieu-anh-hung-pha-hoai-phan-3', season: 3 },
      { slug: 'sieu-anh-hung-pha-hoai-phan-4', season: 4 },
    ]);
    const lions = await t.deps.db.select({ slug: films.slug, year: films.year }).from(films).where(eq(films.originKey, 'the lion king'));
    expect(lions.sort((a, b) => a.year! - b.year!)).toEqual([
      { slug: 'vua-su-tu-2', year: 1994 },
      { slug: 'vua-su-tu', year: 2019 },
    ]);

    // The real KKPhim detail says season 2 of All of Us Are Dead, OPhim's film season 1: not merged (a wrong merge
    // is worse than a duplicate), the doubt logged and offered to an admin.
    const dead = await t.deps.db.select({ id: films.id, slug: films.slug }).from(films).where(eq(films.originKey, 'all of us are dead'));
    expect(dead.map((d) => d.slug).sort()).toEqual(['ngoi-truong-xac-song', 'ngoi-truong-xac-song-2']);
    const [suggestion] = await t.deps.db.select().from(mergeSuggestions);
    expect([suggestion!.filmA, suggestion!.filmB].sort()).toEqual(dead.map((d) => d.id).sort());
    expect(suggestion!.reason).toMatch(/mùa \(2 và 1\)|mùa \(1 và 2\)/);
    const doubts = await t.deps.db.select().from(crawlLog).where(eq(crawlLog.level, 'doubt'));
    expect(doubts.map((d) => d.message).join('\n')).toMatch(/ngoi-truong-xac-song: không gộp với phim #\d+: .*mùa/);

    // Listings, search and the sitemap show each film once.
    const listing = (await (await t.request('/api/product/product-phimbo?page=1')).json()) as { data: { slug: string }[] };
    expect(listing.data.filter((f) => f.slug.startsWith('co-di-ma-lay-chong-toi'))).toHaveLength(1);
    const search = (await (await t.request('/api/product/search?q=co%20di%20ma%20lay')).json()) as { data: { slug: string }[] };
    expect(search.data.map((f) => f.slug)).toEqual(['co-di-ma-lay-chong-toi']);
    const sitemap = await (await t.request('/sitemaps/films-1.xml')).text();
    expect(sitemap.match(/co-di-ma-lay-chong-toi/g)).toHaveLength(1);
    const total = (await t.deps.db.all<{ n: number }>(sql`select count(*) as n from films`))[0]!.n;
    expect(sitemap.match(/<url>/g)).toHaveLength(total);

    // A re-crawl of both changes nothing.
    expect((await crawl(t, ophim)).summary).toMatchObject({ filmsNew: 0, filmsMerged: 0, filmsUpdated: 0 });
    expect((await crawl(t, kkphim)).summary).toMatchObject({ filmsNew: 0, filmsMerged: 0, filmsUpdated: 0 });
  });

  it('the film’s own fields follow the sources’ priority, which an admin sets; an admin’s edits and deletions win over both', async () => {
    const { ophim, kkphim } = await twoSources();
    const twin = kkphim.films.find((f) => f.movie.slug === 'nu-hoang-nuoc-mat')!;
    twin.movie.name = 'Nữ Hoàng Của Những Giọt Nước Mắt';
    twin.movie.content = '<p>Bản giới thiệu của KKPhim.</p>';
    const t = await app([ophim, kkphim]);
    await crawl(t, ophim);
    await crawl(t, kkphim);
    expect((await detailOf(t, 'nu-hoang-nuoc-mat')).datafilm.title).toBe('Nữ Hoàng Nước Mắt');

    const admin = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
    const list = (await (await t.request('/api/admin/sources', { headers: admin })).json()) as {
      data: { id: number; name: string; priority: number }[];
    };
    const kk = list.data.find((s) => s.name === 'KKPhim')!;
    const op = list.data.find((s) => s.name === 'OPhim')!;
    const patched = await t.request(`/api/admin/sources/${kk.id}`, {
      method: 'PATCH',
      json: { priority: op.priority - 1 },
      headers: admin,
    });
    expect(patched.status).toBe(200);
    // KKPhim leads now: its servers come first at once, its fields at the next crawl.
    expect((await detailOf(t, 'nu-hoang-nuoc-mat')).datafilm.servers[0]!.source?.name).toBe('KKPhim');
    await crawl(t, ophim);
    await crawl(t, kkphim);
    const led = await detailOf(t, 'nu-hoang-nuoc-mat');
    expect(led.datafilm.title).toBe('Nữ Hoàng Của Những Giọt Nước Mắt');
    expect(led.datafilm.descripts).toBe('Bản giới thiệu của KKPhim.');

    // An admin's title stays whatever either source says later.
    const edited = await t.request('/api/product/edit_productphim', {
      json: { data: { slug: 'nu-hoang-nuoc-mat', title: 'Nữ Hoàng Nước Mắt (bản chuẩn)' } },
      headers: admin,
    });
    expect(edited.status).toBe(200);
    await crawl(t, kkphim, true);
    await crawl(t, ophim, true);
    expect((await detailOf(t, 'nu-hoang-nuoc-mat')).datafilm.title).toBe('Nữ Hoàng Nước Mắt (bản chuẩn)');

    // A film an admin deleted stays deleted: neither source brings it back, whatever slug or id it comes under.
    const deleted = await t.request('/api/product/delete_product?title=co-di-ma-lay-chong-toi', { method: 'DELETE', headers: admin });
    expect(deleted.status).toBe(200);
    await crawl(t, kkphim, true);
    await crawl(t, ophim, true);
    expect((await t.request('/api/product/co-di-ma-lay-chong-toi')).status).toBe(404);
    expect(await t.deps.db.$count(films, sql`${films.originKey} = 'marry my husband'`)).toBe(0);
  });

  it('a film whose source key is another source’s is updated in place: the real legacy OPhim detail (no ids) stays one film', async () => {
    const legacy = await startOphimStandin({ dialect: 'legacy' });
    open.push(legacy);
    legacy.films.push(ophimLegacyDetail());
    const t = await app([legacy]);
    expect((await crawl(t, legacy)).summary).toMatchObject({ filmsNew: 1 });
    const [film] = await t.deps.db.select().from(films);
    // No TMDB or IMDb id in 2022's legacy API: the original name, year and kind are its identity.
    expect(film).toMatchObject({
      tmdbId: null,
      imdbId: null,
      originKey: 'mushoku tensei jobless reincarnation',
      year: 2021,
      kind: 'series',
    });
    expect(await t.deps.db.$count(episodes)).toBe(24);
    expect(await t.deps.db.$count(filmSources)).toBe(1);
  });
});

describe('a source answering garbage: a clear line in the crawl’s log, nothing else merged or lost', () => {
  it('garbage pages, a wrong shape, an id of the wrong type and the same film twice on a page are each said once', async () => {
    const good = await startOphimStandin({ dialect: 'v1', pageSize: 6 });
    const bad = await startOphimStandin({ dialect: 'kkphim', pageSize: 6 });
    open.push(good, bad);
    const shared = (n: number) =>
      ophimFilm({
        slug: `phim-chung-${n}`,
        origin_name: `Shared ${n}`,
        year: 2023,
        tmdb: { type: 'tv', id: String(5000 + n), season: 1 },
        imdb: { id: null },
      });
    for (let n = 1; n <= 4; n++) good.films.push(shared(n));
    bad.films.push(
      { ...shared(1), movie: { ...shared(1).movie, _id: { $oid: 'abc' } } },
      { ...shared(2), movie: { ...shared(2).movie, tmdb: { type: 'tv', id: { nested: true }, season: 1 } } },
      shared(3),
      ophimFilm({ slug: 'hong', origin_name: 'Broken' }),
      ophimFilm({ slug: 'sai-hinh', origin_name: 'Wrong shape' }),
      ophimFilm({ slug: 'rieng', origin_name: 'Only here', tmdb: { type: 'movie', id: '777' }, type: 'single' }),
      // Page 2, which answers garbage.
      ophimFilm({ slug: 'trang-hai', origin_name: 'Page two' }),
    );
    bad.intercept = (path, query) => {
      if (path === '/phim/hong') return { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>lỗi</html>' };
      if (path === '/phim/sai-hinh')
        return { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ status: true, movie: [1, 2] }) };
      if (path.startsWith('/danh-sach/') && query.get('page') === '2')
        return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"items": "nope"' };
      if (path.startsWith('/danh-sach/') && query.get('page') !== '2') {
        // Page 1 lists the shared film 3 twice.
        const items = bad.films.slice(0, 6).map((f) => ({ _id: f.movie._id, slug: f.movie.slug, tmdb: f.movie.tmdb }));
        items.push({ ...items[2]! });
        return {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ status: true, items, pagination: { totalItems: 7, totalItemsPerPage: 6, currentPage: 1, totalPages: 2 } }),
        };
      }
      return undefined;
    };
    const t = await app([good, bad]);
    await crawl(t, good);
    const { summary } = await crawl(t, bad);
    // Shared 1 (its _id an object: keyed by its slug), 2 (its TMDB id an object: found by name) and 3 join; 'rieng' is new.
    expect(summary).toMatchObject({ filmsMerged: 3, filmsNew: 1, filmsFailed: 2, pagesFailed: 1 });
    expect(await t.deps.db.$count(films)).toBe(5);
    const lines = (await t.deps.db.select({ message: crawlLog.message }).from(crawlLog).where(eq(crawlLog.level, 'error'))).map(
      (l) => l.message,
    );
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/film phim-chung-1: _id: expected a string or number, got object: the slug keys this film/),
        expect.stringMatching(/film phim-chung-2: tmdb\.id: expected a string or number, got object/),
        expect.stringMatching(/film phim-chung-3 is listed twice; the second is ignored/),
        expect.stringMatching(/film hong failed: .*not JSON/),
        expect.stringMatching(/film sai-hinh failed: invalid movie/),
        expect.stringMatching(/list danh-sach\/phim-moi-cap-nhat page 2: .*JSON/),
      ]),
    );
    // Every good film of the first source is whole, with both sources' servers where they share it.
    for (let n = 1; n <= 3; n++) {
      const d = await detailOf(t, `phim-chung-${n}`);
      expect(d.datafilm.servers.map((s) => s.source?.name)).toEqual(['OPhim', 'OPhim', 'KKPhim', 'KKPhim']);
    }
    expect((await detailOf(t, 'phim-chung-4')).datafilm.servers.map((s) => s.source?.name)).toEqual(['OPhim', 'OPhim']);
    // The errors are the source's, in the last 24 hours, where an admin sees them.
    const admin = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
    const overview = (await (await t.request('/api/admin/sources', { headers: admin })).json()) as {
      data: { name: string; errors24h: number; films: number }[];
    };
    expect(overview.data.find((s) => s.name === 'KKPhim')).toMatchObject({ errors24h: lines.length, films: 4 });
    expect(overview.data.find((s) => s.name === 'OPhim')).toMatchObject({ errors24h: 0, films: 4 });
  });
});

describe('a source that stops answering', () => {
  it('after three failed crawls in a row it is backed off and "Không phản hồi", its servers last; it resumes when it answers', async () => {
    const first = await startOphimStandin({ dialect: 'v1' });
    const second = await startOphimStandin({ dialect: 'kkphim' });
    open.push(first, second);
    const film = ophimFilm({ slug: 'song-song', origin_name: 'Both', year: 2024, tmdb: { type: 'movie', id: '4242' }, type: 'single' });
    first.films.push(film);
    second.films.push({ ...film, movie: { ...film.movie, _id: 'kk-1' } });
    const t = await app([first, second]);
    await crawl(t, first);
    await crawl(t, second);
    const order = async () => (await detailOf(t, 'song-song')).datafilm.servers.map((s) => [s.source?.name, s.source?.down]);
    expect(await order()).toEqual([
      ['OPhim', false],
      ['OPhim', false],
      ['KKPhim', false],
      ['KKPhim', false],
    ]);

    // The first source's API goes down.
    first.intercept = () => ({ status: 503, body: 'down' });
    for (let i = 0; i < 3; i++) await expect(crawl(t, first)).rejects.toThrow(/no list page could be read/);
    const [down] = await t.deps.db.select().from(sources).where(eq(sources.name, 'OPhim'));
    expect(down).toMatchObject({ down: true, failures: 3, answering: false });
    expect(down!.backoffUntil).toBeGreaterThan(t.deps.now());
    // Nothing is deleted; its servers go last, so the player tries the second source's first.
    expect(await order()).toEqual([
      ['KKPhim', false],
      ['KKPhim', false],
      ['OPhim', true],
      ['OPhim', true],
    ]);
    // "Crawl now" of every source leaves it out while it is backed off.
    const admin = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
    const started = (await (await t.request('/api/crawl', { json: { category: 'Hành Động' }, headers: admin })).json()) as {
      runIds: number[];
    };
    expect(started.runIds).toHaveLength(1);
    await t.background();
    const overview = (await (await t.request('/api/admin/sources', { headers: admin })).json()) as {
      data: { name: string; down: boolean }[];
    };
    expect(overview.data.find((s) => s.name === 'OPhim')!.down).toBe(true);

    // It answers again: the admin's check (or the scheduler's, once the delay is over) resumes it by itself.
    first.intercept = undefined;
    const check = (await (await t.request(`/api/admin/sources/${down!.id}/check`, { method: 'POST', headers: admin })).json()) as {
      data: { answering: boolean }[];
    };
    expect(check.data[0]!.answering).toBe(true);
    expect((await t.deps.db.select().from(sources).where(eq(sources.id, down!.id)))[0]).toMatchObject({
      down: false,
      failures: 0,
      backoffUntil: null,
    });
    expect((await order())[0]).toEqual(['OPhim', false]);
  });
});
