// The demo's second source family (issue 32): a KKPhim-shaped API (phimapi.com's legacy paths, under /kkphim on the
// demo source) that shares about a quarter of the OPhim-shaped catalogue, as two real families share most films:
// other ids, often another slug, its own server names ('#Hà Nội (Vietsub)'), episode names 'Tập 01', the ids in
// `movie.tmdb` / `movie.imdb` (some missing, so a few films are recognised by their original name and year), and a
// dozen films of its own, one of them a different film under a slug the other family uses ('bo-gia': The Godfather),
// and one the crawl doubts (another season of a film under one TMDB id): a suggestion on "Gộp phim".
import type { DemoFilm, DemoServer } from './catalogue';
import { seededRandom } from './catalogue';

/** Where the family answers on the demo source. */
export const KKPHIM_PATH = '/kkphim';

/** A KKPhim film: the demo film's fields in KKPhim's spelling, and whether OPhim's catalogue has it too. */
export interface KkphimFilm extends DemoFilm {
  /** The OPhim demo film it is (another id, maybe another slug), or undefined for one of its own. */
  sharedWith?: string;
}

const hex = (rand: () => number) => Array.from({ length: 32 }, () => Math.floor(rand() * 16).toString(16)).join('');

/** KKPhim's server names and 'Tập 01' episode names for the same episodes. */
function kkServers(servers: readonly DemoServer[]): DemoServer[] {
  return servers.slice(0, 1).map((server) => ({
    server_name: '#Hà Nội (Vietsub)',
    items: server.items.map((item) =>
      /^\d+$/.test(item.name) ? { name: `Tập ${item.name.padStart(2, '0')}`, slug: `tap-${item.slug.padStart(2, '0')}` } : item,
    ),
  }));
}

/** Its own films (not on the OPhim demo). The first is another film under a slug OPhim's catalogue uses. */
const OWN: { name: string; english: string; type: DemoFilm['type']; year: number; slug?: string; tmdb: [string, string, number | null] }[] =
  [
    { name: 'Bố Già', english: 'The Godfather', type: 'single', year: 1972, tmdb: ['movie', '238', null] },
    { name: 'Ngôi Trường Xác Sống', english: 'All of Us Are Dead', type: 'series', year: 2022, tmdb: ['tv', '99966', 1] },
    { name: 'Vua Sư Tử', english: 'The Lion King', type: 'hoathinh', year: 1994, tmdb: ['movie', '8587', null] },
    { name: 'Vua Sư Tử', english: 'The Lion King', type: 'single', year: 2019, slug: 'vua-su-tu-2019', tmdb: ['movie', '420818', null] },
    { name: 'Siêu Anh Hùng Phá Hoại (Phần 3)', english: 'The Boys (Season 3)', type: 'series', year: 2022, tmdb: ['tv', '76479', 3] },
    { name: 'Siêu Anh Hùng Phá Hoại (Phần 4)', english: 'The Boys (Season 4)', type: 'series', year: 2024, tmdb: ['tv', '76479', 4] },
    { name: 'Tình Yêu 199', english: 'Love Endures', type: 'series', year: 2024, tmdb: ['tv', '225930', 199] },
    { name: 'Cô Đi Mà Lấy Chồng Tôi', english: 'Marry My Husband', type: 'series', year: 2024, tmdb: ['tv', '221851', 1] },
    { name: 'Nữ Hoàng Nước Mắt', english: 'Queen of Tears', type: 'series', year: 2024, tmdb: ['tv', '215720', 1] },
    { name: 'Cõng Anh Mà Chạy', english: 'Lovely Runner', type: 'series', year: 2024, tmdb: ['tv', '230923', 1] },
    { name: 'Khánh Dư Niên (Phần 2)', english: 'Joy of Life (Season 2)', type: 'series', year: 2024, tmdb: ['tv', '95842', 2] },
    { name: 'Con Trai Bạn Mẹ', english: 'Love Next Door', type: 'series', year: 2024, tmdb: ['tv', '241454', null] },
  ];

