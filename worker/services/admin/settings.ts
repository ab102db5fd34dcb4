// Operator settings (hotline, bank details for transfers, crawl source) in the settings table; until
// an operator saves one, its value comes from the environment (worker/config.ts).
import { inArray, sql } from 'drizzle-orm';
import { type Config, configuredSources } from '../../config';
import type { Db } from '../../db/client';
import { settings } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { ADMIN_TEXTS, type AdminSettings } from '../../schemas/admin';
import { COMMENT_NEW_ACCOUNT_DAYS_DEFAULT, COMMENT_REPORT_THRESHOLD_DEFAULT } from '../../schemas/values';
import { allowedOriginSet, parseHttpUrl } from '../crawler/fetch-guard';
import { type Actor, auditInsert } from './audit';

type SettingsConfig = Pick<
  Config,
  'PAYMENT_HOTLINE' | 'BANK_NAME' | 'BANK_ACCOUNT_NUMBER' | 'BANK_ACCOUNT_HOLDER' | 'BANK_BIN' | 'CRAWL_SOURCE' | 'CRAWL_SOURCES'
>;

const KEYS = [
  'hotline',
  'bankName',
  'bankAccount',
  'bankHolder',
  'bankBin',
  'crawlSource',
  'commentReportThreshold',
  'commentNewAccountDays',
] as const satisfies readonly (keyof AdminSettings)[];
/** Settings kept as whole numbers (comment moderation); the others are text. */
const NUMBER_KEYS: ReadonlySet<string> = new Set(['commentReportThreshold', 'commentNewAccountDays']);

function defaults(config: SettingsConfig): AdminSettings {
  return {
    hotline: config.PAYMENT_HOTLINE,
    bankName: config.BANK_NAME ?? '',
    bankAccount: config.BANK_ACCOUNT_NUMBER ?? '',
    bankHolder: config.BANK_ACCOUNT_HOLDER ?? '',
    bankBin: config.BANK_BIN ?? '',
    crawlSource: configuredSources(config.CRAWL_SOURCE)[0]?.url ?? config.CRAWL_SOURCE,
    commentReportThreshold: COMMENT_REPORT_THRESHOLD_DEFAULT,
    commentNewAccountDays: COMMENT_NEW_ACCOUNT_DAYS_DEFAULT,
  };
}

export async function readSettings(db: Db, config: SettingsConfig): Promise<AdminSettings> {
  const rows = await db
    .select()
    .from(settings)
    .where(inArray(settings.key, [...KEYS]));
  const result: Record<string, string | number> = defaults(config);
  for (const row of rows) {
    if (!(KEYS as readonly string[]).includes(row.key)) continue;
    if (!NUMBER_KEYS.has(row.key)) result[row.key] = row.value;
    else if (Number.isInteger(Number(row.value))) result[row.key] = Number(row.value);
  }
  return result as AdminSettings;
}

/** The crawl source admin and scheduled crawls use: the saved one while still allowlisted, else CRAWL_SOURCE. */
export async function crawlSourceSetting(db: Db, config: SettingsConfig): Promise<string> {
  const { crawlSource } = await readSettings(db, config);
  return isAllowedSource(crawlSource, config.CRAWL_SOURCES)
    ? crawlSource
    : (configuredSources(config.CRAWL_SOURCE)[0]?.url ?? config.CRAWL_SOURCE);
}

export function isAllowedSource(source: string, allowed: readonly string[]): boolean {
  const url = parseHttpUrl(source);
  return !!url && allowedOriginSet(allowed).has(url.origin);
}

export async function updateSettings(
  db: Db,
  config: SettingsConfig,
  actor: Actor,
  patch: Partial<AdminSettings>,
  now: number,
): Promise<AdminSettings> {
  if (patch.crawlSource !== undefined && !isAllowedSource(patch.crawlSource, config.CRAWL_SOURCES)) {
    throw badRequest('crawlSource', ADMIN_TEXTS.crawlSourceNotAllowed);
  }
  const before = await readSettings(db, config);
  const changed = KEYS.filter((k) => patch[k] !== undefined && patch[k] !== before[k]);
  if (!changed.length) return before;
  const after: Record<string, string | number> = { ...before };
  for (const k of changed) after[k] = patch[k] as string | number;
  await db.batch([
    db
      .insert(settings)
      .values(changed.map((k) => ({ key: k, value: String(after[k]), updatedAt: now })))
      .onConflictDoUpdate({ target: settings.key, set: { value: sql`excluded.value`, updatedAt: now } }),
    auditInsert(
      db,
      actor,
      {
        action: 'settings.update',
        target: 'settings',
        before: Object.fromEntries(changed.map((k) => [k, before[k]])),
        after: Object.fromEntries(changed.map((k) => [k, after[k]])),
      },
      now,
    ),
  ]);
  return after as AdminSettings;
}
