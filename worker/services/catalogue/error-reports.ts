import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { errorReports } from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { AUTO_REPORT_REASON, REPORT_MESSAGES, type ReportErrorInput } from '../../schemas/error-reports';
import { SCHEDULE_UTC_OFFSET_MINUTES } from '../../schemas/admin';
import { enforceRateLimits, RATE_LIMITS } from '../rate-limit';
import { filmIdBySlug } from './film-lookup';

const DAY = 24 * 60 * 60 * 1000;
const OFFSET = SCHEDULE_UTC_OFFSET_MINUTES * 60_000;
/** Unix ms of the start of the Vietnamese day holding ms. */
const startOfDayInVietnam = (ms: number) => Math.floor((ms + OFFSET) / DAY) * DAY - OFFSET;

/**
 * POST /api/product/report_error: stores a playback problem for admins (watch page button). The player's own
 * report of a server it moved away from (reason AUTO_REPORT_REASON) is kept once per episode, server and
 * Vietnamese day: the insert adds the row only when that day has none, in one statement, so many viewers
 * failing at once still file one; the others get that row's id.
 */
export async function reportEpisodeError(db: Db, input: ReportErrorInput, who: { ip: string; viewer: Viewer | null }, now: number) {
  await enforceRateLimits(db, [{ key: `report:ip:${who.ip}`, ...RATE_LIMITS.errorReportPerIp }], now, REPORT_MESSAGES.tooMany);
  const filmId = await filmIdBySlug(db, input.slug, 'slug');
  const values = {
    filmId,
    episode: input.episode,
    serverName: input.server_name ?? null,
    reason: input.reason,
    message: input.message ?? '',
    userId: who.viewer?.id ?? null,
    createdAt: now,
  };
  if (input.reason !== AUTO_REPORT_REASON) {
    const [row] = await db.insert(errorReports).values(values).returning({ id: errorReports.id });
    return { id: row!.id };
  }
  const sameDay = and(
    eq(errorReports.filmId, filmId),
    eq(errorReports.episode, input.episode),
    sql`${errorReports.serverName} IS ${values.serverName}`,
    eq(errorReports.reason, AUTO_REPORT_REASON),
    gte(errorReports.createdAt, startOfDayInVietnam(now)),
  );
  const [added] = await db
    .insert(errorReports)
    .select(
      db
        .select({
          id: sql`NULL`.as('id'),
          filmId: sql`${values.filmId}`.as('film_id'),
          episode: sql`${values.episode}`.as('episode'),
          serverName: sql`${values.serverName}`.as('server_name'),
          reason: sql`${values.reason}`.as('reason'),
          message: sql`${values.message}`.as('message'),
          userId: sql`${values.userId}`.as('user_id'),
          createdAt: sql`${values.createdAt}`.as('created_at'),
          resolvedAt: sql`NULL`.as('resolved_at'),
        })
        .from(sql`(SELECT 1)`)
        .where(sql`NOT EXISTS (SELECT 1 FROM ${errorReports} WHERE ${sameDay})`),
    )
    .returning({ id: errorReports.id });
  if (added) return { id: added.id };
  const [existing] = await db.select({ id: errorReports.id }).from(errorReports).where(sameDay).limit(1);
  return { id: existing!.id };
}
