// Issue 40's texts and small helpers the web shows, without zod (the entry chunk imports them: see
// web/src/features/catalogue/listing-search.ts on why zod stays out of it).
import type { PersonRole } from './discovery';

/** The role's path segment and its label: /dien-vien/{slug} "Diễn viên", /dao-dien/{slug} "Đạo diễn". */
export const PERSON_ROLES = {
  actor: { path: 'dien-vien', label: 'Diễn viên' },
  director: { path: 'dao-dien', label: 'Đạo diễn' },
} as const satisfies Record<PersonRole, { path: string; label: string }>;

/** A play counts after this much real playback (Netflix's Top 10 counts 2 minutes). */
export const PLAY_SECONDS = 120;

export const TOP10_SIZE = 10;
export const TOP10_MIN_VIEWERS = 3;
/** Which Top 10 a category ranks in: phim bộ (24) and phim lẻ (25). */
export const TOP10_CATEGORIES = { phimbo: 24, phimle: 25 } as const;

export const TOP10_TITLES = { phimbo: 'Top 10 phim bộ hôm nay', phimle: 'Top 10 phim lẻ hôm nay' } as const;
/** "#3 phim bộ hôm nay" on the film page. */
export const TOP10_BADGES = { phimbo: 'phim bộ hôm nay', phimle: 'phim lẻ hôm nay' } as const;

/** "▲2", "▼1", "=" or "Mới" against yesterday's rank. */
export function rankChange(rank: number, previous: number | null): string {
  if (previous === null) return 'Mới';
  if (previous > rank) return `▲${previous - rank}`;
  if (previous < rank) return `▼${rank - previous}`;
  return '=';
}

export const TMDB_MIN_VOTES = 20;

/** "TMDB 8,3": one decimal, Vietnamese decimal comma. */
export const tmdbLabel = (score: number) => `TMDB ${(Math.round(score * 10) / 10).toFixed(1).replace('.', ',')}`;
