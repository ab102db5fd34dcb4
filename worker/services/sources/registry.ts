// The sources the crawler reads, as things an operator manages ("Nguồn phim", issue 32; docs/decisions/0104): each
// is registered once (by configuration, the admin page, or the first crawl of its base URL), has a family, a name
// its servers carry, a priority and a switch, and a health: a source that fails crawls in a row is backed off (a
// growing delay) and marked down ("Không phản hồi"), its servers last in every film; it resumes by itself the
// first time it answers again (a crawl, the admin's check, or the scheduler's retry once its delay is over).
import { and, asc, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { type Config, configuredSources } from '../../config';
import type { Db } from '../../db/client';
import { catalogueVersion, crawlLog, crawlRuns, episodes, filmSources, sources } from '../../db/schema';
import { forgetCatalogueVersion } from '../catalogue/version';
import { allowedOriginSet, errorMessage, guardedFetchJson, parseHttpUrl } from '../crawler/fetch-guard';
import { parseListPage, type SourceFamily } from '../crawler/source-shapes';

export type SourceRow = typeof sources.$inferSelect;

/** Crawls in a row that fail before a source is backed off and marked down. */
export const FAILURES_BEFORE_DOWN = 3;
/** The first delay of a down source; doubled at each further failure, up to a day. */
export const BACKOFF_BASE_MS = 5 * 60_000;
export const BACKOFF_MAX_MS = 24 * 60 * 60_000;
/** How long the admin's check and the scheduler's retry wait for a source's first list page. */
export const CHECK_TIMEOUT_MS = 5_000;

/** The name viewers see beside a family's servers, until an operator names the source. */
export const FAMILY_NAMES: Record<SourceFamily, string> = {
  ophim: 'OPhim',
  'ophim-v1': 'OPhim',
  kkphim: 'KKPhim',
  'kkphim-v1': 'KKPhim',
};

/** A base URL as the registry keys it: http(s), no credentials, no query, no trailing slash. */
export function normalizeBaseUrl(raw: string): string | undefined {
  const url = parseHttpUrl(raw.trim());
  if (!url) return undefined;
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * What a source's film keys start with ('{prefix}:{_id}'): its origin, plus its own path when it is not at its
 * host's root. OPhim's legacy API and its /v1/api share ids, so both are keyed by the origin alone, as every film
 * crawled before the registry was.
 */
export function keyPrefixOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1\/api$/, '');
  return `${url.origin}${path}`;
}

