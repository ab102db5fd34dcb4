import { desc, eq, gte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { films, viewEvents } from '../../db/schema';
import type { FilmCard, HomeData, TrendingLists } from '../../schemas/catalogue';
import { cardColumns, toFilmCard } from './film-card';
import { hasGenre } from './listing';

const RAIL = 12;
const SIDEBAR = 8;
const HOT = 10;
const DAY = 24 * 60 * 60 * 1000;

async function rail(db: Db, where: SQL | undefined, limit = RAIL): Promise<FilmCard[]> {
  const rows = await db.select(cardColumns).from(films).where(where).orderBy(desc(films.updatedAt), desc(films.id)).limit(limit);
  return rows.map((r) => toFilmCard(r));
}

/**
 * Most viewed films by view events since `since`, topped up with the most viewed then most recently
 * updated films when too few were watched in the window (a fresh install has almost no view events).
 */
export async function trendingSince(db: Db, since: number, limit = SIDEBAR): Promise<FilmCard[]> {
  const counts = db
    .select({ filmId: viewEvents.filmId, n: sql<number>`count(*)`.as('n') })
    .from(viewEvents)
    .where(gte(viewEvents.viewedAt, since))
    .groupBy(viewEvents.filmId)
    .as('counts');
  const rows = await db
    .select(cardColumns)
    .from(counts)
    .innerJoin(films, eq(films.id, counts.filmId))
    .orderBy(desc(counts.n), desc(films.views))
    .limit(limit);
  if (rows.length >= limit) return rows.map((r) => toFilmCard(r));
  const fill = await db
    .select(cardColumns)
    .from(films)
    .where(
      rows.length
        ? notInArray(
            films.id,
            rows.map((r) => r.id),
          )
        : undefined,
    )
    .orderBy(desc(films.views), desc(films.updatedAt), desc(films.id))
    .limit(limit - rows.length);
  return [...rows, ...fill].map((r) => toFilmCard(r));
}

/** Day/week/month lists; `weekLimit` lets the home's hot list reuse the week query. */
async function trending(db: Db, now: number, weekLimit = SIDEBAR): Promise<{ lists: TrendingLists; week: FilmCard[] }> {
  const [day, week, month] = await Promise.all([
    trendingSince(db, now - DAY),
    trendingSince(db, now - 7 * DAY, weekLimit),
    trendingSince(db, now - 30 * DAY),
  ]);
  return { lists: { day, week: week.slice(0, SIDEBAR), month }, week };
}

/** GET /api/product/product-home: both readings of the spec's home data. */
export async function homeData(db: Db, now: number): Promise<HomeData> {
  const [
    phimbomoicapnhat,
    phimlemoicapnhat,
    phimdahoanthanh,
    phimhoathinh,
    phimtamlytimcam,
    phimvientuong,
    phimhanhdong,
    phimsapchieu,
    trendingLists,
  ] = await Promise.all([
    rail(db, eq(films.categoryId, 24)),
    rail(db, eq(films.categoryId, 25)),
    rail(db, eq(films.status, 'completed')),
    rail(db, hasGenre('hoat-hinh')),
    rail(db, or(hasGenre('tam-ly'), hasGenre('tinh-cam'))),
    rail(db, hasGenre('vien-tuong')),
    rail(db, hasGenre('hanh-dong'), SIDEBAR),
    rail(db, eq(films.categoryId, 27), SIDEBAR),
    // Hot = the week's most watched, ten of them: the same query as the week's trending list.
    trending(db, now, HOT),
  ]);
  return {
    phimhot: trendingLists.week,
    phimtrending: trendingLists.lists,
    phimbomoicapnhat,
    phimlemoicapnhat,
    phimdahoanthanh,
    phimhoathinh,
    phimtamlytimcam,
    phimvientuong,
    phimhanhdong,
    phimsapchieu,
  };
}
