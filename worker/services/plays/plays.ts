// Plays and the Top 10 (issue 40 §3, docs/decisions/1071-plays-rank.md). A play is a device's 120 s of real playback
// of a film, counted once per device, film and Asia/Ho_Chi_Minh day by the plays primary key; a trigger keeps
// play_counts (the Top 10's table) and the trending rollup. Film-page loads (update_view) rank nothing.
import { and, desc, eq, gte, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { films, playCounts, plays } from '../../db/schema';
import { notFound } from '../../lib/errors';
import type { FilmCard } from '../../schemas/catalogue';
import { type PlayInput, TOP10_CATEGORIES, TOP10_MIN_VIEWERS, TOP10_SIZE, type Top10Entry, type Top10Rows } from '../../schemas/discovery';
import { cardJson, cardsFromJson } from '../catalogue/film-card';
import { enforceRateLimits, RATE_LIMITS } from '../rate-limit';

const DAY = 86_400_000;
/** Asia/Ho_Chi_Minh is UTC+7 all year (no daylight saving). */
const VIETNAM_OFFSET = 7 * 3_600_000;

/** The Asia/Ho_Chi_Minh day number of `now` (days since 1970-01-01 there). */
export const dayOf = (now: number) => Math.floor((now + VIETNAM_OFFSET) / DAY);

/** The device's random id is not kept: its SHA-256 (hex, 32 characters) keys its plays. */
export async function deviceKey(device: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`phimviet-play:${device}`));
  return [...new Uint8Array(digest).slice(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * POST /api/product/play: counts the play unless this device already played the film today. Rate-limited per
 * network and per device; an unknown film is a 404. Answers whether this call counted.
 */
export async function recordPlay(db: Db, input: PlayInput, ip: string, now: number): Promise<{ counted: boolean }> {
  const device = await deviceKey(input.device);
  await enforceRateLimits(
    db,
    [
      { key: `play:ip:${ip}`, ...RATE_LIMITS.playPerIp },
      { key: `play:device:${device}`, ...RATE_LIMITS.playPerDevice },
    ],
    now,
  );
  const [found, inserted] = await db.batch([
    db.select({ id: films.id }).from(films).where(eq(films.slug, input.slug)).limit(1),
    db
      .insert(plays)
      .select(
        db
          .select({
            day: sql<number>`${dayOf(now)}`.as('day'),
            filmId: films.id,
            device: sql<string>`${device}`.as('device'),
            playedAt: sql<number>`${now}`.as('played_at'),
          })
          .from(films)
          .where(eq(films.slug, input.slug)),
      )
      .onConflictDoNothing()
      .returning({ filmId: plays.filmId }),
  ]);
  if (!found.length) throw notFound('slug: không tìm thấy phim');
  return { counted: inserted.length > 0 };
}

const p = { today: sql.placeholder('today'), yesterday: sql.placeholder('yesterday') };

/** Yesterday's rank of the film in `category`, or null when it was not among yesterday's Top 10 (with enough viewers). */
const previousRank = (category: number) => sql<number | null>`(select case when y.plays >= ${TOP10_MIN_VIEWERS} then 1 + (
    select count(*) from ${playCounts} z where z.day = ${p.yesterday} and z.category_id = ${sql.raw(String(category))}
      and (z.plays > y.plays or (z.plays = y.plays and z.film_id > y.film_id))) end
  from ${playCounts} y where y.day = ${p.yesterday} and y.film_id = ${films.id})`;

/**
 * Today's ten most played films of a category with at least TOP10_MIN_VIEWERS viewers each, and yesterday's rank of
 * each: a walk of play_counts_rank (day, category, plays) that stops after ten rows.
 */
export function top10Statement(db: Db, category: number) {
  return db
    .select({ card: cardJson, previous: previousRank(category) })
    .from(playCounts)
    .innerJoin(films, eq(films.id, playCounts.filmId))
    .where(and(eq(playCounts.day, p.today), eq(playCounts.categoryId, category), gte(playCounts.plays, TOP10_MIN_VIEWERS)))
    .orderBy(desc(playCounts.plays), desc(playCounts.filmId))
    .limit(TOP10_SIZE)
    .prepare();
}

export const top10Values = (now: number) => ({ today: dayOf(now), yesterday: dayOf(now) - 1 });

/** The rows of a top10Statement → the row as shown: hidden (empty) until ten films have enough viewers. */
export function top10Entries(rows: readonly { card: string; previous: number | null }[]): Top10Entry[] {
  if (rows.length < TOP10_SIZE) return [];
  const cards: FilmCard[] = cardsFromJson([{ cards: `[${rows.map((r) => r.card).join(',')}]` }]);
  return cards.map((film, i) => {
    const previous = rows[i]?.previous ?? null;
    return { rank: i + 1, previous: previous !== null && previous <= TOP10_SIZE ? previous : null, film };
  });
}

export const TOP10_LISTS = Object.entries(TOP10_CATEGORIES) as [keyof Top10Rows, number][];

/**
 * The film's place in today's shown Top 10 of its category (`filmId` as SQL), as one row { category, rank, shown }:
 * shown is how many films of the category have enough viewers (up to ten); the row is shown when it is ten.
 */
export function filmRankStatement(db: Db, filmId: SQL) {
  // Qualified by hand: drizzle leaves a one-table select's columns bare, which the subqueries would read as their own.
  const pc = alias(playCounts, 'pc');
  return db
    .select({
      category: pc.categoryId,
      rank: sql<number>`1 + (select count(*) from ${playCounts} z where z.day = pc.day and z.category_id = pc.category_id
        and (z.plays > pc.plays or (z.plays = pc.plays and z.film_id > pc.film_id)))`,
      shown: sql<number>`(select count(*) from (select 1 from ${playCounts} w where w.day = pc.day and w.category_id = pc.category_id
        and w.plays >= ${TOP10_MIN_VIEWERS} limit ${TOP10_SIZE}))`,
    })
    .from(pc)
    .where(sql`pc.day = ${p.today} and pc.film_id = ${filmId} and pc.plays >= ${TOP10_MIN_VIEWERS}`);
}

/** A filmRankStatement's rows → "#3 phim bộ hôm nay", or null. */
export function filmTop10(rows: readonly { category: number; rank: number; shown: number }[]) {
  const row = rows[0];
  if (!row || row.shown < TOP10_SIZE || row.rank > TOP10_SIZE) return null;
  const list = TOP10_LISTS.find(([, category]) => category === row.category)?.[0];
  return list ? { rank: row.rank, list } : null;
}