/** The host (and path) a source is named after until its family is known. */
export const hostNameOf = (baseUrl: string) => baseUrl.replace(/^https?:\/\//, '');

/** The base URLs the configuration names (CRAWL_SOURCE, in order) with their families, if given. */
export function configuredSourceList(config: Pick<Config, 'CRAWL_SOURCE'>) {
  return configuredSources(config.CRAWL_SOURCE).flatMap((s) => {
    const baseUrl = normalizeBaseUrl(s.url);
    return baseUrl ? [{ baseUrl, family: s.family }] : [];
  });
}

/**
 * The registered source at `baseUrl`, registered now if it is not (last in priority, named after its family when
 * given, else its host; 'name (host)' when another source has the name). One round trip; idempotent: two crawls
 * registering one source at once get the same row.
 */
export async function ensureSource(
  db: Db,
  baseUrl: string,
  options: { family?: SourceFamily; name?: string; priority?: number; now?: number } = {},
): Promise<SourceRow> {
  const wanted = options.name ?? (options.family ? FAMILY_NAMES[options.family] : hostNameOf(baseUrl));
  const host = hostNameOf(baseUrl);
  // The first of the candidate names no other source has (names label servers: they are unique).
  const name = sql`coalesce((select column1 from (values (${wanted}), (${`${wanted} (${host})`}), (${host})) where column1 not in (select ${sources.name} from ${sources}) limit 1), ${`${wanted} #${Date.now().toString(36)}`})`;
  const [, [row]] = await db.batch([
    db
      .insert(sources)
      .values({
        baseUrl,
        name,
        family: options.family ?? null,
        familyGiven: options.family !== undefined,
        priority: options.priority ?? sql`coalesce((select max(${sources.priority}) from ${sources}), 0) + 10`,
        createdAt: options.now,
      })
      .onConflictDoNothing(),
    db.select().from(sources).where(eq(sources.baseUrl, baseUrl)),
  ]);
  if (!row) throw new Error(`source ${baseUrl}: not registered`);
  return row;
}

/** Registers every source the configuration names (CRAWL_SOURCE), in its order; a source already known is left as it is. */
export async function syncConfiguredSources(db: Db, config: Pick<Config, 'CRAWL_SOURCE'>, now = Date.now()): Promise<SourceRow[]> {
  const rows: SourceRow[] = [];
  for (const { baseUrl, family } of configuredSourceList(config)) rows.push(await ensureSource(db, baseUrl, { family, now }));
  return rows;
}

/**
 * Records the family a source's responses showed, unless an operator gave one. A source still named after its host
 * takes its family's name (when no other source has it) while none of its servers carries a name yet. One statement.
 */
export async function noteFamily(db: Db, source: SourceRow, family: SourceFamily): Promise<SourceRow> {
  if (source.familyGiven || source.family === family) return source;
  const wanted = FAMILY_NAMES[family];
  const [row] = await db
    .update(sources)
    .set({
      family,
      name: sql`case when ${sources.name} = ${hostNameOf(source.baseUrl)}
        and not exists (select 1 from ${sources} s2 where s2.name = ${wanted})
        and not exists (select 1 from ${filmSources} where ${filmSources.sourceId} = ${source.id} and ${filmSources.label} <> '')
        then ${wanted} else ${sources.name} end`,
    })
    .where(and(eq(sources.id, source.id), eq(sources.familyGiven, false)))
    .returning();
  return row ?? source;
}

/** The statement raising the catalogue version: public caches drop pages whose server order just changed. */
export const bumpCatalogue = (db: Db) =>
  db
    .update(catalogueVersion)
    .set({ version: sql`${catalogueVersion.version} + 1` })
    .where(eq(catalogueVersion.id, 1));

/**
 * The statements recording what one crawl of the source (or a check of it) says about its health, for a batch that
 * commits it with the run's end: a success resumes a down source; a failure counts, and the third in a row backs it
 * off (5 min, doubled at each further failure, up to a day) and marks it down. The catalogue version is raised when
 * it goes down or comes back, so cached pages drop their server order. The last statement returns the source.
 */
export function sourceHealthStatements(
  db: Db,
  sourceId: number,
  outcome: { ok: boolean; error?: string; crawled: boolean },
  now: number,
): [BatchItem<'sqlite'>, ReturnType<typeof healthUpdate>] {
  const comesBack = sql`exists (select 1 from ${sources} s2 where s2.id = ${sourceId} and s2.down = 1)`;
  const goesDown = sql`exists (select 1 from ${sources} s2 where s2.id = ${sourceId} and s2.down = 0 and s2.failures + 1 >= ${FAILURES_BEFORE_DOWN})`;
  return [
    db
      .update(catalogueVersion)
      .set({ version: sql`${catalogueVersion.version} + 1` })
      .where(and(eq(catalogueVersion.id, 1), outcome.ok ? comesBack : goesDown)),
    healthUpdate(db, sourceId, outcome, now),
  ];
}

function healthUpdate(db: Db, sourceId: number, outcome: { ok: boolean; error?: string; crawled: boolean }, now: number) {
  const crawled = outcome.crawled ? { lastCrawlAt: now } : {};
  if (outcome.ok)
    return db
      .update(sources)
      .set({ failures: 0, down: false, backoffUntil: null, lastOkAt: now, lastError: null, answering: true, checkedAt: now, ...crawled })
      .where(eq(sources.id, sourceId))
      .returning();
  const failures = sql`${sources.failures} + 1`;
  const down = sql`${sources.failures} + 1 >= ${FAILURES_BEFORE_DOWN}`;
  return db
    .update(sources)
    .set({
      failures,
      down: sql`(${down})`,
      // 5 min × 2^(failures − 3), at most a day.
      backoffUntil: sql`case when ${down} then ${now} + min(${BACKOFF_MAX_MS}, ${BACKOFF_BASE_MS} * (1 << min(20, ${sources.failures} + 1 - ${FAILURES_BEFORE_DOWN}))) else null end`,
      lastError: (outcome.error ?? 'lỗi không rõ').slice(0, 500),
      answering: false,
      checkedAt: now,
      ...crawled,
    })
    .where(eq(sources.id, sourceId))
    .returning();
}

/** recordSourceHealth on its own (a check): one round trip. Whether the source is down now, and whether that changed. */
export async function recordSourceHealth(
  db: Db,
  sourceId: number,
  outcome: { ok: boolean; error?: string; crawled: boolean },
  now: number,
): Promise<{ down: boolean; changed: boolean }> {
  const [bump, update] = sourceHealthStatements(db, sourceId, outcome, now);
  const [bumped, [row]] = await db.batch([bump, update]);
  const changed = (bumped as { rowsAffected?: number }).rowsAffected === 1;
  if (changed) forgetCatalogueVersion(db);
  return { down: row?.down ?? false, changed };
}

/** The delay before a down source is tried again, after `failures` crawls in a row failed (as the SQL above computes it). */
export function backoffDelay(failures: number): number {
  const over = Math.max(0, failures - FAILURES_BEFORE_DOWN);
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(over, 20));
}

