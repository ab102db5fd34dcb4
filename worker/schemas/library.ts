// Wire contract of the member's library under /api/me/* (watchlist, progress, history) and Web Push
// subscriptions. docs/decisions/0800-member-library.md.
import { z } from 'zod';
import type { FilmCard, Pagination } from './catalogue';

import { PROGRESS_BATCH_MAX } from './library-texts';

export { HISTORY_PAGE_SIZE, LIBRARY_TEXTS, newEpisodeText, PROGRESS_BATCH_MAX, WATCHLIST_MAX } from './library-texts';

/** A film's slug; one that names no film is a 404 (or, in a progress batch, dropped), never a 400. */
const slug = z.string({ error: 'is required' }).trim().min(1, 'is required').max(200, 'is too long');

export const slugParamSchema = z.object({ slug });

export const watchlistPutSchema = z.object({ notify: z.boolean({ error: 'must be true or false' }).optional() });

const seconds = (name: string) =>
  z
    .number({ error: `${name} must be a number of seconds` })
    .finite()
    .min(0, 'must be 0 or more')
    .max(7 * 24 * 3600, 'is too large');

export const progressItemSchema = z.object({
  slug,
  episode: z.number({ error: 'must be an episode number' }).int('must be a whole number').min(1, 'must be 1 or more').max(100_000),
  position: seconds('position'),
  duration: seconds('duration'),
  updatedAt: z
    .number({ error: 'must be ms since the epoch' })
    .int('must be a whole number')
    .min(0, 'must be 0 or more')
    .max(Number.MAX_SAFE_INTEGER),
});
export type ProgressItem = z.infer<typeof progressItemSchema>;

export const progressPutSchema = z.object({
  items: z
    .array(progressItemSchema, { error: 'must be a list' })
    .min(1, 'must hold at least one item')
    .max(PROGRESS_BATCH_MAX, `holds at most ${PROGRESS_BATCH_MAX} items`),
});

export const progressQuerySchema = z.object({ slug });

export const historyQuerySchema = z.object({
  page: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.coerce.number({ error: 'must be a page number' }).int('must be a whole number').min(1, 'must be 1 or more').max(10_000).default(1),
  ),
});

const base64url = (max: number) =>
  z
    .string({ error: 'is required' })
    .min(1, 'is required')
    .max(max, 'is too long')
    .regex(/^[A-Za-z0-9_-]+=*$/, 'must be base64url');

export const pushSubscriptionSchema = z.object({
  endpoint: z.string({ error: 'is required' }).max(2048, 'is too long').url('must be a URL'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object(
    {
      p256dh: base64url(200),
      auth: base64url(100),
    },
    { error: 'is required' },
  ),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

export const pushUnsubscribeSchema = z.object({
  endpoint: z.string({ error: 'is required' }).max(2048, 'is too long').url('must be a URL'),
});

export interface WatchlistItem {
  slug: string;
  addedAt: number;
  notify: boolean;
  film: FilmCard;
  /** Episode numbers the film gained since the member last opened the list. */
  newEpisodes: number[];
}

export interface WatchlistResponse {
  data: WatchlistItem[];
  /** When the list page was opened before (ms), or null the first time. */
  seenAt: number | null;
}

export interface ProgressEntry {
  episode: number;
  position: number;
  duration: number;
  updatedAt: number;
}

export interface HistoryEntry extends ProgressEntry {
  slug: string;
  film: FilmCard;
}

export interface HistoryResponse {
  data: HistoryEntry[];
  pagination: Pagination;
}

/** What the service worker receives in a push message and shows as a notification. */
export interface NewEpisodePush {
  type: 'new-episode';
  title: string;
  body: string;
  /** Path of the episode: /xem-phim/{slug}/tap-{n}. */
  url: string;
  slug: string;
  episode: number;
  icon?: string;
}
