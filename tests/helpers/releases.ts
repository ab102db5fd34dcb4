// Series whose episodes arrived at given times, written through the one film writer as the crawler writes them:
// the predicted schedule's tests (schedule, film-schedule) build their histories with it.
import { type FilmInput, upsertFilm } from '../../worker/services/films/film-writer';

export const HOUR = 3600_000;
export const DAY = 24 * HOUR;
/** Monday 2026-11-02 00:00 in Vietnam (UTC+7). */
export const MONDAY = Date.UTC(2026, 10, 2) - 7 * HOUR;
/** `day` days after MONDAY at hour:minute, Vietnam time. */
export const at = (day: number, hour: number, minute = 0) => MONDAY + day * DAY + hour * HOUR + minute * 60_000;

export const series = (title: string, episodes: number, status: FilmInput['status'] = 'ongoing'): FilmInput => ({
  title,
  sourceKey: `https://nguon.example:${title}`,
  categoryId: 24,
  status,
  statusText: `Tập ${episodes}`,
  year: 2026,
  genreSlugs: ['tam-ly'],
  countrySlugs: ['han-quoc'],
  episodes: Array.from({ length: episodes }, (_, i) => ({
    serverName: 'Vietsub #1',
    episode: i + 1,
    name: `Tập ${i + 1}`,
    m3u8Url: `https://cdn.example.com/${title.length}/${i + 1}/index.m3u8`,
    embedUrl: '',
  })),
});

/** A series written as the crawler would: 2 episodes at first, then one more at each of `releases`; its slug. */
export async function seriesReleasedAt(
  db: Parameters<typeof upsertFilm>[0],
  title: string,
  releases: number[],
  status?: FilmInput['status'],
): Promise<string> {
  let slug = '';
  await upsertFilm(db, series(title, 2), { now: () => releases[0]! - 30 * DAY });
  for (const [i, time] of releases.entries()) ({ slug } = await upsertFilm(db, series(title, 3 + i, status), { now: () => time }));
  return slug;
}
