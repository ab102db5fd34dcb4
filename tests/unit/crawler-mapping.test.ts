import { describe, expect, it } from 'vitest';
import { CRAWL_CATEGORY_NAMES } from '../../worker/schemas/taxonomy';
import { filmChecksum } from '../../worker/services/crawler/checksum';
import { crawlListsForCategories, crawlListForCategory, DEFAULT_CRAWL_LIST } from '../../worker/services/crawler/crawl-lists';
import {
  episodeNumber,
  htmlToText,
  mapCountries,
  mapDetail,
  mapEpisodes,
  mapGenres,
  resolveImage,
} from '../../worker/services/crawler/film-mapper';
import { parseDetail, parseListPage, SourceShapeError } from '../../worker/services/crawler/source-shapes';

describe('crawl categories → source lists', () => {
  it('maps all 27 spec category names', () => {
    expect(CRAWL_CATEGORY_NAMES).toHaveLength(27);
    const lists = crawlListsForCategories(CRAWL_CATEGORY_NAMES);
    expect(lists).toHaveLength(27);
    expect(crawlListForCategory('Hành Động')).toBe('the-loai/hanh-dong');
    expect(crawlListForCategory('Phim 18+')).toBe('the-loai/phim-18');
    expect(crawlListForCategory('Phim Bộ')).toBe('danh-sach/phim-bo');
    expect(crawlListForCategory('Phim Lẻ')).toBe('danh-sach/phim-le');
    expect(crawlListForCategory('Phim Shows')).toBe('danh-sach/tv-shows');
    expect(crawlListForCategory('Phim Sắp Chiếu')).toBe('danh-sach/phim-sap-chieu');
    expect(DEFAULT_CRAWL_LIST).toBe('danh-sach/phim-moi-cap-nhat');
  });
  it('refuses names that are not crawl categories and drops duplicates', () => {
    expect(() => crawlListsForCategories(['Hành Động', 'Phim Ma'])).toThrow(/Phim Ma/);
    expect(crawlListsForCategories(['Phim Bộ', 'Phim Bộ'])).toEqual(['danh-sach/phim-bo']);
  });
});

describe('source text and links', () => {
  it('turns synopsis HTML into plain text', () => {
    expect(htmlToText('<p>Anh&nbsp;&amp; em</p><br/><p>Tập&#160;1 &#x110;ến &lt;3</p>')).toBe('Anh & em Tập 1 Đến <3');
    expect(htmlToText('<p>a</p><script>alert("x")</script><style>p{}</style><!-- c -->b')).toBe('a b');
    // Escaped twice, as some sources send it: still no markup left.
    expect(htmlToText('&lt;p&gt;Xin ch&agrave;o&lt;/p&gt;')).toBe('Xin chào');
    expect(htmlToText('  nhiều\n\n  dòng\t')).toBe('nhiều dòng');
  });

  it('numbers episodes from their names', () => {
    expect(episodeNumber('Tập 01', 'tap-01', 5)).toBe(1);
    expect(episodeNumber('Full', 'full', 3)).toBe(1);
    expect(episodeNumber('1-2', '1-2', 0)).toBe(1);
    expect(episodeNumber('Tập 12 - END', '', 0)).toBe(12);
    expect(episodeNumber('Trailer', 'trailer', 2)).toBe(3);
    expect(episodeNumber('', 'tap-7', 0)).toBe(7);
  });

  it('keeps one entry per server and number, with http(s) links only', () => {
    const out = mapEpisodes([
      {
        server_name: '',
        server_data: [
          { name: 'Tập 1', slug: '', filename: '', link_m3u8: 'https://a/1.m3u8', link_embed: 'data:text/html,x' },
          { name: 'Tập 1', slug: '', filename: '', link_m3u8: 'https://a/1b.m3u8', link_embed: '' },
          { name: 'Tập 2', slug: '', filename: '', link_m3u8: '', link_embed: '' },
        ],
      },
    ]);
    expect(out).toEqual([
      { serverName: 'Vietsub #1', episode: 1, name: 'Tập 1', m3u8Url: 'https://a/1.m3u8', embedUrl: '' },
      { serverName: 'Vietsub #1', episode: 2, name: 'Tập 1', m3u8Url: 'https://a/1b.m3u8', embedUrl: '' },
    ]);
  });

  it('resolves posters against pathImage, a v1 CDN root, or keeps absolute URLs', () => {
    const origin = 'https://ophim1.com';
    expect(resolveImage('a-thumb.jpg', { kind: 'path', url: 'https://img.ophim.live/uploads/movies/' }, origin)).toBe(
      'https://img.ophim.live/uploads/movies/a-thumb.jpg',
    );
    expect(resolveImage('a-thumb.jpg', { kind: 'cdn', url: 'https://img.ophim.live' }, origin)).toBe(
      'https://img.ophim.live/uploads/movies/a-thumb.jpg',
    );
    expect(resolveImage('upload/vod/a.jpg', { kind: 'cdn', url: 'https://phimimg.com' }, origin)).toBe(
      'https://phimimg.com/upload/vod/a.jpg',
    );
    expect(resolveImage('https://phimimg.com/upload/vod/a.jpg', undefined, origin)).toBe('https://phimimg.com/upload/vod/a.jpg');
    expect(resolveImage('//img.example/a.jpg', undefined, origin)).toBe('https://img.example/a.jpg');
    expect(resolveImage('a.jpg', undefined, origin)).toBe('https://ophim1.com/uploads/movies/a.jpg');
    expect(resolveImage('javascript:alert(1)', undefined, origin)).toBe('');
    expect(resolveImage('', undefined, origin)).toBe('');
  });

  it('maps genre and country names or slugs to the taxonomy; unknown countries are "other"', () => {
    expect(
      mapGenres([
        { name: 'Phim 18+', slug: 'phim-18' },
        { name: 'Chính kịch', slug: '' },
        { name: 'Lạ', slug: 'la' },
        { name: 'Hành Động', slug: 'hanh-dong' },
      ]),
    ).toEqual(['18+', 'chinh-kich', 'hanh-dong']);
    expect(
      mapCountries([
        { name: 'Việt Nam', slug: 'viet-nam' },
        { name: 'Ấn Độ', slug: '' },
        { name: 'Âu Mỹ', slug: 'au-my' },
        { name: 'Lào', slug: 'lao' },
      ]),
    ).toEqual(['quoc-gia-khac', 'an-do', 'au-my']);
  });
});

