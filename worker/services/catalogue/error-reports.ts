import type { Db } from '../../db/client';
import { errorReports } from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { REPORT_MESSAGES, type ReportErrorInput } from '../../schemas/error-reports';
import { enforceRateLimits, RATE_LIMITS } from '../rate-limit';
import { filmIdBySlug } from './film-lookup';

/** POST /api/product/report_error: stores a playback problem for admins (watch page button). */
export async function reportEpisodeError(db: Db, input: ReportErrorInput, who: { ip: string; viewer: Viewer | null }, now: number) {
  await enforceRateLimits(db, [{ key: `report:ip:${who.ip}`, ...RATE_LIMITS.errorReportPerIp }], now, REPORT_MESSAGES.tooMany);
  const filmId = await filmIdBySlug(db, input.slug, 'slug');
  const [row] = await db
    .insert(errorReports)
    .values({
      filmId,
      episode: input.episode,
      serverName: input.server_name ?? null,
      reason: input.reason,
      message: input.message ?? '',
      userId: who.viewer?.id ?? null,
      createdAt: now,
    })
    .returning({ id: errorReports.id });
  return { id: row!.id };
}
