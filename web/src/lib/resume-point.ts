// Where an episode resumes on this device: the one rule the film page ("Xem tiếp tập N"), the watch page and the
// stream's start path share. No dependencies: the start path reads it before the app has loaded.

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
}

/** The position to resume `episode` at: past the first seconds and before the last ten; else 0 (from the start). */
export function resumePoint(entry: ResumeEntry | undefined, episode: number): number {
  if (!entry || entry.episode !== episode || !(entry.time > 5)) return 0;
  return !entry.duration || entry.time < entry.duration - 10 ? entry.time : 0;
}

/** This device's entry for a film, read straight from storage (the start path, before lib/watch-history.ts loads). */
export function storedResumeEntry(slug: string): ResumeEntry | undefined {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(WATCH_HISTORY_KEY) ?? '[]');
    if (!Array.isArray(list)) return undefined;
    const entry = list.find((e) => e && typeof e === 'object' && (e as { slug?: unknown }).slug === slug) as
      | { episode?: unknown; time?: unknown; duration?: unknown }
      | undefined;
    if (!entry || typeof entry.episode !== 'number' || typeof entry.time !== 'number') return undefined;
    return { episode: entry.episode, time: entry.time, duration: typeof entry.duration === 'number' ? entry.duration : 0 };
  } catch {
    return undefined;
  }
}