/**
 * The KKPhim family over the OPhim demo catalogue: every fourth playable film of it (sharing its TMDB and IMDb ids;
 * one in five without ids, found by its original name and year; one in three under another slug), then its own.
 */
export function buildKkphimCatalogue(ophim: readonly DemoFilm[]): KkphimFilm[] {
  const rand = seededRandom(32);
  const shared = ophim.filter((f, i) => i % 4 === 1 && f.status !== 'trailer');
  const films: KkphimFilm[] = shared.map((film, i) => {
    const withoutIds = i % 5 === 3;
    const otherSlug = i % 3 === 0;
    return {
      ...film,
      _id: hex(rand),
      slug: otherSlug ? `${film.slug}-${film.year}` : film.slug,
      // KKPhim's own poster files would be absolute URLs on its CDN; the demo serves OPhim's (same film, same picture).
      tmdb: withoutIds ? { type: film.tmdb.type, id: '', season: null, vote_average: 0, vote_count: 0 } : film.tmdb,
      imdb: { id: withoutIds ? null : film.imdb.id },
      servers: kkServers(film.servers),
      // Sources disagree on when a film last changed; the first family leads the film's own fields anyway.
      modified: { time: new Date(Date.parse(film.modified.time) - 3_600_000).toISOString() },
      sharedWith: film.slug,
    };
  });
  // A doubt for "Gộp phim": the 2021 'Thiên Long Bát Bộ' under the same TMDB id with another season (as KKPhim's
  // real detail says season 2 of a film whose season is 1): not merged, offered to an admin.
  const tlbb = ophim.find((f) => f.origin_name === 'Demi-Gods and Semi-Devils' && f.year === 2021);
  if (tlbb)
    films.push({
      ...tlbb,
      _id: hex(rand),
      slug: `${tlbb.slug}-phan-2`,
      tmdb: { ...tlbb.tmdb, season: 2 },
      imdb: { id: null },
      servers: kkServers(tlbb.servers),
    });
  const template = ophim.find((f) => f.type === 'series' && f.servers[0] && f.servers[0].items.length >= 8) ?? ophim[0]!;
  const single = ophim.find((f) => f.type === 'single') ?? ophim[0]!;
  OWN.forEach((own, i) => {
    const base = own.type === 'series' ? template : single;
    const slug =
      own.slug ??
      own.name
        .normalize('NFD')
        .replace(/\p{M}+/gu, '')
        .replace(/[đĐ]/g, 'd')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '');
    films.push({
      ...base,
      _id: hex(rand),
      name: own.name,
      slug,
      origin_name: own.english,
      type: own.type,
      year: own.year,
      status: 'completed',
      is_vip: undefined,
      thumb_url: `${base.slug}.webp`,
      poster_url: `${base.slug}.webp`,
      episode_current: own.type === 'series' ? 'Hoàn Tất (8/8)' : 'Full',
      episode_total: own.type === 'series' ? '8' : '1',
      tmdb: { type: own.tmdb[0] as 'movie' | 'tv', id: own.tmdb[1], season: own.tmdb[2], vote_average: 8, vote_count: 100 + i },
      imdb: { id: null },
      servers: kkServers(
        own.type === 'series'
          ? [{ server_name: 'Vietsub #1', items: Array.from({ length: 8 }, (_, n) => ({ name: String(n + 1), slug: String(n + 1) })) }]
          : [{ server_name: 'Vietsub #1', items: [{ name: 'Full', slug: 'full' }] }],
      ),
      created: { time: `${Math.min(own.year, 2025)}-03-0${(i % 9) + 1}T08:00:00.000Z` },
      modified: { time: `${Math.min(own.year + 1, 2025)}-06-0${(i % 9) + 1}T08:00:00.000Z` },
    });
  });
  return films;
}