/**
 * The sources a crawl of "every source" reads, in priority order: enabled, and not waiting out a back-off (a down
 * source whose delay is over is tried: its crawl is its retry).
 */
export async function crawlableSources(db: Db, now: number): Promise<SourceRow[]> {
  return db
    .select()
    .from(sources)
    .where(and(eq(sources.enabled, true), or(isNull(sources.backoffUntil), lte(sources.backoffUntil, now))))
    .orderBy(asc(sources.priority), asc(sources.id));
}

export async function sourceById(db: Db, id: number): Promise<SourceRow | undefined> {
  const [row] = await db.select().from(sources).where(eq(sources.id, id));
  return row;
}

/** What the admin page lists of each source. */
export async function sourcesOverview(db: Db, now: number) {
  const since = now - 24 * 60 * 60_000;
  // The outer row, named in full: drizzle writes a one-table select's own columns unqualified.
  const sourceId = sql.raw('"sources"."id"');
  const rows = await db
    .select({
      source: sources,
      films: sql<number>`(select count(distinct ${filmSources.filmId}) from ${filmSources} where ${filmSources.sourceId} = ${sourceId})`,
      errors24h: sql<number>`(select count(*) from ${crawlLog} where ${crawlLog.sourceId} = ${sourceId} and ${crawlLog.level} = 'error' and ${crawlLog.at} > ${since})`,
      lastRunId: sql<number | null>`(select max(${crawlRuns.id}) from ${crawlRuns} where ${crawlRuns.sourceId} = ${sourceId})`,
    })
    .from(sources)
    .orderBy(asc(sources.priority), asc(sources.id));
  const runIds = rows.map((r) => r.lastRunId).filter((id): id is number => id !== null);
  const runs = runIds.length ? await db.select().from(crawlRuns).where(inArray(crawlRuns.id, runIds)) : [];
  const runById = new Map(runs.map((r) => [r.id, r]));
  return rows.map((r) => ({ ...r, lastRun: r.lastRunId === null ? null : (runById.get(r.lastRunId) ?? null) }));
}

/** The latest lines a source's crawls logged (errors and doubts), newest first. */
export async function sourceLog(db: Db, sourceId: number, limit = 50) {
  return db
    .select({ id: crawlLog.id, runId: crawlLog.runId, level: crawlLog.level, message: crawlLog.message, at: crawlLog.at })
    .from(crawlLog)
    .where(eq(crawlLog.sourceId, sourceId))
    .orderBy(desc(crawlLog.id))
    .limit(limit);
}

