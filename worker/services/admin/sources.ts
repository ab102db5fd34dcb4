// "Nguồn phim" (admin): the sources the crawler reads, as an operator manages them (issue 32; docs/decisions/0104).
// The registry itself (health, back-off, checks) is services/sources/registry.ts; this is the admin's view and writes,
// each audited.
import { eq, inArray } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import { filmSources, sources } from '../../db/schema';
import type { AppDeps } from '../../lib/context';
import { ApiError, badRequest, notFound } from '../../lib/errors';
import {
  type CreateSourceInput,
  SOURCE_TEXTS,
  type SourceCheckDto,
  type SourceDto,
  type SourceLogLine,
  type SourcesResponse,
  type UpdateSourceInput,
} from '../../schemas/sources';
import { forgetCatalogueVersion } from '../catalogue/version';
import { allowedOriginSet, parseHttpUrl } from '../crawler/fetch-guard';
import {
  bumpCatalogue,
  checkSource,
  configuredSourceList,
  ensureSource,
  normalizeBaseUrl,
  renameStatements,
  type SourceRow,
  sourceById,
  sourceLog,
  sourcesOverview,
  syncConfiguredSources,
} from '../sources/registry';
import { type Actor, auditInsert } from './audit';

type Deps = Pick<AppDeps, 'db' | 'config' | 'fetch' | 'now'>;

const toDto = (row: Awaited<ReturnType<typeof sourcesOverview>>[number], configured: ReadonlySet<string>): SourceDto => {
  const s = row.source;
  const run = row.lastRun;
  return {
    id: s.id,
    name: s.name,
    baseUrl: s.baseUrl,
    family: s.family,
    familyGiven: s.familyGiven,
    priority: s.priority,
    enabled: s.enabled,
    down: s.down,
    failures: s.failures,
    backoffUntil: s.backoffUntil,
    lastCrawlAt: s.lastCrawlAt,
    lastOkAt: s.lastOkAt,
    lastError: s.lastError,
    lastRun: run && {
      id: run.id,
      state: run.status,
      filmsNew: run.filmsNew,
      filmsMerged: run.filmsMerged,
      filmsUpdated: run.filmsUpdated,
      filmsSkipped: run.filmsSkipped,
      filmsFailed: run.filmsFailed,
      error: run.error,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
    },
    films: Number(row.films),
    errors24h: Number(row.errors24h),
    answering: s.answering,
    checkedAt: s.checkedAt,
    configured: configured.has(s.baseUrl),
  };
};

/** GET /api/admin/sources: every source in priority order (the configured ones registered first). */
export async function listSources(deps: Deps): Promise<SourcesResponse> {
  const now = deps.now();
  await syncConfiguredSources(deps.db, deps.config, now);
  const configured = new Set(configuredSourceList(deps.config).map((s) => s.baseUrl));
  return { data: (await sourcesOverview(deps.db, now)).map((r) => toDto(r, configured)) };
}

async function requireSource(db: Db, id: number): Promise<SourceRow> {
  const source = await sourceById(db, id);
  if (!source) throw notFound(`id: ${SOURCE_TEXTS.notFound}`);
  return source;
}

const snapshot = (s: SourceRow) => ({ name: s.name, baseUrl: s.baseUrl, family: s.family, priority: s.priority, enabled: s.enabled });

