import { desc, eq, gte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { films, viewEvents } from '../../db/schema';
import type { FilmCard, HomeData } from '../../schemas/catalogue';
import { type CardRow, cardColumns, toFilmCard } from './film-card';
import { hasGenre } from './listing';

const RAIL = 12;
const SIDEBAR = 8;
const HOT = 10;
const DAY = 24 * 60 * 60 * 1000;

const rail = (db: Db, where: SQL | undefined, limit = RAIL) =>
  db.select(cardColumns).from(films).where(where).orderBy(desc(films.updatedAt), desc(films.id)).limit(limit);

/** Most viewed films by view events since `since`. */
function watchedSince(db: Db, since: number, limit: number) {
  const counts = db
    .select({ filmId: viewEvents.filmId, n: sql<number>`count(*)`.as('n') })
    .from(viewEvents)
    .where(gte(viewEvents.viewedAt, since))
    .groupBy(viewEvents.filmId)
    .as('counts');
  return db
    .select(cardColumns)
    .from(counts)
    .innerJoin(films, eq(films.id, counts.filmId))
    .orderBy(desc(counts.n), desc(films.views))
    .limit(limit);
}

/** The most viewed then most recently updated films, for a trending list too few were watched for. */
function topUp(db: Db, watched: CardRow[], limit: number) {
  return db
    .select(cardColumns)
    .from(films)
    .where(
      watched.length
        ? notInArray(
            films.id,
            watched.map((r) => r.id),
          )
        : undefined,
    )
    .orderBy(desc(films.views), desc(films.updatedAt), desc(films.id))
    .limit(limit - watched.length);
}

/**
 * GET /api/product/product-home: both readings of the spec's home data. Every rail and
 * trending list in one batch, then one more only when a trending window had too few views (a fresh
 * install): at most two round trips to the database on Workers, where each is a network call.
 */
export async function homeData(db: Db, now: number): Promise<HomeData> {
  const windows = [
    { since: now - DAY, limit: SIDEBAR },
    // Hot = the week's most watched, ten of them: the same query as the week's trending list.
    { since: now - 7 * DAY, limit: HOT },
    { since: now - 30 * DAY, limit: SIDEBAR },
  ];
  const [bo, le, hoanThanh, hoatHinh, tamLy, vienTuong, hanhDong, sapChieu, ...watched] = await db.batch([
    rail(db, eq(films.categoryId, 24)),
    rail(db, eq(films.categoryId, 25)),
    rail(db, eq(films.status, 'completed')),
    rail(db, hasGenre('hoat-hinh')),
    rail(db, or(hasGenre('tam-ly'), hasGenre('tinh-cam'))),
    rail(db, hasGenre('vien-tuong')),
    rail(db, hasGenre('hanh-dong'), SIDEBAR),
    rail(db, eq(films.categoryId, 27), SIDEBAR),
    ...windows.map((w) => watchedSince(db, w.since, w.limit)),
  ]);
  const short = windows.map((w, i) => ({ ...w, rows: watched[i] as CardRow[] })).filter((w) => w.rows.length < w.limit);
  const [first, ...rest] = short.map((w) => topUp(db, w.rows, w.limit));
  const fills = first ? await db.batch([first, ...rest]) : [];
  const [day, week, month] = windows.map((w, i) => {
    const rows = watched[i] as CardRow[];
    const fill = short.findIndex((s) => s.since === w.since);
    return [...rows, ...(fill >= 0 ? (fills[fill] as CardRow[]) : [])].map((r) => toFilmCard(r));
  }) as [FilmCard[], FilmCard[], FilmCard[]];
  const cards = (rows: CardRow[]) => rows.map((r) => toFilmCard(r));
  return {
    phimhot: week,
    phimtrending: { day, week: week.slice(0, SIDEBAR), month },
    phimbomoicapnhat: cards(bo),
    phimlemoicapnhat: cards(le),
    phimdahoanthanh: cards(hoanThanh),
    phimhoathinh: cards(hoatHinh),
    phimtamlytimcam: cards(tamLy),
    phimvientuong: cards(vienTuong),
    phimhanhdong: cards(hanhDong),
    phimsapchieu: cards(sapChieu),
  };
}
