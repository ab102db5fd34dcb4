import { and, between, desc, eq, gte, not, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { batchPrepared, type PreparedResults, preparedOnce } from '../../db/prepared';
import { filmViewsHourly, films, trendingViews, trendingWindows } from '../../db/schema';
import type { FilmCard, HomeData, HomeTopData, SideFilm, SidebarData } from '../../schemas/catalogue';
import { cardJson, cardList, cardsFromJson, selectCards } from './film-card';
import { hasGenre } from './listing';
import { HOUR } from './trending';
import { TOP10_CATEGORIES } from '../../schemas/discovery';
import { top10Entries, top10Statement, top10Values } from '../plays/plays';

const RAIL = 12;
const SIDEBAR = 8;
const HOT = 10;

/** The most recently updated films that match `where`, as one JSON array of cards (film-card.ts cardArray). */
const rail = (db: Db, where: SQL | undefined, limit = RAIL) =>
  cardList(db, selectCards(db).where(where).orderBy(desc(films.updatedAt), desc(films.id)).limit(limit));

type Span = 'day' | 'week' | 'month';

/**
 * The window's counts kept by the view_events trigger are current when the scheduler last moved the
 * window to start at `since` or the hour before (its minute job has not run yet this hour).
 */
const windowRow = (span: Span) => eq(trendingWindows.name, span);
const keptCurrent = (span: Span) => between(trendingWindows.sinceHour, sinceOf(span, -1), sinceOf(span));
/** The window's first hour (and the one before it), bound per request into the prepared statements. */
const sinceOf = (span: Span, offset = 0) => sql.placeholder(offset ? `${span}SinceBefore` : `${span}Since`);

/**
 * Most viewed films of a window (docs/decisions/0607), one statement: the kept counts, a walk of the
 * (span, views, film_views, film_id) index that stops after `limit` rows whatever the number of films or
 * view events, while they are current; else the same list summed from the hourly rollup (the scheduler
 * has not run for an hour, or a test moved the clock). Each branch tests its window's one row first, so
 * the branch that does not apply reads nothing else. Ties go to the film with more views in all.
 */
function watchedIn(db: Db, span: Span, limit: number) {
  const kept = db
    .select({
      card: cardJson.as('card'),
      id: films.id,
      n: sql<number>`${trendingViews.views}`.as('n'),
      tie: sql<number>`${trendingViews.filmViews}`.as('tie'),
    })
    .from(trendingWindows)
    .innerJoin(trendingViews, eq(trendingViews.span, trendingWindows.name))
    .innerJoin(films, eq(films.id, trendingViews.filmId))
    .where(and(windowRow(span), keptCurrent(span)))
    .orderBy(desc(trendingViews.views), desc(trendingViews.filmViews), desc(trendingViews.filmId))
    .limit(limit)
    .as('kept');
  const counts = db
    .select({ filmId: filmViewsHourly.filmId, n: sql<number>`sum(${filmViewsHourly.views})`.as('n') })
    .from(trendingWindows)
    .innerJoin(filmViewsHourly, gte(filmViewsHourly.hour, sinceOf(span)))
    .where(and(windowRow(span), not(keptCurrent(span))))
    .groupBy(filmViewsHourly.filmId)
    .as('counts');
  const summed = db
    .select({ card: cardJson.as('card'), id: films.id, n: sql<number>`${counts.n}`.as('n'), tie: sql<number>`${films.views}`.as('tie') })
    .from(counts)
    .innerJoin(films, eq(films.id, counts.filmId))
    .orderBy(desc(counts.n), desc(films.views), desc(films.id))
    .limit(limit)
    .as('summed');
  return cardList(db, db.select().from(kept).unionAll(db.select().from(summed)).orderBy(sql`"n" desc, "tie" desc, "id" desc`));
}

/**
 * The most recently updated films: what tops up a trending list too few were watched for (a fresh install). Not
 * the most viewed: page loads rank nothing (issue 40 §3, docs/decisions/1071), and a reload loop would move a
 * film into the top-up. Asked in the same batch as the lists, whether needed or not (a few index rows): a second
 * round trip would cost more. HOT of them cover every window, whatever it already holds.
 */
const topUpCandidates = (db: Db) => cardList(db, selectCards(db).orderBy(desc(films.updatedAt), desc(films.id)).limit(HOT));

const WINDOWS = [
  { span: 'day' as const, hours: 24, limit: SIDEBAR },
  // Hot = the week's most watched, ten of them: the same query as the week's trending list.
  { span: 'week' as const, hours: 7 * 24, limit: HOT },
  { span: 'month' as const, hours: 30 * 24, limit: SIDEBAR },
];

/**
 * The home's twelve selects, built once per database (db/prepared.ts): building them per request was a
 * quarter of the home's CPU (bench/profile-loop.ts home). Only the windows' first hours vary.
 */
const homeStatements = preparedOnce(
  (db: Db) =>
    [
      rail(db, eq(films.categoryId, 24)).prepare(),
      rail(db, eq(films.categoryId, 25)).prepare(),
      rail(db, eq(films.status, 'completed')).prepare(),
      rail(db, hasGenre('hoat-hinh')).prepare(),
      rail(db, or(hasGenre('tam-ly'), hasGenre('tinh-cam'))).prepare(),
      rail(db, hasGenre('vien-tuong')).prepare(),
      rail(db, hasGenre('hanh-dong'), SIDEBAR).prepare(),
      rail(db, eq(films.categoryId, 27), SIDEBAR).prepare(),
      topUpCandidates(db).prepare(),
      ...WINDOWS.map((w) => watchedIn(db, w.span, w.limit).prepare()),
    ] as const,
);

/** The Top 10 rows (issue 40 §3), in the home's batch. */
const top10Statements = preparedOnce(
  (db: Db) => [top10Statement(db, TOP10_CATEGORIES.phimbo), top10Statement(db, TOP10_CATEGORIES.phimle)] as const,
);

/**
 * GET /api/product/product-home: both readings of the spec's home data. Every rail and trending list,
 * with the films that top up a list too few were watched for, in one batch: one round trip to the
 * database on Workers, where each is a network call.
 */
export async function homeData(db: Db, now: number): Promise<HomeData> {
  const windows = windowsAt(now);
  const home = homeStatements(db);
  const results = await batchPrepared(db, [...home, ...top10Statements(db)], { ...windowValues(windows), ...top10Values(now) });
  const [bo, le, hoanThanh, hoatHinh, tamLy, vienTuong, hanhDong, sapChieu, candidates, ...lists] = results.slice(
    0,
    home.length,
  ) as PreparedResults<ReturnType<typeof homeStatements>>;
  const [topBo, topLe] = results.slice(home.length) as PreparedResults<ReturnType<typeof top10Statements>>;
  const [day, week, month] = trendingLists(windows, lists, candidates);
  return {
    top10: { phimbo: top10Entries(topBo), phimle: top10Entries(topLe) },
    phimhot: week,
    phimtrending: { day, week: week.slice(0, SIDEBAR), month },
    phimbomoicapnhat: cardsFromJson(bo),
    phimlemoicapnhat: cardsFromJson(le),
    phimdahoanthanh: cardsFromJson(hoanThanh),
    phimhoathinh: cardsFromJson(hoatHinh),
    phimtamlytimcam: cardsFromJson(tamLy),
    phimvientuong: cardsFromJson(vienTuong),
    phimhanhdong: cardsFromJson(hanhDong),
    phimsapchieu: cardsFromJson(sapChieu),
  };
}

/** The hot films (the week's most watched, topped up) and the new series: the home's first screen only. */
const homeTopStatements = preparedOnce(
  (db: Db) => [rail(db, eq(films.categoryId, 24)).prepare(), topUpCandidates(db).prepare(), watchedIn(db, 'week', HOT).prepare()] as const,
);

/**
 * GET /api/product/home-top: what the home shows before anything is scrolled or switched (the hot carousel
 * and the first tab), in one round trip: the server renders the home from it and carries only it, and the
 * browser asks the whole home (homeData) for the other tabs, sections and the sidebar.
 */
export async function homeTopData(db: Db, now: number): Promise<HomeTopData> {
  const [, week] = windowsAt(now);
  const [bo, candidates, watched] = await batchPrepared(db, homeTopStatements(db), windowValues([week]));
  const [hot] = trendingLists([week] as const, [watched], candidates);
  return { phimhot: hot, phimbomoicapnhat: cardsFromJson(bo) };
}

/** The sidebar's lists only (action films, upcoming, trending): what a listing page shows beside its films. */
const sidebarStatements = preparedOnce(
  (db: Db) =>
    [
      rail(db, hasGenre('hanh-dong'), SIDEBAR).prepare(),
      rail(db, eq(films.categoryId, 27), SIDEBAR).prepare(),
      topUpCandidates(db).prepare(),
      ...WINDOWS.map((w) => watchedIn(db, w.span, w.limit).prepare()),
    ] as const,
);

/** GET /api/product/sidebar: the home's sidebar lists, in one round trip, a fraction of its bytes. */
export async function sidebarData(db: Db, now: number): Promise<SidebarData> {
  const windows = windowsAt(now);
  const [hanhDong, sapChieu, candidates, ...lists] = await batchPrepared(db, sidebarStatements(db), windowValues(windows));
  const [day, week, month] = trendingLists(windows, lists, candidates);
  const side = (cards: FilmCard[]): SideFilm[] =>
    cards.map(({ id, slug, title, hinhanh, thumb, namphathanh, views, VIP1 }) => ({
      id,
      slug,
      title,
      hinhanh,
      thumb,
      namphathanh,
      views,
      VIP1,
    }));
  return {
    phimhanhdong: side(cardsFromJson(hanhDong)),
    phimsapchieu: side(cardsFromJson(sapChieu)),
    phimtrending: { day: side(day), week: side(week.slice(0, SIDEBAR)), month: side(month) },
  };
}

type Window = (typeof WINDOWS)[number] & { since: number };

/** Windows count whole hours: the current hour and the 24 (168, 720) before it. */
const windowsAt = (now: number) => {
  const hour = Math.floor(now / HOUR);
  return WINDOWS.map((w) => ({ ...w, since: hour - w.hours })) as [day: Window, week: Window, month: Window];
};

const windowValues = (windows: readonly Window[]) =>
  Object.fromEntries(
    windows.flatMap((w) => [
      [`${w.span}Since`, w.since],
      [`${w.span}SinceBefore`, w.since - 1],
    ]),
  );

/** Each window's most watched films, topped up from the candidates when a window had too few views. */
function trendingLists<const W extends readonly Window[]>(
  windows: W,
  watched: { cards: string }[][],
  candidateRows: { cards: string }[],
): { [K in keyof W]: FilmCard[] } {
  const candidates = cardsFromJson(candidateRows);
  return windows.map((w, i) => {
    const cards = cardsFromJson(watched[i] ?? []);
    const listed = new Set(cards.map((c) => c.id));
    const fill = cards.length < w.limit ? candidates.filter((c) => !listed.has(c.id)).slice(0, w.limit - cards.length) : [];
    return [...cards, ...fill];
  }) as { [K in keyof W]: FilmCard[] };
}
