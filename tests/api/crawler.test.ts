import { asc, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../worker/config';
import type { Db } from '../../worker/db/client';
import { openMigratedDatabase } from '../../worker/db/node-client';
import { crawlRuns, episodes, films } from '../../worker/db/schema';
import { CrawlBusyError, CrawlRequestError, CrawlRunError, runCrawl, type CrawlOptions } from '../../worker/services/crawler/index';
import { ophimFilm, startOphimStandin, type Standin, type StandinOptions, type StandinReply } from '../helpers/ophim-standin';

const open: Standin[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function standin(options: StandinOptions = {}) {
  const s = await startOphimStandin(options);
  open.push(s);
  return s;
}

async function setup(options: StandinOptions = {}, allowed?: string[]) {
  const source = await standin(options);
  const { db, client } = await openMigratedDatabase(':memory:');
  const config = { ...loadConfig({ APP_ENV: 'test' }), CRAWL_SOURCES: allowed ?? [source.origin], CRAWL_DELAY_MS: 0, CRAWL_CONCURRENCY: 4 };
  const lines: string[] = [];
  const crawl = (opts: Partial<CrawlOptions> = {}) =>
    runCrawl(
      { db, fetch: globalThis.fetch, config, now: Date.now, log: (l) => lines.push(l) },
      { source: source.url, trigger: 'cli', retryBaseMs: 1, ...opts },
    );
  return { source, db, client, config, crawl, lines };
}

async function filmBySlug(db: Db, slug: string) {
  return db.query.films.findFirst({
    where: eq(films.slug, slug),
    with: {
      episodes: { orderBy: [asc(episodes.serverName), asc(episodes.episode)] },
      genres: { with: { genre: true } },
      countries: { with: { country: true } },
      category: true,
    },
  });
}

describe('runCrawl against a legacy OPhim source', () => {
  it('imports films with every field mapped, linked to genres/countries, episodes on two servers, posters resolved', async () => {
    const { source, db, crawl } = await setup();
    source.films.push(
      ophimFilm(
        {
          slug: 'hau-due-mat-troi',
          name: 'Hậu Duệ Mặt Trời',
          origin_name: 'Descendants of the Sun',
          content: '<p>Đại úy Yoo Si Jin &amp; bác sĩ Kang Mo Yeon&nbsp;gặp nhau.<br/>Tình yêu nảy nở &lt;3</p><script>alert(1)</script>',
          episode_current: 'Hoàn Tất (16/16)',
          episode_total: '16 Tập',
          time: '60 phút/tập',
          year: 2016,
          quality: 'FHD',
          lang: 'Vietsub + Thuyết Minh',
          actor: ['Song Joong Ki', '  Song Hye Kyo'],
          director: ['Lee Eung Bok'],
          category: [
            { id: '1', name: 'Tình Cảm', slug: 'tinh-cam' },
            { id: '2', name: 'Hành Động', slug: 'hanh-dong' },
          ],
          country: [{ id: '3', name: 'Hàn Quốc', slug: 'han-quoc' }],
        },
        { episodeCount: 16 },
      ),
      ophimFilm({
        slug: 'bo-gia',
        name: 'Bố Già',
        type: 'single',
        episode_current: 'Full',
        country: [{ name: 'Việt Nam', slug: 'viet-nam' }],
      }),
      ophimFilm({ slug: 'running-man', name: 'Running Man', type: 'tvshows', status: 'ongoing', episode_current: 'Tập 5' }),
      ophimFilm(
        { slug: 'sap-chieu', name: 'Sắp Chiếu', type: 'single', status: 'trailer', episode_current: 'Trailer' },
        {
          episodes: [{ server_name: 'Vietsub #1', server_data: [{ name: '', slug: '', filename: '', link_embed: '', link_m3u8: '' }] }],
        },
      ),
    );

    const summary = await crawl();
    expect(summary).toMatchObject({ pages: 1, filmsNew: 4, filmsUpdated: 0, filmsSkipped: 0, filmsFailed: 0 });

    const film = await filmBySlug(db, 'hau-due-mat-troi');
    expect(film).toMatchObject({
      title: 'Hậu Duệ Mặt Trời',
      nameEnglish: 'Descendants of the Sun',
      statusText: 'Hoàn Tất (16/16)',
      status: 'completed',
      episodeCountText: '16 Tập',
      duration: '60 phút/tập',
      year: 2016,
      quality: 'FHD',
      language: 'Vietsub + Thuyết Minh',
      actors: 'Song Joong Ki, Song Hye Kyo',
      director: 'Lee Eung Bok',
      categoryId: 24,
      genreNames: 'Tình Cảm, Hành Động',
      countryNames: 'Hàn Quốc',
      posterUrl: `${source.origin}/uploads/movies/hau-due-mat-troi-poster.jpg`,
      thumbUrl: `${source.origin}/uploads/movies/hau-due-mat-troi-thumb.jpg`,
      titleFolded: 'hau due mat troi',
      searchText: 'hau due mat troi descendants of the sun',
      vipOnly: false,
      sourceKey: `${source.origin}:${source.films[0]!.movie._id}`,
    });
    expect(film!.description).toBe('Đại úy Yoo Si Jin & bác sĩ Kang Mo Yeon gặp nhau. Tình yêu nảy nở <3');
    expect(film!.sourceChecksum).toMatch(/^[0-9a-f]{64}$/);
    expect(film!.genres.map((g) => g.genre.slug).sort()).toEqual(['hanh-dong', 'tinh-cam']);
    expect(film!.countries.map((c) => c.country.slug)).toEqual(['han-quoc']);
    expect(film!.episodes).toHaveLength(32);
    // Each server carries its source's name (detected from the responses: an OPhim-shaped legacy list).
    expect(new Set(film!.episodes.map((e) => e.serverName))).toEqual(new Set(['Vietsub #1 · OPhim', 'Thuyết Minh #2 · OPhim']));
    const first = film!.episodes.find((e) => e.serverName === 'Vietsub #1 · OPhim' && e.episode === 1)!;
    expect(first).toMatchObject({
      name: 'Tập 01',
      m3u8Url: 'https://cdn.example.com/hau-due-mat-troi/0/1/index.m3u8',
      embedUrl: 'https://player.example.com/share/hau-due-mat-troi-0-1',
    });
    expect(film!.episodes.filter((e) => e.serverName === 'Vietsub #1 · OPhim').map((e) => e.episode)).toEqual(
      Array.from({ length: 16 }, (_, i) => i + 1),
    );

    const single = await filmBySlug(db, 'bo-gia');
    expect(single).toMatchObject({ categoryId: 25, countryNames: 'Quốc Gia Khác' });
    expect(single!.episodes.map((e) => [e.serverName, e.episode, e.name])).toEqual([
      ['Thuyết Minh #2 · OPhim', 1, 'Full'],
      ['Vietsub #1 · OPhim', 1, 'Full'],
    ]);
    expect(await filmBySlug(db, 'running-man')).toMatchObject({ categoryId: 26, status: 'ongoing', statusText: 'Tập 5' });
    const trailer = await filmBySlug(db, 'sap-chieu');
    expect(trailer).toMatchObject({ categoryId: 27, status: 'trailer', statusText: 'Trailer' });
    expect(trailer!.episodes).toEqual([]);

    const [run] = await db.select().from(crawlRuns);
    expect(run).toMatchObject({ status: 'done', trigger: 'cli', filmsNew: 4, pagesDone: 1 });
    expect(run!.finishedAt).toBeGreaterThan(0);
  });

  it('maps animation by its episodes and always adds the animation genre', async () => {
    const { source, db, crawl } = await setup();
    source.films.push(
      ophimFilm({ slug: 'conan', type: 'hoathinh', category: [{ name: 'Bí Ẩn', slug: 'bi-an' }] }, { episodeCount: 12 }),
      ophimFilm({ slug: 'your-name', type: 'hoathinh', category: [] }, { episodeCount: 1 }),
    );
    await crawl();
    const series = await filmBySlug(db, 'conan');
    expect(series!.categoryId).toBe(24);
    expect(series!.genres.map((g) => g.genre.slug).sort()).toEqual(['bi-an', 'hoat-hinh']);
    const movie = await filmBySlug(db, 'your-name');
    expect(movie!.categoryId).toBe(25);
    expect(movie!.genreNames).toBe('Hoạt Hình');
  });

  it('tolerates legacy payloads: string genre arrays, is_copyright "off", empty actors, missing fields, string years', async () => {
    const { source, db, crawl } = await setup();
    source.films.push({
      movie: {
        _id: 'legacy1',
        slug: 'tro-choi-vuong-quyen-8',
        name: 'Trò Chơi Vương Quyền 8',
        origin_name: 'Game of Thrones (Season 8)',
        type: 'series',
        status: 'completed',
        thumb_url: 'https://img.example.org/uploads/movies/got-8-thumb.jpg',
        poster_url: '',
        is_copyright: 'off',
        episode_current: 'Hoàn tất (2/2)',
        year: '2019',
        actor: [''],
        director: null,
        category: ['Hành Động', 'Chính kịch', 'Thể loại lạ'],
        country: [{ name: 'Âu Mỹ' }],
        chieurap: false,
      },
      episodes: [
        {
          server_name: 'Vietsub #1',
          server_data: [
            { name: '1', slug: '1', filename: 'got-1', link_embed: 'javascript:alert(1)', link_m3u8: 'https://cdn.example.com/got/1.m3u8' },
            { name: '2', slug: '2', link_m3u8: 'ftp://cdn.example.com/got/2.m3u8', link_embed: 'https://player.example.com/got/2' },
            { name: '3', slug: '3', link_m3u8: 'not a url', link_embed: '' },
          ],
        },
      ],
    });
    const summary = await crawl();
    expect(summary.filmsNew).toBe(1);
    const film = await filmBySlug(db, 'tro-choi-vuong-quyen-8');
    expect(film).toMatchObject({
      year: 2019,
      actors: '',
      director: '',
      description: '',
      genreNames: 'Hành Động, Chính Kịch',
      countryNames: 'Âu Mỹ',
      thumbUrl: 'https://img.example.org/uploads/movies/got-8-thumb.jpg',
      posterUrl: '',
    });
    expect(film!.episodes.map((e) => [e.episode, e.m3u8Url, e.embedUrl])).toEqual([
      [1, 'https://cdn.example.com/got/1.m3u8', ''],
      [2, '', 'https://player.example.com/got/2'],
    ]);
  });

  it('skips a malformed film, a 404 and a timed-out detail while the others import', async () => {
    const { source, db, crawl, lines } = await setup();
    source.films.push(
      ophimFilm({ slug: 'tot-1' }),
      { movie: { slug: 'khong-ten', _id: 'x1' }, episodes: [] },
      { movie: { slug: 'tap-hong', name: 'Tập Hỏng' }, episodes: 'không phải mảng' },
      ophimFilm({ slug: 'tot-2' }),
      ophimFilm({ slug: 'bien-mat' }),
      ophimFilm({ slug: 'cham-chap' }),
    );
    source.intercept = (path): StandinReply | undefined => {
      if (path === '/phim/bien-mat') return { status: 404, body: JSON.stringify({ status: false, msg: 'Movie not found' }) };
      if (path === '/phim/cham-chap') return { hang: true };
      return undefined;
    };
    const summary = await crawl({ requestTimeoutMs: 300 });
    expect(summary).toMatchObject({ filmsNew: 2, filmsFailed: 4, pages: 1 });
    expect((await db.select({ slug: films.slug }).from(films)).map((f) => f.slug).sort()).toEqual(['tot-1', 'tot-2']);
    expect(lines.some((l) => l.includes('film khong-ten failed') && l.includes('name'))).toBe(true);
    expect(lines.some((l) => l.includes('film cham-chap failed') && l.includes('timed out'))).toBe(true);
    // A timeout is retried (twice), a 404 is not.
    expect(source.requests.filter((r) => r === '/phim/cham-chap')).toHaveLength(3);
    expect(source.requests.filter((r) => r === '/phim/bien-mat')).toHaveLength(1);
  });

  it('retries 5xx answers with backoff and then imports', async () => {
    const { source, crawl } = await setup();
    source.films.push(ophimFilm({ slug: 'lan-thu-ba' }));
    let failures = 2;
    source.intercept = (path) => (path === '/phim/lan-thu-ba' && failures-- > 0 ? { status: 503, body: 'busy' } : undefined);
    expect((await crawl()).filmsNew).toBe(1);
    expect(source.requests.filter((r) => r === '/phim/lan-thu-ba')).toHaveLength(3);
  });

  it('re-crawling adds no duplicates and counts unchanged films as skipped; --force rewrites them', async () => {
    const { source, db, crawl } = await setup({ pageSize: 2 });
    for (let i = 1; i <= 5; i++) source.films.push(ophimFilm({ slug: `phim-${i}` }, { episodeCount: 4 }));
    expect(await crawl()).toMatchObject({ pages: 3, filmsNew: 5 });
    expect(await crawl()).toMatchObject({ pages: 3, filmsNew: 0, filmsUpdated: 0, filmsSkipped: 5, filmsFailed: 0 });
    expect(await db.$count(films)).toBe(5);
    expect(await db.$count(episodes)).toBe(5 * 4 * 2);
    expect(await crawl({ force: true })).toMatchObject({ filmsNew: 0, filmsUpdated: 5, filmsSkipped: 0 });
    expect(await db.$count(films)).toBe(5);
    expect(await db.$count(episodes)).toBe(5 * 4 * 2);
  });

  it('updates a changed film in place: fields rewritten, episodes replaced (not duplicated), slug kept', async () => {
    const { source, db, crawl } = await setup();
    source.films.push(ophimFilm({ slug: 'dang-chieu', status: 'ongoing', episode_current: 'Tập 2' }, { episodeCount: 2 }));
    await crawl();
    const before = await filmBySlug(db, 'dang-chieu');

    const updated = ophimFilm(
      {
        slug: 'dang-chieu',
        _id: source.films[0]!.movie._id,
        status: 'completed',
        episode_current: 'Hoàn Tất (5/5)',
        name: 'Đang Chiếu (Bản Mới)',
      },
      { episodeCount: 5, servers: ['Vietsub #1'] },
    );
    source.films[0] = updated;
    expect(await crawl()).toMatchObject({ filmsUpdated: 1, filmsNew: 0, filmsSkipped: 0 });

    const after = await filmBySlug(db, 'dang-chieu');
    expect(after!.id).toBe(before!.id);
    expect(after).toMatchObject({
      title: 'Đang Chiếu (Bản Mới)',
      titleFolded: 'dang chieu (ban moi)',
      status: 'completed',
      statusText: 'Hoàn Tất (5/5)',
    });
    expect(after!.episodes.map((e) => `${e.serverName}:${e.episode}`)).toEqual([1, 2, 3, 4, 5].map((n) => `Vietsub #1 · OPhim:${n}`));
    expect(await db.$count(episodes)).toBe(5);
    expect(after!.sourceChecksum).not.toBe(before!.sourceChecksum);
  });

  it('crawls category lists and imports a film found in two lists once', async () => {
    const { source, db, crawl } = await setup();
    source.films.push(
      ophimFilm({ slug: 'bo-hanh-dong', type: 'series' }),
      ophimFilm({ slug: 'le-hanh-dong', type: 'single' }),
      ophimFilm({ slug: 'le-tinh-cam', type: 'single', category: [{ name: 'Tình Cảm', slug: 'tinh-cam' }] }),
    );
    const summary = await crawl({ lists: ['danh-sach/phim-le', 'the-loai/hanh-dong'] });
    expect(summary).toMatchObject({ pages: 2, filmsNew: 3 });
    expect(source.requests.filter((r) => r === '/phim/le-hanh-dong')).toHaveLength(1);
    expect(await db.$count(films)).toBe(3);
  });

  it('reads only the asked page range', async () => {
    const { source, db, crawl } = await setup({ pageSize: 2 });
    for (let i = 1; i <= 7; i++) source.films.push(ophimFilm({ slug: `trang-${i}` }));
    const summary = await crawl({ pages: [2, 3] });
    expect(summary).toMatchObject({ pages: 2, filmsNew: 4 });
    expect((await db.select({ slug: films.slug }).from(films)).map((f) => f.slug).sort()).toEqual([
      'trang-3',
      'trang-4',
      'trang-5',
      'trang-6',
    ]);
    expect(source.requests.filter((r) => r.startsWith('/danh-sach'))).toEqual([
      '/danh-sach/phim-moi-cap-nhat?page=2',
      '/danh-sach/phim-moi-cap-nhat?page=3',
    ]);
  });
});

describe('runCrawl source dialects', () => {
  it('reads the /v1/api shape and resolves bare poster names on the CDN', async () => {
    const { source, db, crawl } = await setup({ dialect: 'v1' });
    source.films.push(ophimFilm({ slug: 'ban-v1', name: 'Bản V1' }, { episodeCount: 3 }), ophimFilm({ slug: 'ban-v1-le', type: 'single' }));
    const summary = await crawl();
    expect(summary).toMatchObject({ filmsNew: 2, filmsFailed: 0 });
    expect(source.url.endsWith('/v1/api')).toBe(true);
    expect(source.requests).toContain('/v1/api/danh-sach/phim-moi-cap-nhat?page=1');
    expect(source.requests).toContain('/v1/api/phim/ban-v1');
    const film = await filmBySlug(db, 'ban-v1');
    expect(film).toMatchObject({ title: 'Bản V1', categoryId: 24, posterUrl: `${source.origin}/cdn/uploads/movies/ban-v1-poster.jpg` });
    expect(film!.episodes).toHaveLength(6);
  });

  it('reads KKPhim lists (no pathImage) with absolute poster URLs kept as they are', async () => {
    const { source, db, crawl } = await setup({ dialect: 'kkphim' });
    source.films.push(
      ophimFilm({
        slug: 'kk-phim',
        poster_url: 'https://phimimg.example/upload/vod/kk-phim-poster.jpg',
        thumb_url: 'https://phimimg.example/upload/vod/kk-phim-thumb.jpg',
        is_copyright: false,
      }),
    );
    expect((await crawl()).filmsNew).toBe(1);
    expect(await filmBySlug(db, 'kk-phim')).toMatchObject({
      posterUrl: 'https://phimimg.example/upload/vod/kk-phim-poster.jpg',
      thumbUrl: 'https://phimimg.example/upload/vod/kk-phim-thumb.jpg',
    });
  });
});

describe('runCrawl guards', () => {
  it('refuses a source whose origin is not allowlisted, before any request', async () => {
    const { source, db, crawl } = await setup({}, ['https://ophim1.com']);
    await expect(crawl()).rejects.toBeInstanceOf(CrawlRequestError);
    await expect(crawl({ source: 'file:///etc/passwd' })).rejects.toThrow(/not an http/);
    expect(source.requests).toEqual([]);
    expect(await db.$count(crawlRuns)).toBe(0);
  });

  it('rejects bad list paths and page ranges', async () => {
    const { crawl } = await setup();
    await expect(crawl({ lists: ['../admin'] })).rejects.toThrow(/lists/);
    await expect(crawl({ lists: ['danh-sach/phim-bo?x=1'] })).rejects.toThrow(/lists/);
    await expect(crawl({ pages: [3, 1] })).rejects.toThrow(/pages/);
  });

  it('never follows a redirect to a disallowed origin (list: run fails; detail: film fails)', async () => {
    const evil = await standin();
    const { source, db, crawl } = await setup();
    source.films.push(ophimFilm({ slug: 'an-toan' }), ophimFilm({ slug: 'chuyen-huong' }));
    source.intercept = (path) =>
      path === '/phim/chuyen-huong' ? { status: 302, headers: { location: `${evil.origin}/phim/an-toan` } } : undefined;
    const summary = await crawl();
    expect(summary).toMatchObject({ filmsNew: 1, filmsFailed: 1 });

    source.intercept = (path) =>
      path.startsWith('/danh-sach') ? { status: 301, headers: { location: `${evil.origin}${path}` } } : undefined;
    const error = await crawl({ force: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CrawlRunError);
    expect(String((error as Error).message)).toMatch(/not in CRAWL_SOURCES/);
    expect(evil.requests).toEqual([]);
    const runs = await db.select().from(crawlRuns).orderBy(asc(crawlRuns.id));
    expect(runs.map((r) => r.status)).toEqual(['done', 'failed']);
  });

  it('follows redirects within allowlisted origins, at most 3 hops', async () => {
    const { source, db, crawl } = await setup();
    source.films.push(ophimFilm({ slug: 'dich-den' }), ophimFilm({ slug: 'vong-lap' }));
    source.intercept = (path): StandinReply | undefined => {
      if (path === '/phim/dich-den') return { status: 302, headers: { location: '/moved/dich-den' } };
      if (path === '/moved/dich-den') return { status: 307, headers: { location: `${source.origin}/phim-that/dich-den` } };
      if (path === '/phim-that/dich-den')
        return {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ status: true, movie: source.films[0]!.movie, episodes: source.films[0]!.episodes }),
        };
      if (path.startsWith('/loop') || path === '/phim/vong-lap') return { status: 302, headers: { location: `/loop${Math.random()}` } };
      return undefined;
    };
    const summary = await crawl();
    expect(summary).toMatchObject({ filmsNew: 1, filmsFailed: 1 });
    expect(await filmBySlug(db, 'dich-den')).toBeTruthy();
    expect(source.requests.filter((r) => r.startsWith('/loop'))).toHaveLength(3);
  });

  it('aborts a response over CRAWL_MAX_RESPONSE_BYTES while streaming, and refuses non-JSON', async () => {
    const { source, db, config, crawl, lines } = await setup();
    config.CRAWL_MAX_RESPONSE_BYTES = 64 * 1024;
    source.films.push(
      ophimFilm({ slug: 'binh-thuong' }),
      ophimFilm({ slug: 'qua-lon' }),
      ophimFilm({ slug: 'khai-lon' }),
      ophimFilm({ slug: 'trang-html' }),
    );
    source.intercept = (path): StandinReply | undefined => {
      // Chunked (no content-length): the cap must hold while reading, not only on the header.
      if (path === '/phim/qua-lon')
        return {
          status: 200,
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
          body: `{"movie":{"content":"${'x'.repeat(1_000_000)}"}}`,
        };
      if (path === '/phim/khai-lon')
        return { status: 200, headers: { 'content-type': 'application/json', 'content-length': '2000000' }, body: 'x'.repeat(2_000_000) };
      if (path === '/phim/trang-html') return { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>Cloudflare</html>' };
      return undefined;
    };
    const summary = await crawl();
    expect(summary).toMatchObject({ filmsNew: 1, filmsFailed: 3 });
    expect(await db.$count(films)).toBe(1);
    expect(lines.some((l) => l.includes('qua-lon') && l.includes('response exceeds 65536 bytes'))).toBe(true);
    expect(lines.some((l) => l.includes('khai-lon') && l.includes('response of 2000000 bytes exceeds 65536'))).toBe(true);
    expect(lines.some((l) => l.includes('trang-html') && /not JSON/.test(l))).toBe(true);
  });

  it('refuses to double a live run of the same crawl', async () => {
    const { source, crawl } = await setup();
    source.films.push(ophimFilm({ slug: 'mot-lan' }));
    const results = await Promise.allSettled([crawl(), crawl()]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!;
    expect(rejected.reason).toBeInstanceOf(CrawlBusyError);
    expect(source.requests.filter((r) => r === '/phim/mot-lan')).toHaveLength(1);
  });
});