/**
 * Whether the source answers now: its first list page, read through the crawler's guard (allowlisted origins, size
 * cap) within CHECK_TIMEOUT_MS. A down source that answers resumes at once; a down source that does not waits longer.
 */
export async function checkSource(
  deps: { db: Db; fetch: typeof fetch; config: Pick<Config, 'CRAWL_SOURCES' | 'CRAWL_MAX_RESPONSE_BYTES'>; now: () => number },
  source: SourceRow,
): Promise<{ answering: boolean; error: string | null; films: number }> {
  let answering = false;
  let error: string | null = null;
  let films = 0;
  try {
    const body = await guardedFetchJson(`${source.baseUrl}/danh-sach/phim-moi-cap-nhat?page=1`, {
      fetch: deps.fetch,
      allowedOrigins: allowedOriginSet(deps.config.CRAWL_SOURCES),
      maxBytes: deps.config.CRAWL_MAX_RESPONSE_BYTES,
      timeoutMs: CHECK_TIMEOUT_MS,
    });
    films = parseListPage(body).items.length;
    answering = true;
  } catch (err) {
    error = errorMessage(err).slice(0, 500);
  }
  const now = deps.now();
  if (source.down)
    await recordSourceHealth(
      deps.db,
      source.id,
      answering ? { ok: true, crawled: false } : { ok: false, error: error ?? '', crawled: false },
      now,
    );
  else
    await deps.db
      .update(sources)
      .set({ answering, checkedAt: now, ...(error ? { lastError: error } : {}) })
      .where(eq(sources.id, source.id));
  if (source.down && !answering)
    await deps.db
      .insert(crawlLog)
      .values({ sourceId: source.id, level: 'error', message: `không phản hồi khi thử lại: ${error}`, at: now });
  return { answering, error, films };
}

/** The scheduler's retry of down sources whose delay is over: one that answers resumes by itself. */
export async function retryDownSources(deps: {
  db: Db;
  fetch: typeof fetch;
  config: Pick<Config, 'CRAWL_SOURCES' | 'CRAWL_MAX_RESPONSE_BYTES'>;
  now: () => number;
}): Promise<{ id: number; answering: boolean }[]> {
  const now = deps.now();
  const due = await deps.db
    .select()
    .from(sources)
    .where(and(eq(sources.down, true), eq(sources.enabled, true), lte(sources.backoffUntil, now)));
  const results: { id: number; answering: boolean }[] = [];
  for (const source of due) results.push({ id: source.id, answering: (await checkSource(deps, source)).answering });
  return results;
}

/**
 * Renames a source: its servers on every film carry the new name ('Vietsub #1 · Tên mới'). One batch: the
 * source, its items' labels and its episodes' server names.
 */
export function renameStatements(db: Db, source: Pick<SourceRow, 'id' | 'name'>, name: string): BatchItem<'sqlite'>[] {
  const items = db
    .select({ id: filmSources.id })
    .from(filmSources)
    .where(and(eq(filmSources.sourceId, source.id), eq(filmSources.label, source.name)));
  const suffix = ` · ${source.name}`;
  return [
    db
      .update(episodes)
      .set({ serverName: sql`substr(${episodes.serverName}, 1, length(${episodes.serverName}) - length(${suffix})) || ${` · ${name}`}` })
      .where(and(inArray(episodes.filmSourceId, items), sql`substr(${episodes.serverName}, -length(${suffix})) = ${suffix}`)),
    db
      .update(filmSources)
      .set({ label: name })
      .where(and(eq(filmSources.sourceId, source.id), eq(filmSources.label, source.name))),
    db.update(sources).set({ name }).where(eq(sources.id, source.id)),
  ];
}

/** Lines older than this are dropped by the scheduler's housekeeping. */
export const CRAWL_LOG_RETENTION_MS = 7 * 24 * 60 * 60_000;
