// "Tải dữ liệu của tôi" (issue 39 §2, docs/export-format.md, docs/decisions/1042-data-export.md). The owner of the
// export duty: one JSON object with `format_version`, `exportedAt` and one key per section the composition root
// registered (worker/wiring.ts). Sections are read one after another: one connection serves them anyway, and a
// heavy member's file (1,000 history rows, 500 comments, 50 orders) is a few hundred KB.
// Features never import this module (lint: features-do-not-import-duty-owners).
import type { Db } from '../../db/client';
import type { ExportSection } from '../../lib/duties';
import { EXPORT_FORMAT_VERSION } from '../../schemas/account-data';
import { enforceRateLimits, RATE_LIMITS } from '../rate-limit';
import { ACCOUNT_DATA_TEXTS } from '../../schemas/account-data';

export async function exportMemberData(
  db: Db,
  sections: readonly ExportSection[],
  userId: number,
  now: number,
): Promise<Record<string, unknown>> {
  const file: Record<string, unknown> = { format_version: EXPORT_FORMAT_VERSION, exportedAt: now };
  for (const section of sections) file[section.key] = await section.read(db, userId, now);
  return file;
}

/** At most RATE_LIMITS.dataExportPerUser files an hour per member. */
export function limitExports(db: Db, userId: number, now: number): Promise<void> {
  return enforceRateLimits(
    db,
    [{ key: `data-export:user:${userId}`, ...RATE_LIMITS.dataExportPerUser }],
    now,
    ACCOUNT_DATA_TEXTS.tooManyExports,
  );
}