describe('source shapes', () => {
  it('detects list shapes from the body, not the host', () => {
    const legacy = parseListPage({
      status: true,
      items: [{ slug: 'a', _id: '1' }, { slug: '../x' }, {}],
      pathImage: 'https://img/uploads/movies/',
      pagination: { totalItems: 50, totalItemsPerPage: 24, currentPage: 1 },
    });
    expect(legacy).toMatchObject({
      shape: 'legacy',
      items: [{ slug: 'a', id: '1' }],
      invalidItems: 2,
      totalPages: 3,
      imageBase: { kind: 'path' },
    });
    const v1 = parseListPage({
      status: 'success',
      data: { items: [{ slug: 'b' }], params: { pagination: { totalPages: '7' } }, APP_DOMAIN_CDN_IMAGE: 'https://img.ophim.live' },
    });
    expect(v1).toMatchObject({
      shape: 'v1',
      items: [{ slug: 'b' }],
      totalPages: 7,
      imageBase: { kind: 'cdn', url: 'https://img.ophim.live' },
    });
    expect(() => parseListPage({ status: false, msg: 'Hết trang' })).toThrow(/Hết trang/);
    expect(() => parseListPage('<html>')).toThrow(SourceShapeError);
  });

  it('detects detail shapes and names the first problem of a malformed one', () => {
    const movie = { _id: 'x', slug: 'phim', name: 'Phim', type: 'single', year: '2020', is_vip: true };
    expect(parseDetail({ status: true, movie, episodes: [] })).toMatchObject({
      shape: 'legacy',
      movie: { name: 'Phim', year: 2020, is_vip: true },
    });
    expect(parseDetail({ status: 'success', data: { item: { ...movie, episodes: [] } } })).toMatchObject({
      shape: 'v1',
      movie: { slug: 'phim' },
    });
    expect(() => parseDetail({ status: true, movie: { slug: 'phim' } })).toThrow(/movie\.name/);
    expect(() => parseDetail({ status: true, movie: { slug: 'p?q=1', name: 'x' } })).toThrow(/slug/);
    expect(() => parseDetail({ status: false, msg: 'Movie not found' })).toThrow(/Movie not found/);
  });
});

describe('change detection', () => {
  it('hashes the mapped film, not the source noise around it', async () => {
    const detail = (over: Record<string, unknown>) =>
      parseDetail({
        movie: { _id: '1', slug: 'a', name: 'A', view: 10, modified: { time: '2024-01-01T00:00:00Z' }, ...over },
        episodes: [],
      });
    const map = (over: Record<string, unknown>) => mapDetail(detail(over), { origin: 'https://s.example' });
    const base = await filmChecksum(map({}));
    expect(await filmChecksum(map({ view: 99, modified: { time: '2025-01-01T00:00:00Z' } }))).toBe(base);
    expect(await filmChecksum(map({ episode_current: 'Tập 2' }))).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });
});
