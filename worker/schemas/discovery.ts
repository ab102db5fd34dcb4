// Wire contract of issue 40's discovery parts: people pages and suggestions, plays and the Top 10, and the film page's
// extras. Pure types, zod and the texts the web shows: importable by web/.
import { z } from 'zod';
import type { FilmCard, Pagination } from './catalogue';
import { PLAY_SECONDS } from './discovery-texts';

export * from './discovery-texts';

export type PersonRole = 'actor' | 'director';

/** A person named on a film page, linked to their page. */
export interface PersonRef {
  slug: string;
  name: string;
}

/** GET /api/people/{role}/{slug}?page=: the person, how many films, the films newest first (25 a page). */
export interface PersonPageData {
  person: PersonRef & { role: PersonRole };
  data: FilmCard[];
  pagination: Pagination;
}

/** A person among the search suggestions: "Trấn Thành · Diễn viên · 3 phim". */
export interface PersonSuggestion extends PersonRef {
  role: PersonRole;
  films: number;
}

export const personParamSchema = z.object({
  role: z.enum(['actor', 'director'], { error: "must be 'actor' or 'director'" }),
  slug: z.string().min(1).max(200),
});

export const personQuerySchema = z.object({
  page: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be 1 or more').max(10_000).default(1),
  ),
});

/**
 * POST /api/product/play: this device watched `slug` for `seconds` (≥ PLAY_SECONDS) of real playback. Counted once
 * per device, film and Asia/Ho_Chi_Minh day. `device` is the random id the web keeps in this browser.
 */
export const playSchema = z.object({
  slug: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200),
  device: z.string({ error: 'is required' }).regex(/^[A-Za-z0-9_-]{16,64}$/, 'must be 16 to 64 letters, digits, - or _'),
  seconds: z.number({ error: 'must be a number' }).min(PLAY_SECONDS, `must be at least ${PLAY_SECONDS}`).max(86_400),
});
export type PlayInput = z.infer<typeof playSchema>;

/** A film in a Top 10 row: its rank today, and yesterday's (null: "Mới", not in yesterday's Top 10). */
export interface Top10Entry {
  rank: number;
  previous: number | null;
  film: FilmCard;
}

/** The home's two rows; a row is empty (hidden) until 10 films have TOP10_MIN_VIEWERS viewers that day. */
export interface Top10Rows {
  phimbo: Top10Entry[];
  phimle: Top10Entry[];
}

/** The film page's extras (issue 40 §2): what the source says beside the film, its seasons and its rank today. */
export interface FilmExtras {
  directors: PersonRef[];
  actors: PersonRef[];
  /** YouTube video id; '' none. Played from youtube-nocookie.com only after a tap. */
  trailer: string;
  /** Plain text (a source's HTML arrives as text); '' none. */
  showtimes: string;
  notify: string;
  chieurap: boolean;
  /** TMDB's score, only when it rests on TMDB_MIN_VOTES votes or more. */
  tmdb: { score: number; votes: number } | null;
  /** The seasons of the same show (one TMDB tv id), in season order, this film included; [] when it has none other. */
  seasons: { slug: string; title: string; season: number | null; year: number | null }[];
  /** "#3 phim bộ hôm nay": the film's place in today's shown Top 10; null when not in it. */
  top10: { rank: number; list: keyof Top10Rows } | null;
}
