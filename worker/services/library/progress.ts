// Where a member is in each episode, following them across devices. Last write wins per (member, film,
// episode) on the client's `updatedAt` (capped at the server's clock), so an offline outbox replayed in
// any order converges (docs/decisions/0800-member-library.md).
import { and, desc, eq, lt, max, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { filmAliases, films, rateLimits, watchProgress } from '../../db/schema';
import type { Session } from '../../lib/context';
import { notFound, tooManyRequests } from '../../lib/errors';
import { retentionMs } from '../../schemas/retention';
import { HISTORY_PAGE_SIZE, type HistoryResponse, type ProgressEntry, type ProgressItem } from '../../schemas/library';
import { cardColumns, toFilmCard } from '../catalogue/film-card';
import { batchAsMember } from '../auth/viewer';
import { filmBySlugStatement, filmIdBySlug } from '../catalogue/film-lookup';
import { countHit, RATE_LIMITS, type RateLimitRule } from '../rate-limit';

/** History older than this is deleted by the scheduled job (worker/scheduled.ts). */
export const HISTORY_RETENTION_MS = retentionMs('watchHistory');

/**
 * PUT /api/me/progress: one batch, one round trip. The rate-limit hit and the upsert commit together;
 * the upsert runs only while the member is within the limit, and keeps a stored row whose `updatedAt`
 * is newer. Items of films that no longer exist are dropped (an outbox must be able to drain).
 */
export async function saveProgress(db: Db, input: { userId: number; items: ProgressItem[]; now: number }) {
  const rule: RateLimitRule = { key: `progress:user:${input.userId}`, ...RATE_LIMITS.progressPerUser };
  // The newest of duplicates within one batch: SQLite's upsert cannot touch one row twice in a statement.
  const newest = new Map<string, ProgressItem>();
  for (const item of input.items) {
    const key = `${item.slug}\u0000${item.episode}`;
    const seen = newest.get(key);
    if (!seen || item.updatedAt >= seen.updatedAt) newest.set(key, item);
  }
  const values = sql.join(
    [...newest.values()].map((i) => sql`(${i.slug}, ${i.episode}, ${i.position}, ${i.duration}, ${Math.min(i.updatedAt, input.now)})`),
    sql`, `,
  );
  const [hit, written] = await db.batch([
    countHit(db, rule, input.now),
    db.run(sql`
      with v(slug, episode, position, duration, updated_at) as (values ${values})
      insert into ${watchProgress} (user_id, film_id, episode, position, duration, updated_at)
      select ${input.userId}, f.id, v.episode, v.position, v.duration, v.updated_at
      from v join ${films} f on f.slug = v.slug
        -- A film merged into another (issue 32): an outbox or a downloaded episode still sends its old slug.
        or f.id = (select ${filmAliases.filmId} from ${filmAliases} where ${filmAliases.slug} = v.slug)
      where (select count from ${rateLimits} where key = ${rule.key}) <= ${rule.limit}
      on conflict (user_id, film_id, episode) do update set
        position = excluded.position, duration = excluded.duration, updated_at = excluded.updated_at
      where excluded.updated_at > ${watchProgress.updatedAt}
    `),
  ]);
  if ((hit[0]?.count ?? 1) > rule.limit) throw tooManyRequests();
  return { saved: written.rowsAffected };
}

/**
 * GET /api/me/progress?slug=: every episode of the film the member has progress in, newest first. The
 * film, its progress and the member are one batch (services/auth/viewer.ts): one round trip.
 */
export async function filmProgress(db: Db, session: Session, now: number, slug: string): Promise<{ data: ProgressEntry[] }> {
  const {
    results: [[film], data],
  } = await batchAsMember(
    db,
    session,
    now,
    [
      filmBySlugStatement(db),
      db
        .select({
          episode: watchProgress.episode,
          position: watchProgress.position,
          duration: watchProgress.duration,
          updatedAt: watchProgress.updatedAt,
        })
        .from(watchProgress)
        .where(
          and(
            eq(watchProgress.userId, session.userId),
            eq(watchProgress.filmId, sql`(select ${films.id} from ${films} where ${films.slug} = ${slug})`),
          ),
        )
        .orderBy(desc(watchProgress.updatedAt), desc(watchProgress.episode))
        .prepare(),
    ] as const,
    { slug },
  );
  if (!film) throw notFound('slug: không tìm thấy phim');
  return { data };
}

/**
 * GET /api/me/history?page=: one row per film, its most recently watched episode, newest first
 * ("Xem tiếp" reads the first page).
 */
export async function history(db: Db, session: Session, now: number, page: number): Promise<HistoryResponse> {
  const { userId } = session;
  const latest = db
    .select({ filmId: watchProgress.filmId, updatedAt: max(watchProgress.updatedAt).as('latest') })
    .from(watchProgress)
    .where(eq(watchProgress.userId, userId))
    .groupBy(watchProgress.filmId)
    .as('latest');
  const {
    results: [rows, [total]],
  } = await batchAsMember(
    db,
    session,
    now,
    [
      db
        .select({
          ...cardColumns,
          episode: watchProgress.episode,
          position: watchProgress.position,
          watchedDuration: watchProgress.duration,
          watchedAt: watchProgress.updatedAt,
        })
        .from(latest)
        .innerJoin(
          watchProgress,
          and(eq(watchProgress.userId, userId), eq(watchProgress.filmId, latest.filmId), eq(watchProgress.updatedAt, latest.updatedAt)),
        )
        .innerJoin(films, eq(films.id, latest.filmId))
        .orderBy(desc(latest.updatedAt), desc(watchProgress.episode))
        .limit(HISTORY_PAGE_SIZE)
        .offset((page - 1) * HISTORY_PAGE_SIZE)
        .prepare(),
      db
        .select({ n: sql<number>`count(distinct ${watchProgress.filmId})` })
        .from(watchProgress)
        .where(eq(watchProgress.userId, userId))
        .prepare(),
    ] as const,
    {},
  );
  // Two episodes written in the same millisecond tie: keep one row per film.
  const seen = new Set<number>();
  const data = rows
    .filter((r) => !seen.has(r.id) && seen.add(r.id))
    .map(({ episode, position, watchedDuration, watchedAt, ...card }) => ({
      slug: card.slug,
      episode,
      position,
      duration: watchedDuration,
      updatedAt: watchedAt,
      film: toFilmCard(card),
    }));
  const totalItems = total?.n ?? 0;
  return { data, pagination: { page, pageSize: HISTORY_PAGE_SIZE, totalItems, totalPages: Math.ceil(totalItems / HISTORY_PAGE_SIZE) } };
}

/** DELETE /api/me/history/{slug}: forgets the film's progress (every episode). Idempotent. */
export async function deleteFilmHistory(db: Db, userId: number, slug: string) {
  const filmId = await filmIdBySlug(db, slug, 'slug');
  await db.delete(watchProgress).where(and(eq(watchProgress.userId, userId), eq(watchProgress.filmId, filmId)));
  return { slug, removed: true };
}

/** DELETE /api/me/history: forgets everything the member watched. */
export async function clearHistory(db: Db, userId: number) {
  const result = await db.delete(watchProgress).where(eq(watchProgress.userId, userId));
  return { removed: result.rowsAffected };
}

/** Scheduled: history is kept one year. */
export async function pruneHistory(db: Db, now: number) {
  await db.delete(watchProgress).where(lt(watchProgress.updatedAt, now - HISTORY_RETENTION_MS));
}
