// "Lịch chiếu": the next seven days in Vietnam, today first, with each ongoing series' predicted episodes, the ones
// that arrived today and the ones that are late (docs/decisions/1080-predicted-schedule.md). One statement.
import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { episodeReleases, films } from '../../db/schema';
import type { FilmCard } from '../../schemas/catalogue';
import type { ScheduleDay, ScheduleEntry, ScheduleWeek } from '../../schemas/schedule';
import { cardJson, cardsFromJson } from '../catalogue/film-card';
import { isLate, LOOKBACK_WEEKS, nextExpected, predictSchedule } from './predict';

const DAY_MS = 86_400_000;
const VN_OFFSET_MS = 7 * 3600_000;
/** Releases older than this say nothing more than the LOOKBACK_WEEKS the prediction reads (plus a week of margin). */
const HISTORY_MS = (LOOKBACK_WEEKS + 1) * 7 * DAY_MS;
const DAYS = 7;

const localDay = (at: number) => Math.floor((at + VN_OFFSET_MS) / DAY_MS);
const isoWeekday = (day: number) => ((((day + 3) % 7) + 7) % 7) + 1;
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

interface SeriesRow {
  card: string;
  /** JSON [[episode, first seen], …] of the film's releases in the window. */
  releases: string;
}

/** Ongoing films with releases in the window: each its card and its releases, one row per film. */
function seriesWithReleases(db: Db, since: number) {
  return db
    .select({
      card: cardJson.as('card'),
      releases: sql<string>`json_group_array(json_array(${episodeReleases.episode}, ${episodeReleases.createdAt}))`.as('releases'),
    })
    .from(episodeReleases)
    .innerJoin(films, eq(films.id, episodeReleases.filmId))
    .where(and(eq(films.status, 'ongoing'), gte(episodeReleases.createdAt, since)))
    .groupBy(films.id)
    .all() as Promise<SeriesRow[]>;
}

/** A missed slot older than this is a pause, not a delay: the series leaves the calendar until it comes back. */
export const PAUSE_AFTER_MS = 7 * DAY_MS;

/**
 * The week's entries of one series, or none when its releases show no pattern. Today: the episode that arrived
 * today ("Đã có tập 7"), or the first missed slot, late 6 hours after its window ("Trễ lịch") or still expected
 * before that; then each predicted slot of the week, numbered on from the newest episode.
 */
export function seriesEntries(film: FilmCard, releases: readonly (readonly [number, number])[], now: number, today: number) {
  const prediction = predictSchedule(releases.map(([, at]) => at));
  if (!prediction || now - prediction.next > PAUSE_AFTER_MS) return [];
  const entries: { day: number; entry: ScheduleEntry }[] = [];
  const arrivedToday = releases.filter(([, at]) => localDay(at) === today);
  if (arrivedToday.length > 0) {
    const [episode, at] = arrivedToday.reduce((a, b) => (b[0] > a[0] ? b : a));
    entries.push({ day: today, entry: { film, episode, at, state: 'arrived' } });
  }
  let episode = Math.max(...releases.map(([e]) => e)) + 1;
  let slot = prediction.next;
  if (localDay(slot) < today || (localDay(slot) === today && arrivedToday.length === 0)) {
    // The first slot with no episode yet, on an earlier day or today: shown on today's tab.
    const state = isLate(prediction, now) ? 'late' : 'expected';
    entries.push({ day: today, entry: { film, episode, at: slot, state } });
    episode++;
    slot = nextExpected(prediction, Math.max(slot, today * DAY_MS - VN_OFFSET_MS + DAY_MS - 1));
  }
  for (; localDay(slot) < today + DAYS; slot = nextExpected(prediction, slot)) {
    if (localDay(slot) <= today) continue;
    entries.push({ day: localDay(slot), entry: { film, episode: episode++, at: slot, state: 'expected' } });
  }
  return entries;
}

/** The seven days from today (Vietnam), each with its entries in time order. */
export async function scheduleWeek(db: Db, now: number): Promise<ScheduleWeek> {
  const rows = await seriesWithReleases(db, now - HISTORY_MS);
  const today = localDay(now);
  const days: ScheduleDay[] = Array.from({ length: DAYS }, (_, i) => ({
    weekday: isoWeekday(today + i),
    date: dateOf(today + i),
    entries: [],
  }));
  for (const row of rows) {
    const [film] = cardsFromJson([{ cards: `[${row.card}]` }]);
    const releases = JSON.parse(row.releases) as [number, number][];
    for (const { day, entry } of seriesEntries(film!, releases, now, today)) days[day - today]?.entries.push(entry);
  }
  for (const day of days) day.entries.sort((a, b) => a.at - b.at || a.film.title.localeCompare(b.film.title, 'vi'));
  return { days };
}