/** POST /api/admin/sources: a new source, last in priority unless given one; its origin must be allowed. */
export async function createSource(deps: Deps, actor: Actor, input: CreateSourceInput): Promise<SourceDto> {
  const { db, config } = deps;
  const now = deps.now();
  const baseUrl = normalizeBaseUrl(input.baseUrl);
  const url = baseUrl ? parseHttpUrl(baseUrl) : undefined;
  if (!baseUrl || !url) throw badRequest('baseUrl', 'must be an http(s) URL');
  if (!allowedOriginSet(config.CRAWL_SOURCES).has(url.origin)) throw badRequest('baseUrl', SOURCE_TEXTS.notAllowed);
  const [existing] = await db.select({ id: sources.id }).from(sources).where(eq(sources.baseUrl, baseUrl));
  if (existing) throw new ApiError(409, 'conflict', `baseUrl: ${SOURCE_TEXTS.exists}`);
  if (input.name) {
    const [taken] = await db.select({ id: sources.id }).from(sources).where(eq(sources.name, input.name));
    if (taken) throw new ApiError(409, 'conflict', `name: ${SOURCE_TEXTS.nameTaken}`);
  }
  const row = await ensureSource(db, baseUrl, { family: input.family, name: input.name, priority: input.priority, now });
  if (input.enabled === false) await db.update(sources).set({ enabled: false }).where(eq(sources.id, row.id));
  await auditInsert(
    db,
    actor,
    { action: 'source.create', target: row.id, before: null, after: { ...snapshot(row), enabled: input.enabled ?? true } },
    now,
  );
  const created = (await listSources(deps)).data.find((s) => s.id === row.id);
  if (!created) throw new Error('source vanished after insert');
  return created;
}

/**
 * PATCH /api/admin/sources/{id}: name (its servers carry the new one on every film), family, priority, enabled.
 * A new priority or switch changes which source leads each shared film and the order servers are tried in: the
 * catalogue version rises (cached pages drop their order) and the films it feeds are rewritten at their next crawl.
 */
export async function updateSource(deps: Deps, actor: Actor, id: number, input: UpdateSourceInput): Promise<SourceDto> {
  const { db } = deps;
  const now = deps.now();
  const before = await requireSource(db, id);
  const statements: BatchItem<'sqlite'>[] = [];
  if (input.name !== undefined && input.name !== before.name) {
    const [taken] = await db.select({ id: sources.id }).from(sources).where(eq(sources.name, input.name));
    if (taken) throw new ApiError(409, 'conflict', `name: ${SOURCE_TEXTS.nameTaken}`);
    statements.push(...renameStatements(db, before, input.name));
  }
  const set: Partial<typeof sources.$inferInsert> = {};
  if (input.family !== undefined) Object.assign(set, { family: input.family, familyGiven: true });
  if (input.priority !== undefined && input.priority !== before.priority) set.priority = input.priority;
  if (input.enabled !== undefined && input.enabled !== before.enabled) set.enabled = input.enabled;
  if (Object.keys(set).length) statements.push(db.update(sources).set(set).where(eq(sources.id, id)));
  const reorders = set.priority !== undefined || set.enabled !== undefined;
  if (reorders || statements.length > (set.family === undefined ? 0 : 1)) {
    statements.push(bumpCatalogue(db));
    // The films it shares are written again at their next crawl, so their fields follow the new order.
    if (reorders)
      statements.push(
        db
          .update(filmSources)
          .set({ checksum: null })
          .where(inArray(filmSources.filmId, db.select({ id: filmSources.filmId }).from(filmSources).where(eq(filmSources.sourceId, id)))),
      );
  }
  if (!statements.length) return (await listSources(deps)).data.find((s) => s.id === id)!;
  const after = { ...snapshot(before), ...(input.name !== undefined ? { name: input.name } : {}), ...set };
  delete (after as { familyGiven?: unknown }).familyGiven;
  statements.push(auditInsert(db, actor, { action: 'source.update', target: id, before: snapshot(before), after }, now));
  await db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
  forgetCatalogueVersion(db);
  return (await listSources(deps)).data.find((s) => s.id === id)!;
}

/** POST /api/admin/sources/check (every enabled source) or /sources/{id}/check: does it answer now? */
export async function checkSources(deps: Deps, id?: number): Promise<{ data: SourceCheckDto[] }> {
  const list =
    id === undefined ? await deps.db.select().from(sources).where(eq(sources.enabled, true)) : [await requireSource(deps.db, id)];
  const results = await Promise.all(
    list.map(async (source) => ({ id: source.id, ...(await checkSource({ ...deps, config: deps.config }, source)) })),
  );
  return { data: results };
}

/** GET /api/admin/sources/{id}/log: the latest errors and doubts its crawls logged. */
export async function sourceLogLines(db: Db, id: number): Promise<{ data: SourceLogLine[] }> {
  await requireSource(db, id);
  return { data: await sourceLog(db, id) };
}
