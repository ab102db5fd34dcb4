// "Xem tiếp" on home (issue 40 §6): for the films a device or member is following, each one's episode numbers, whether
// it goes on, when its newest episode first appeared and its predicted schedule, so a card can offer "Xem tập 6", say
// "Tập mới" and "Chờ tập 6 · dự kiến Thứ 4 · khoảng 20:00". One
// statement, public and cacheable: nothing personal is sent (the slugs are films, not what was watched when).
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { episodeReleases, episodes, films } from '../../db/schema';
import type { SeriesStatusResponse } from '../../schemas/schedule';
import { filmScheduleOf, RELEASES_READ } from './film-schedule';
import { predictSchedule } from './predict';

export async function seriesStatus(db: Db, slugs: readonly string[], now: number): Promise<SeriesStatusResponse> {
  const rows = await db
    .select({
      slug: films.slug,
      status: films.status,
      // Qualified by hand: in a one-table select drizzle writes bare column names, which the subquery would read as its own.
      episodes: sql<string>`(select json_group_array(distinct e.episode) from ${episodes} e where e.film_id = ${films}.id)`,
      releasedAt: sql<number | null>`(select max(r.created_at) from ${episodeReleases} r where r.film_id = ${films}.id)`,
      // The same newest releases the film page predicts from (catalogue/detail.ts, releaseTimes): the card's "Chờ tập 6 · dự kiến …".
      releases: sql<string>`(select json_group_array(t.created_at) from (select r.created_at from ${episodeReleases} r where r.film_id = ${films}.id order by r.episode desc limit ${RELEASES_READ}) t)`,
    })
    .from(films)
    .where(inArray(films.slug, [...slugs]));
  return {
    data: rows.map((r) => ({
      slug: r.slug,
      episodes: (JSON.parse(r.episodes ?? '[]') as number[]).sort((a, b) => a - b),
      ongoing: r.status === 'ongoing',
      releasedAt: r.releasedAt,
      schedule: r.status === 'ongoing' ? filmScheduleOf(predictSchedule(JSON.parse(r.releases ?? '[]') as number[]), now) : null,
    })),
  };
}
