// Stand-in sources built from the real OPhim/KKPhim responses in ../shared/source-samples/ (never copied into the
// repository; tests skip with a message when they are absent): their films as the stand-in serves them
// (helpers/ophim-standin.ts), and KKPhim's copies of OPhim's films as KKPhim really differs — other ids, often
// another slug, its server names and episode names, ids missing or junk.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { StandinFilm } from './ophim-standin';

export const SOURCE_SAMPLES = resolve(import.meta.dirname, '../../../shared/source-samples');
export const haveSourceSamples = existsSync(resolve(SOURCE_SAMPLES, 'ophim-v1-list-danh-sach-phim-bo-2024.json'));
export const SKIP_REASON = `real source samples not found in ${SOURCE_SAMPLES}`;

type Json = Record<string, unknown>;

export function sample(name: string): Json {
  return JSON.parse(readFileSync(resolve(SOURCE_SAMPLES, name), 'utf8')) as Json;
}

/** ophim1.com /v1/api/danh-sach/phim-bo?year=2024: 24 real list items, each with tmdb and imdb. */
export function ophimV1ListItems(): Json[] {
  return ((sample('ophim-v1-list-danh-sach-phim-bo-2024.json').data as Json).items as Json[]).map((i) => ({ ...i }));
}

/** The real OPhim v1 detail (episodes trimmed to 3 by whoever captured it): { movie, episodes }. */
export function ophimV1Detail(): StandinFilm {
  const { episodes, ...movie } = (sample('ophim-v1-detail-anh-cung-co-ngay-nay.episodes-trimmed.json').data as Json).item as Json;
  return { movie: movie as StandinFilm['movie'], episodes };
}

/** The real OPhim legacy detail (2022, no ids). */
export function ophimLegacyDetail(): StandinFilm {
  const body = sample('ophim-legacy-detail-that-nghiep-chuyen-sinh-1-part-1.json');
  return { movie: body.movie as StandinFilm['movie'], episodes: body.episodes };
}

/** The real KKPhim legacy detail: tmdb tv 99966 season 2, imdb null, two servers × 12 episodes. */
export function kkphimDetail(): StandinFilm {
  const body = sample('kkphim-legacy-detail-ngoi-truong-xac-song.json');
  return { movie: body.movie as StandinFilm['movie'], episodes: body.episodes };
}

/** How many episodes a list item says it has ('Hoàn tất (36/36)' → 36), at most `cap`. */
function episodeCount(item: Json, cap: number): number {
  const match = /(\d+)\s*\/\s*(\d+)/.exec(String(item.episode_current ?? ''));
  return Math.max(1, Math.min(cap, match ? Number(match[2]) : 1));
}

/** OPhim's episodes as its v1 API names them ('1', '2', …) on 'Vietsub #1'. */
export function ophimEpisodes(slug: string, count: number, link: (slug: string, episode: number) => string) {
  return [
    {
      server_name: 'Vietsub #1',
      server_data: Array.from({ length: count }, (_, i) => ({
        name: String(i + 1),
        slug: String(i + 1),
        filename: `${slug} ${i + 1}`,
        link_embed: `https://vip.opstream13.com/share/${slug}-${i + 1}`,
        link_m3u8: link(slug, i + 1),
      })),
    },
  ];
}

/** KKPhim's: '#Hà Nội (Vietsub)', 'Tập 01', 'tap-01'. */
export function kkphimEpisodes(slug: string, count: number, link: (slug: string, episode: number) => string) {
  return [
    {
      server_name: '#Hà Nội (Vietsub)',
      server_data: Array.from({ length: count }, (_, i) => {
        const n = String(i + 1).padStart(2, '0');
        return {
          name: `Tập ${n}`,
          slug: `tap-${n}`,
          filename: `${slug} - Vietsub - Tập ${n}`,
          link_embed: `https://player.phimapi.com/player/?url=${link(slug, i + 1)}`,
          link_m3u8: link(slug, i + 1),
        };
      }),
    },
  ];
}

/** The v1 list's films as an OPhim v1 stand-in serves them: each real item, with `cap` episodes at most. */
export function ophimFilmsFromList(link: (slug: string, episode: number) => string, cap = 3): StandinFilm[] {
  return ophimV1ListItems().map((item) => ({
    movie: {
      ...item,
      content: `<p>${String(item.name)}.</p>`,
      status: 'completed',
      episode_total: String(episodeCount(item, 1_000)),
      actor: [],
      director: [],
    } as unknown as StandinFilm['movie'],
    episodes: ophimEpisodes(String(item.slug), episodeCount(item, cap), link),
  }));
}

let counter = 0;
/** A KKPhim-looking id: 32 hex digits. */
export const kkId = () => (++counter).toString(16).padStart(32, 'a');

/**
 * KKPhim's copy of an OPhim film: another id, maybe another slug, KKPhim's servers; its ids as given (KKPhim often
 * has no IMDb id: null).
 */
export function kkphimTwin(
  film: StandinFilm,
  link: (slug: string, episode: number) => string,
  change: { slug?: string; name?: string; tmdb?: unknown; imdb?: unknown; episodes?: number } = {},
): StandinFilm {
  const slug = change.slug ?? film.movie.slug;
  const count = change.episodes ?? Math.max(1, (film.episodes as { server_data: unknown[] }[] | undefined)?.[0]?.server_data.length ?? 1);
  return {
    movie: {
      ...film.movie,
      _id: kkId(),
      slug,
      ...(change.name ? { name: change.name } : {}),
      tmdb: change.tmdb === undefined ? film.movie.tmdb : change.tmdb,
      imdb: change.imdb === undefined ? { id: null } : change.imdb,
      poster_url: `https://phimimg.com/upload/vod/${slug}.jpg`,
      thumb_url: `https://phimimg.com/upload/vod/${slug}-thumb.jpg`,
    },
    episodes: kkphimEpisodes(slug, count, link),
  };
}
