// Where an episode resumes on this device: the one rule the film page ("Xem tiếp tập N"), the watch page and the
// stream's start path share. No dependencies but start-server.ts: the start path reads it before the app has loaded.
import { startServer } from './start-server';

/**
 * localStorage key of this device's watch history. lib/watch-history.ts owns the entries and spells the key itself:
 * importing this module would put the stream's chunk into every page's first load.
 */
export const WATCH_HISTORY_KEY = 'phimviet:watch-history';

export interface ResumeEntry {
  episode: number;
  /** Seconds into the episode. */
  time: number;
  duration: number;
  /** Where the episode's credits start, as viewers taught (issue 40 §7), when the history knows it. */
  credits?: number;
}

/** The position to resume `episode` at: past the first seconds and before it counts as watched; else 0 (from the start). */
export function resumePoint(entry: ResumeEntry | undefined, episode: number): number {
  if (!entry || entry.episode !== episode || !(entry.time > 5)) return 0;
  return isWatched(entry) ? 0 : entry.time;
}

/** This device's entry for a film, read straight from storage (the start path, before lib/watch-history.ts loads). */
export function storedResumeEntry(slug: string): ResumeEntry | undefined {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(WATCH_HISTORY_KEY) ?? '[]');
    if (!Array.isArray(list)) return undefined;
    const entry = list.find((e) => e && typeof e === 'object' && (e as { slug?: unknown }).slug === slug) as
      | { episode?: unknown; time?: unknown; duration?: unknown; credits?: unknown }
      | undefined;
    if (!entry || typeof entry.episode !== 'number' || typeof entry.time !== 'number') return undefined;
    return {
      episode: entry.episode,
      time: entry.time,
      duration: typeof entry.duration === 'number' ? entry.duration : 0,
      ...(typeof entry.credits === 'number' ? { credits: entry.credits } : {}),
    };
  } catch {
    return undefined;
  }
}

/** Past this share of an episode (or its learned credits) the episode counts as watched. */
export const WATCHED_SHARE = 0.9;

/** Watched: played past its credits' start when known, else past 90 %. */
export function isWatched(entry: ResumeEntry, creditsAt?: number): boolean {
  if (!(entry.duration > 0)) return false;
  if (creditsAt !== undefined && creditsAt > 0 && entry.time >= creditsAt) return true;
  return entry.time >= entry.duration * WATCHED_SHARE;
}

/**
 * What the film page's button offers ("Xem phim", "Xem tiếp tập 5 từ 12:00", "Xem tập 6", "Chờ tập 6"): an episode
 * stopped part-way resumes; a watched one gives way to the next episode (from 0), or, when the next is not out yet
 * and the series goes on, to the wait for it.
 */
export type ResumeTarget =
  | { kind: 'start' }
  | { kind: 'resume'; episode: number; time: number }
  | { kind: 'next'; episode: number }
  | { kind: 'waiting'; episode: number };

export function resumeTarget(
  entry: ResumeEntry | undefined,
  episodes: readonly number[],
  options: { ongoing: boolean; creditsAt?: number },
): ResumeTarget {
  if (!entry) return { kind: 'start' };
  if (!isWatched(entry, options.creditsAt)) return { kind: 'resume', episode: entry.episode, time: resumePoint(entry, entry.episode) };
  const next = episodes.filter((n) => n > entry.episode).sort((a, b) => a - b)[0];
  if (next !== undefined) return { kind: 'next', episode: next };
  return options.ongoing ? { kind: 'waiting', episode: entry.episode + 1 } : { kind: 'start' };
}

/** The episode "Xem phim" (or "Xem tiếp tập N") opens, as the watch page will start it. */
export interface WatchTarget {
  slug: string;
  episode: number;
  /** The server the watch page will start on (the first that has links, as it picks). */
  server?: string;
  /** Where it will start (resume), seconds. */
  position: number;
}

/**
 * What the film page's button offers (`next`) and the episode it opens (`target`; none when no server has links):
 * the first server that has links, where this device stopped, or the next episode once that one was watched (past
 * its credits or 90 %), or, waiting for the next of an ongoing series, the last again. The film page and the
 * stream's start path (which gets it ready before the page has hydrated) agree through this.
 */
export function watchTarget(
  film: { slug: string; ongoing: boolean; servers: readonly { server_name: string; linkfilms: readonly { episode: number }[] }[] },
  entry: ResumeEntry | undefined,
): { next: ResumeTarget; target?: WatchTarget } {
  const first = startServer(film.servers);
  const episodes = film.servers.flatMap((s) => s.linkfilms.map((e) => e.episode));
  const next = resumeTarget(entry, episodes, { ongoing: film.ongoing, creditsAt: entry?.credits });
  if (!first) return { next };
  const episode = next.kind === 'start' ? first.linkfilms[0]!.episode : next.kind === 'waiting' ? next.episode - 1 : next.episode;
  return { next, target: { slug: film.slug, episode, server: first.server_name, position: next.kind === 'resume' ? next.time : 0 } };
}

/** One episode's progress from any device: this one's history or a member's account. */
export interface EpisodeProgress extends ResumeEntry {
  /** When it was recorded (ms): of two records of one episode, the newer wins. */
  updatedAt: number;
}

/** An episode list's mark: ✓ watched, or a bar with the share played. */
export type EpisodeMark = { watched: true } | { watched: false; share: number };

/** "Đã xem", "Đã xem 40 %": the mark's words for screen readers. */
export function episodeMarkText(mark: EpisodeMark): string {
  return mark.watched ? 'Đã xem' : `Đã xem ${Math.round(mark.share * 100)} %`;
}

/**
 * Each episode's mark from the newest of its records (another device may have watched it further, or again): watched
 * as isWatched says, partly watched once past the first seconds (where resuming starts), nothing otherwise.
 */
export function episodeMarks(records: readonly EpisodeProgress[], creditsAt?: number): Map<number, EpisodeMark> {
  const newest = new Map<number, EpisodeProgress>();
  for (const r of records) {
    const seen = newest.get(r.episode);
    if (!seen || r.updatedAt > seen.updatedAt) newest.set(r.episode, r);
  }
  const marks = new Map<number, EpisodeMark>();
  for (const [episode, r] of newest) {
    if (isWatched(r, creditsAt)) marks.set(episode, { watched: true });
    else if (r.duration > 0 && r.time > 5) marks.set(episode, { watched: false, share: Math.min(1, r.time / r.duration) });
  }
  return marks;
}

/**
 * "Xem tiếp" on home: what a film's card offers from where the viewer stopped, the film's episode numbers and whether
 * it goes on (resumeTarget), and "Tập mới" when an episode came after that last watch.
 */
export function continueOffer(
  entry: EpisodeProgress,
  film: { episodes: readonly number[]; ongoing: boolean; releasedAt: number | null },
  creditsAt?: number,
): { target: ResumeTarget; newEpisode: boolean } {
  const target = resumeTarget(entry, film.episodes, { ongoing: film.ongoing, creditsAt });
  return { target, newEpisode: film.releasedAt !== null && film.releasedAt > entry.updatedAt };
}
