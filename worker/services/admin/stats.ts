// The dashboard's and analytics' real figures (issue 9) from the tables that record them: films,
// episodes, users, subscriptions, paid payments, view events, error reports and crawl runs. Days and
// months are Asia/Ho_Chi_Minh (UTC+7, no DST), like the schedule.
import { and, count, countDistinct, desc, eq, gt, gte, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { episodes, errorReports, films, payments, subscriptions, users, viewEvents } from '../../db/schema';
import {
  type AdminAnalytics,
  type AdminStats,
  type DayCount,
  type MonthRevenue,
  SCHEDULE_UTC_OFFSET_MINUTES,
  type TopFilm,
  type UploaderStats,
} from '../../schemas/admin';
import { lastCrawlRuns } from './crawls';
import { mailHealth } from '../mail/outbox';
import { moderationSummary } from '../comments/moderation';

const DAY = 24 * 60 * 60 * 1000;
const OFFSET = SCHEDULE_UTC_OFFSET_MINUTES * 60_000;

/** 'YYYY-MM-DD' of a unix ms in Vietnam. */
const dayOf = (ms: number) => new Date(ms + OFFSET).toISOString().slice(0, 10);
/** Unix ms of the start of the Vietnamese day holding ms. */
const startOfDay = (ms: number) => Math.floor((ms + OFFSET) / DAY) * DAY - OFFSET;

function monthStart(ms: number, monthsBack = 0): number {
  const local = new Date(ms + OFFSET);
  return Date.UTC(local.getUTCFullYear(), local.getUTCMonth() - monthsBack, 1) - OFFSET;
}

export async function viewsPerDay(db: Db, now: number, days = 30): Promise<DayCount[]> {
  const from = startOfDay(now) - (days - 1) * DAY;
  const dayExpr = sql<string>`strftime('%Y-%m-%d', (${viewEvents.viewedAt} + ${OFFSET}) / 1000, 'unixepoch')`;
  const rows = await db.select({ day: dayExpr, views: count() }).from(viewEvents).where(gte(viewEvents.viewedAt, from)).groupBy(dayExpr);
  const byDay = new Map(rows.map((r) => [r.day, r.views]));
  return Array.from({ length: days }, (_, i) => {
    const day = dayOf(from + i * DAY);
    return { day, views: byDay.get(day) ?? 0 };
  });
}

export async function topFilms(db: Db, since: number, limit = 10): Promise<TopFilm[]> {
  const views = count(viewEvents.id);
  const rows = await db
    .select({ slug: films.slug, title: films.title, views })
    .from(viewEvents)
    .innerJoin(films, eq(films.id, viewEvents.filmId))
    .where(gte(viewEvents.viewedAt, since))
    .groupBy(films.id)
    .orderBy(desc(views), films.id)
    .limit(limit);
  return rows;
}

async function revenueByMonth(db: Db, now: number, months = 12): Promise<MonthRevenue[]> {
  const from = monthStart(now, months - 1);
  const monthExpr = sql<string>`strftime('%Y-%m', (${payments.paidAt} + ${OFFSET}) / 1000, 'unixepoch')`;
  const rows = await db
    .select({ month: monthExpr, amount: sql<number>`coalesce(sum(${payments.amount}), 0)` })
    .from(payments)
    .where(and(eq(payments.status, 'paid'), gte(payments.paidAt, from)))
    .groupBy(monthExpr);
  const byMonth = new Map(rows.map((r) => [r.month, Number(r.amount)]));
  return Array.from({ length: months }, (_, i) => {
    const month = dayOf(monthStart(now, months - 1 - i)).slice(0, 7);
    return { month, amount: byMonth.get(month) ?? 0 };
  });
}

export async function adminStats(db: Db, now: number): Promise<AdminStats> {
  const [[filmCount], [episodeCount], [userCount], vip, revenue, perDay, top, [openReports], runs, mail, moderationQueue] =
    await Promise.all([
      db.select({ n: count() }).from(films),
      db.select({ n: count() }).from(episodes),
      db.select({ n: count() }).from(users),
      db
        .select({ plan: subscriptions.plan, n: countDistinct(subscriptions.userId) })
        .from(subscriptions)
        .where(gt(subscriptions.expiresAt, now))
        .groupBy(subscriptions.plan),
      revenueByMonth(db, now),
      viewsPerDay(db, now),
      topFilms(db, now - 7 * DAY),
      db.select({ n: count() }).from(errorReports).where(isNull(errorReports.resolvedAt)),
      lastCrawlRuns(db, 5),
      mailHealth(db),
      moderationSummary(db, { id: 0, roles: ['admin'] }),
    ]);
  return {
    scope: 'site',
    films: filmCount?.n ?? 0,
    episodes: episodeCount?.n ?? 0,
    users: userCount?.n ?? 0,
    vipMembers: { VIP1: vip.find((v) => v.plan === 'VIP1')?.n ?? 0, VIP2: vip.find((v) => v.plan === 'VIP2')?.n ?? 0 },
    revenueThisMonth: revenue.at(-1)?.amount ?? 0,
    revenueByMonth: revenue,
    viewsPerDay: perDay,
    topFilmsWeek: top,
    openErrorReports: openReports?.n ?? 0,
    lastCrawlRuns: runs,
    mail,
    moderationQueue,
  };
}

/**
 * The dashboard of a VIP2 uploader who is not an admin: the films they added, their episodes and views.
 * Revenue, users and members are the site's business and stay with admins: a specification defect corrected
 * knowingly (docs/decisions/0004-spec-defects-corrected.md; 0700-deleted-films-stay-deleted.md, "VIP2 within
 * bounds").
 */
export async function uploaderStats(db: Db, uploaderId: number): Promise<UploaderStats> {
  const episodeCount = db
    .select({ filmId: episodes.filmId, n: count().as('n') })
    .from(episodes)
    .groupBy(episodes.filmId)
    .as('episode_count');
  const [[totals], recent, moderationQueue] = await Promise.all([
    db
      .select({
        films: count(),
        episodes: sql<number>`coalesce(sum(${episodeCount.n}), 0)`,
        views: sql<number>`coalesce(sum(${films.views}), 0)`,
      })
      .from(films)
      .leftJoin(episodeCount, eq(episodeCount.filmId, films.id))
      .where(eq(films.createdBy, uploaderId)),
    db
      .select({
        slug: films.slug,
        title: films.title,
        episodes: sql<number>`coalesce(${episodeCount.n}, 0)`,
        views: films.views,
        updatedAt: films.updatedAt,
      })
      .from(films)
      .leftJoin(episodeCount, eq(episodeCount.filmId, films.id))
      .where(eq(films.createdBy, uploaderId))
      .orderBy(desc(films.updatedAt), desc(films.id))
      .limit(20),
    moderationSummary(db, { id: uploaderId, roles: [] }),
  ]);
  return {
    scope: 'uploads',
    films: totals?.films ?? 0,
    episodes: Number(totals?.episodes ?? 0),
    views: Number(totals?.views ?? 0),
    recentFilms: recent.map((r) => ({ ...r, episodes: Number(r.episodes) })),
    moderationQueue,
  };
}

export async function adminAnalytics(db: Db, now: number): Promise<AdminAnalytics> {
  const [perDay, week, month, allTime] = await Promise.all([
    viewsPerDay(db, now),
    topFilms(db, now - 7 * DAY),
    topFilms(db, now - 30 * DAY),
    db.select({ slug: films.slug, title: films.title, views: films.views }).from(films).orderBy(desc(films.views), films.id).limit(10),
  ]);
  return { viewsPerDay: perDay, topFilmsWeek: week, topFilmsMonth: month, topFilmsAllTime: allTime };
}
