// The crawler: walks list pages of an OPhim-compatible source, fetches each film's detail, and writes
// the page's films through the film writer in one batch (one transaction: two round trips a page), each
// skipped when its checksum is unchanged. Runs are recorded in crawl_runs and resumed after a crash. Only fetch and
// WebCrypto: the same code runs under Node and in Workers.
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { crawlLog, filmSources } from '../../db/schema';
import { forgetCatalogueVersion } from '../catalogue/version';
import { type BatchFilmOutcome, upsertFilms } from '../films/film-writer';
import { ensureSource, keyPrefixOf, noteFamily, type SourceRow, sourceHealthStatements } from '../sources/registry';
import { filmChecksum } from './checksum';
import { DEFAULT_CRAWL_LIST, isValidListPath } from './crawl-lists';
import {
  finishRun,
  finishRunStatement,
  heartbeat,
  progressUpdate,
  saveProgress,
  startOrResumeRun,
  type CrawlParams,
  type CrawlTrigger,
  type RunCounts,
} from './crawl-runs';
import { allowedOriginSet, errorMessage, parseHttpUrl } from './fetch-guard';
import { mapDetail, sourceTimes } from './film-mapper';
import { createMutex, createSourceClient, forEachLimited, type SourceClient } from './source-client';
import { parseDetail, parseListPage, type ImageBase, type ListItem, type SourceFamily } from './source-shapes';

export { CrawlBusyError, type CrawlTrigger, startCrawlState } from './crawl-runs';
export { crawlListForCategory, crawlListsForCategories, DEFAULT_CRAWL_LIST } from './crawl-lists';
export { CrawlFetchError } from './fetch-guard';

export interface CrawlDeps {
  db: Db;
  fetch: typeof fetch;
  config: Pick<Config, 'CRAWL_SOURCES' | 'CRAWL_MAX_RESPONSE_BYTES' | 'CRAWL_CONCURRENCY' | 'CRAWL_DELAY_MS'> &
    // Links to this site are stored origin-relative (film-mapper.ts siteRelative).
    Partial<Pick<Config, 'PUBLIC_URL'>>;
  now: () => number;
  log?: (line: string) => void;
}

export interface CrawlOptions {
  /** Base URL of an allowlisted source: 'https://ophim1.com', 'https://ophim1.com/v1/api', … (registered on first crawl). */
  source: string;
  /** The source's family when known (configuration, the admin page); otherwise detected from its responses. */
  family?: SourceFamily;
  /** The name its servers carry, for a source crawled the first time; default: its family's ('KKPhim'), else its host. */
  sourceName?: string;
  /** Inclusive page range of every list; default: every page the source reports. */
  pages?: [number, number];
  /** List paths such as 'danh-sach/phim-bo', 'the-loai/hanh-dong'; default DEFAULT_CRAWL_LIST. */
  lists?: string[];
  /** Rewrite films even when their checksum is unchanged. */
  force?: boolean;
  trigger: CrawlTrigger;
  /** Per request, body included. Default 15 s. */
  requestTimeoutMs?: number;
  /** First retry backoff, doubled per retry. Default 500 ms. */
  retryBaseMs?: number;
  /** A running run whose heartbeat is older than this is dead and resumable. Default 2 min. */
  staleAfterMs?: number;
  /**
   * Unix ms after which the call stops starting films, saves its cursor and releases the run (still
   * 'running', heartbeat 0) for the next scheduler tick to resume: Workers invocations have limits.
   */
  deadline?: number;
  /**
   * The light crawl (light-crawl.ts): fetch a detail only for list items whose `modified` differs from the one
   * recorded when the item was last written, at most `maxDetails` per run, and read the next page only while
   * every item of this one had changed (the list is newest first: an unchanged item means the rest are older).
   */
  onlyChanged?: { maxDetails: number };
}

export interface CrawlSummary {
  runId: number;
  /** List pages completed by the run (a resumed run counts its earlier pages too). */
  pages: number;
  pagesFailed: number;
  filmsNew: number;
  filmsUpdated: number;
  filmsSkipped: number;
  filmsFailed: number;
  /** Films that joined a film the catalogue already had from another source (one film, both sources' servers). */
  filmsMerged: number;
  seconds: number;
  /** Set when this call took over a crashed run: what that run had already completed. */
  resumedFrom?: { pagesDone: number; filmsDone: number };
  /** The deadline came first: the run is left 'running' and released for the next call to resume. */
  paused?: boolean;
  /** Film details requested from the source (onlyChanged: the items that had moved). */
  details?: number;
}

/** Bad input to runCrawl: a source not in CRAWL_SOURCES, a malformed list path or page range. */
export class CrawlRequestError extends Error {
  override readonly name = 'CrawlRequestError';
}

/** The run could do nothing (no list page could be read); it is recorded as failed. */
export class CrawlRunError extends Error {
  override readonly name = 'CrawlRunError';
  constructor(
    message: string,
    readonly runId: number,
  ) {
    super(message);
  }
}

const RETRIES = 2;
const HEARTBEAT_EVERY_MS = 20_000;

// The crawler writes through one lock per database: an in-memory libSQL database has a single
// connection (an open transaction blocks every other statement), and a file database would only
// turn concurrent writers into SQLITE_BUSY retries. Fetching stays concurrent.
const locks = new WeakMap<Db, ReturnType<typeof createMutex>>();
function lockFor(db: Db) {
  let lock = locks.get(db);
  if (!lock) {
    lock = createMutex();
    locks.set(db, lock);
  }
  return lock;
}

type FilmOutcome = BatchFilmOutcome['outcome'];
const COUNTER: Record<FilmOutcome, keyof RunCounts> = {
  new: 'filmsNew',
  updated: 'filmsUpdated',
  merged: 'filmsMerged',
  skipped: 'filmsSkipped',
  failed: 'filmsFailed',
};

/** A line an admin should see (the crawl's log and "Nguồn phim"): a source's garbage, a refused film, a merge in doubt. */
interface LogEntry {
  level: 'error' | 'doubt';
  message: string;
}

export async function runCrawl(deps: CrawlDeps, opts: CrawlOptions): Promise<CrawlSummary> {
  const { db, config, now } = deps;
  const log = deps.log ?? (() => undefined);
  const base = normalizeSource(opts.source, config.CRAWL_SOURCES);
  const origin = new URL(base).origin;
  const siteOrigin = config.PUBLIC_URL ? new URL(config.PUBLIC_URL).origin : undefined;
  const params = normalizeParams(opts);
  const withLock = lockFor(db);
  const started = now();

  // Every source crawled is a registered source ("Nguồn phim"): its films carry its name on their servers.
  let source: SourceRow = await withLock(() => ensureSource(db, base, { family: opts.family, name: opts.sourceName, now: started }));
  const keyPrefix = keyPrefixOf(base);
  const run = await withLock(() =>
    startOrResumeRun(db, {
      source: base,
      sourceId: source.id,
      trigger: opts.trigger,
      params,
      now: started,
      staleAfterMs: opts.staleAfterMs ?? 120_000,
    }),
  );
  const counts = { ...run.counts };
  const cursor = run.cursor;
  const completed = new Set(cursor.completed);
  const tag = `[crawl #${run.id}]`;
  const filmsDone = () => counts.filmsNew + counts.filmsUpdated + counts.filmsSkipped + counts.filmsFailed + counts.filmsMerged;
  const resumedFrom = run.resumed ? { pagesDone: counts.pagesDone, filmsDone: filmsDone() } : undefined;
  if (resumedFrom) log(`${tag} resuming ${base}: ${resumedFrom.pagesDone} pages and ${resumedFrom.filmsDone} films already done`);
  else log(`${tag} crawling ${base} (${source.name}): ${params.lists.join(', ')}`);
  // Lines an admin should see go to crawl_log too, with the page's batch (no round trip of their own).
  const pendingLog: LogEntry[] = [];
  const note = (level: LogEntry['level'], message: string) => {
    log(`${tag} ${message}`);
    pendingLog.push({ level, message: message.slice(0, 1000) });
  };
  const logInserts = (): BatchItem<'sqlite'>[] => {
    if (!pendingLog.length) return [];
    const rows = pendingLog.splice(0).map((e) => ({ runId: run.id, sourceId: source.id, level: e.level, message: e.message, at: now() }));
    return [db.insert(crawlLog).values(rows)];
  };
  const flushLog = async () => {
    const inserts = logInserts();
    if (inserts.length) await db.batch(inserts as [BatchItem<'sqlite'>]);
  };
  let familySeen = false;

  const client = createSourceClient({
    fetch: deps.fetch,
    allowedOrigins: allowedOriginSet(config.CRAWL_SOURCES),
    maxBytes: config.CRAWL_MAX_RESPONSE_BYTES,
    timeoutMs: opts.requestTimeoutMs ?? 15_000,
    delayMs: config.CRAWL_DELAY_MS,
    retries: RETRIES,
    retryBaseMs: opts.retryBaseMs ?? 500,
  });
  const timer = setInterval(() => {
    withLock(() => heartbeat(db, run.id, now())).catch((err) => log(`${tag} heartbeat failed: ${errorMessage(err)}`));
  }, HEARTBEAT_EVERY_MS);
  // Counts and cursor are persisted together, so the saved state always describes the same films: in the
  // batch that writes a page's films (one transaction), or on their own when nothing else is written.
  const snapshot = () => ({
    ...cursor,
    completed: [...completed],
    current: cursor.current && { ...cursor.current, films: [...cursor.current.films] },
  });
  const save = async () => {
    await saveProgress(db, run.id, counts, snapshot(), now());
    await flushLog();
  };
  /** Source slugs handled by this call: a film in several lists is fetched once. */
  const seen = new Set<string>();
  let pagesRead = 0;
  let details = 0;
  /** onlyChanged: an unchanged item or the detail cap ends the run after its page. */
  let listCaughtUp = false;
  let lastListError = '';
  let paused = false;
  const pastDeadline = () => {
    if (!paused && opts.deadline !== undefined && now() >= opts.deadline) paused = true;
    return paused;
  };

  try {
    for (const list of params.lists) {
      const [from, to] = params.pages;
      let total = cursor.totals?.[list];
      for (let page = from; (to === null || page <= to) && (total === undefined || page <= total); page++) {
        const key = `${list}@${page}`;
        if (completed.has(key)) {
          pagesRead++;
          continue;
        }
        if (pastDeadline()) break;
        const url = `${base}/${list}?page=${page}`;
        let listPage: ReturnType<typeof parseListPage>;
        try {
          listPage = parseListPage(await client.getJson(url));
        } catch (err) {
          lastListError = `${list} page ${page}: ${errorMessage(err)}`;
          note('error', `list ${lastListError}`);
          cursor.pagesFailed++;
          await withLock(save);
          // Without its first page a list's length is unknown: give the list up.
          if (total === undefined) break;
          continue;
        }
        pagesRead++;
        if (!familySeen) {
          familySeen = true;
          const detected = listPage.family;
          source = await withLock(() => noteFamily(db, source, detected));
        }
        // A source that reports no page count is read no further than asked (or this one page).
        total = listPage.totalPages ?? to ?? page;
        cursor.totals = { ...cursor.totals, [list]: total };
        const before = { ...counts };

        const resumingPage = cursor.current?.page === key;
        const current = resumingPage && cursor.current ? cursor.current : { page: key, films: [] };
        cursor.current = current;
        const handled = new Set(current.films);
        if (listPage.invalidItems && !resumingPage) {
          counts.filmsFailed += listPage.invalidItems;
          note('error', `${list} page ${page}: ${listPage.invalidItems} list entries without a usable slug`);
        }

        // The light crawl leaves the items the source has not touched since they were written: no detail.
        const unchanged: string[] = [];
        let pageItems = listPage.items;
        if (opts.onlyChanged) {
          const slugs = pageItems.map((i) => i.slug);
          const marks = await withLock(() => storedModified(db, source.id, slugs));
          // Items a resumed page already handled are neither fetched nor counted again.
          const fresh = pageItems.filter((i) => !handled.has(i.slug));
          const moved = fresh.filter((i) => i.modified === undefined || marks.get(i.slug) !== i.modified);
          for (const i of fresh) if (!moved.includes(i) && !seen.has(i.slug) && !unchanged.includes(i.slug)) unchanged.push(i.slug);
          const room = Math.max(0, opts.onlyChanged.maxDetails - details);
          if (unchanged.length > 0 || moved.length > room) listCaughtUp = true;
          pageItems = moved.slice(0, room);
          for (const slug of unchanged) seen.add(slug);
        }
        // Details are fetched concurrently; the page's films are then written in one batch with the run's
        // progress (services/films/film-writer.ts upsertFilms): a crash cannot count a film twice.
        const prepared: { slug: string; film: PreparedFilm; modified?: number }[] = [];
        const repeated: string[] = [];
        const onPage = new Set<string>();
        await forEachLimited(pageItems, config.CRAWL_CONCURRENCY, async (item) => {
          if (handled.has(item.slug) || pastDeadline()) return;
          if (seen.has(item.slug)) {
            repeated.push(item.slug);
            // The same film twice on one page is the source's mistake: said once, written once.
            if (onPage.has(item.slug)) note('error', `${list} page ${page}: film ${item.slug} is listed twice; the second is ignored`);
            return;
          }
          seen.add(item.slug);
          onPage.add(item.slug);
          details++;
          prepared.push({
            slug: item.slug,
            film: await prepareFilm(client, { base, origin, keyPrefix, siteOrigin, imageBase: listPage.imageBase }, item, now()),
            modified: item.modified,
          });
        });
        // Two slugs of the page that are one film of the source (the same id): the first is written.
        const keysOnPage = new Set<string>();
        for (const p of prepared) {
          const film = p.film;
          if ('error' in film || 'duplicate' in film) continue;
          for (const problem of film.problems) note('error', `film ${p.slug}: ${problem}`);
          if (keysOnPage.has(film.sourceKey)) {
            note('error', `film ${p.slug}: the same source id as another film of this page (${film.sourceKey}); ignored`);
            p.film = { duplicate: true };
          } else keysOnPage.add(film.sourceKey);
        }
        const pageDone = !paused;
        await withLock(async () => {
          const refused = prepared.flatMap((p) => ('error' in p.film ? [{ slug: p.slug, error: p.film.error }] : []));
          const duplicates = prepared.flatMap((p) => ('duplicate' in p.film ? [p.slug] : []));
          const films = prepared.flatMap((p) => ('error' in p.film || 'duplicate' in p.film ? [] : [{ slug: p.slug, input: p.film }]));
          const slugOf = new Map<unknown, string>(films.map((f) => [f.input, f.slug]));
          const modifiedOf = new Map<string, number | undefined>(prepared.map((p) => [p.slug, p.modified]));
          for (const r of refused) note('error', `film ${r.slug} failed: ${r.error}`);
          /** The run's counts and cursor once this page's outcomes are counted (and the page done, unless paused). */
          const tallied = (outcomes: readonly BatchFilmOutcome[]) => {
            const next = {
              ...counts,
              filmsFailed: counts.filmsFailed + refused.length,
              filmsSkipped: counts.filmsSkipped + duplicates.length + unchanged.length,
            };
            for (const o of outcomes) next[COUNTER[o.outcome]]++;
            const handledNow = [
              ...current.films,
              ...repeated,
              ...refused.map((r) => r.slug),
              ...duplicates,
              ...unchanged,
              ...outcomes.map((o) => slugOf.get(o.input)!),
            ];
            if (!pageDone) return { counts: next, cursor: { ...snapshot(), current: { page: key, films: handledNow } } };
            next.pagesDone++;
            return { counts: next, cursor: { ...snapshot(), completed: [...completed, key], current: undefined } };
          };
          const outcomeLines = (outcomes: readonly BatchFilmOutcome[]) => {
            for (const o of outcomes) {
              const slug = slugOf.get(o.input);
              if (o.outcome === 'failed') note('error', `film ${slug} failed to save: ${o.error}`);
              else if (o.outcome === 'skipped' && o.deleted) log(`${tag} film ${slug} skipped: deleted by an admin`);
              // A film that may be another one, not merged: for an admin to decide ("Gộp phim").
              for (const d of ('doubts' in o ? o.doubts : undefined) ?? [])
                note('doubt', `film ${slug}: không gộp với phim #${d.filmId}${d.deleted ? ' (đã xóa)' : ''}: ${d.reason}`);
            }
          };
          let linesNoted = false;
          const { outcomes, alongsideCommitted } = await upsertFilms(
            db,
            films.map((f) => f.input),
            {
              now,
              source: { id: source.id, name: source.name },
              skip: (input, stored) => !!stored && stored.checksum === input.sourceChecksum && !params.force,
              alongside: (outcomes) => {
                const next = tallied(outcomes);
                outcomeLines(outcomes);
                linesNoted = true;
                // The list's modified time of each film written (or unchanged by checksum), for the light crawl.
                const marks = outcomes.flatMap((o) => {
                  const m = modifiedOf.get(slugOf.get(o.input)!);
                  return o.outcome !== 'failed' && m !== undefined ? [{ k: (o.input as { sourceKey: string }).sourceKey, m }] : [];
                });
                return [progressUpdate(db, run.id, next.counts, next.cursor, now()), ...logInserts(), ...markModified(db, marks)];
              },
            },
          );
          if (!linesNoted || !alongsideCommitted) {
            // Written film by film after the page batch failed: what each film came to is said now.
            pendingLog.length = 0;
            outcomeLines(outcomes);
          }
          const next = tallied(outcomes);
          Object.assign(counts, next.counts);
          if (pageDone) {
            completed.add(key);
            cursor.current = undefined;
          } else current.films = next.cursor.current?.films ?? current.films;
          if (!alongsideCommitted) await save();
        });

        if (paused) break;
        log(
          `${tag} ${list} page ${page}/${total}: ${listPage.items.length} films — new ${counts.filmsNew - before.filmsNew}, ` +
            `merged ${counts.filmsMerged - before.filmsMerged}, updated ${counts.filmsUpdated - before.filmsUpdated}, ` +
            `skipped ${counts.filmsSkipped - before.filmsSkipped}, failed ${counts.filmsFailed - before.filmsFailed}`,
        );
        if (!listPage.items.length || listCaughtUp) break;
      }
      if (paused) break;
    }

    const finalCursor = { ...cursor, completed: [...completed] };

    /** What the run did so far, as the CLI and the scheduler report it. */
    const summaryNow = (): CrawlSummary => ({
      runId: run.id,
      pages: counts.pagesDone,
      pagesFailed: cursor.pagesFailed,
      filmsNew: counts.filmsNew,
      filmsUpdated: counts.filmsUpdated,
      filmsSkipped: counts.filmsSkipped,
      filmsFailed: counts.filmsFailed,
      filmsMerged: counts.filmsMerged,
      seconds: Math.round((now() - started) / 100) / 10,
      details,
      ...(resumedFrom ? { resumedFrom } : {}),
    });
    if (paused) {
      // Released, not finished: heartbeat 0 makes the run stale at once for whoever resumes it.
      await withLock(async () => {
        await saveProgress(db, run.id, counts, snapshot(), 0);
        await flushLog();
      });
      log(`${tag} paused at the time budget: ${counts.pagesDone} pages done, resumes on the next tick`);
      return { ...summaryNow(), paused: true };
    }
    if (pagesRead === 0) {
      const error = `no list page could be read (${lastListError || 'nothing to crawl'})`;
      // The run's end, its log and its source's health commit together (one round trip).
      await withLock(() =>
        db.batch([
          finishRunStatement(db, run.id, { status: 'failed', counts, cursor: finalCursor, now: now(), error }),
          ...logInserts(),
          ...sourceHealthStatements(db, source.id, { ok: false, error, crawled: true }, now()),
        ]),
      );
      // Its third failure in a row puts its servers last: cached pages must not keep the old order.
      forgetCatalogueVersion(db);
      throw new CrawlRunError(error, run.id);
    }
    // A source whose every film failed answered garbage: that is a failed crawl of it, as much as silence.
    const usable = counts.filmsNew + counts.filmsUpdated + counts.filmsSkipped + counts.filmsMerged;
    const garbage = usable === 0 && counts.filmsFailed > 0;
    await withLock(() =>
      db.batch([
        finishRunStatement(db, run.id, { status: 'done', counts, cursor: finalCursor, now: now() }),
        ...logInserts(),
        ...sourceHealthStatements(
          db,
          source.id,
          garbage ? { ok: false, error: `every film failed (${counts.filmsFailed})`, crawled: true } : { ok: true, crawled: true },
          now(),
        ),
      ]),
    );
    forgetCatalogueVersion(db);
    const summary = summaryNow();
    log(
      `${tag} done in ${summary.seconds}s: ${summary.pages} pages, films new ${summary.filmsNew}, merged ${summary.filmsMerged}, ` +
        `updated ${summary.filmsUpdated}, skipped ${summary.filmsSkipped}, failed ${summary.filmsFailed}`,
    );
    return summary;
  } catch (err) {
    if (!(err instanceof CrawlRunError)) {
      log(`${tag} stopped: ${errorMessage(err)}`);
      // If the database itself is gone this fails too and the run stays 'running': the next crawl resumes it.
      await withLock(() =>
        finishRun(db, run.id, {
          status: 'failed',
          counts,
          cursor: { ...cursor, completed: [...completed] },
          now: now(),
          error: errorMessage(err),
        }),
      ).catch(() => undefined);
    }
    throw err;
  } finally {
    clearInterval(timer);
  }
}

/** The list's modified time recorded for these source slugs of the source (film_sources.source_modified). */
async function storedModified(db: Db, sourceId: number, slugs: string[]): Promise<Map<string, number>> {
  if (!slugs.length) return new Map();
  const rows = await db
    .select({ slug: filmSources.sourceSlug, modified: filmSources.sourceModified })
    .from(filmSources)
    .where(and(eq(filmSources.sourceId, sourceId), inArray(filmSources.sourceSlug, slugs)));
  return new Map(rows.flatMap((r) => (r.modified === null ? [] : [[r.slug, r.modified] as const])));
}

/** One statement recording each written item's list modified time, in the page's batch (none when nothing to mark). */
function markModified(db: Db, marks: { k: string; m: number }[]): BatchItem<'sqlite'>[] {
  if (!marks.length) return [];
  return [
    db.run(sql`UPDATE ${filmSources} SET source_modified = j.m
      FROM (SELECT json_extract(value, '$.k') AS k, json_extract(value, '$.m') AS m FROM json_each(${JSON.stringify(marks)})) AS j
      WHERE ${filmSources}.source_key = j.k`),
  ];
}

type PreparedFilm = Awaited<ReturnType<typeof mapDetailWithChecksum>> | { error: string } | { duplicate: true };

async function mapDetailWithChecksum(
  body: unknown,
  source: { origin: string; keyPrefix: string; siteOrigin?: string },
  listImageBase: ImageBase | undefined,
  listItem: ListItem,
  now: number,
) {
  const detail = parseDetail(body);
  const { problems, ...input } = mapDetail(detail, {
    origin: source.origin,
    keyPrefix: source.keyPrefix,
    siteOrigin: source.siteOrigin,
    listImageBase,
    listItem,
  });
  return { ...input, problems, sourceChecksum: await filmChecksum(input), ...sourceTimes(detail, now) };
}

/** Fetch, validate, map and hash one film; every failure comes back as a reason, never thrown. */
async function prepareFilm(
  client: SourceClient,
  source: { base: string; origin: string; keyPrefix: string; siteOrigin?: string; imageBase: ImageBase | undefined },
  item: ListItem,
  now: number,
): Promise<PreparedFilm> {
  try {
    const body = await client.getJson(`${source.base}/phim/${encodeURIComponent(item.slug)}`);
    return await mapDetailWithChecksum(body, source, source.imageBase, item, now);
  } catch (err) {
    return { error: errorMessage(err) };
  }
}

/** The source's base URL without trailing slash, query or fragment; its origin must be allowlisted. */
export function normalizeSource(source: string, allowed: readonly string[]): string {
  const url = parseHttpUrl(source.trim());
  if (!url) throw new CrawlRequestError(`source: not an http(s) URL: ${source.slice(0, 200)}`);
  if (!allowedOriginSet(allowed).has(url.origin)) throw new CrawlRequestError(`source: ${url.origin} is not in CRAWL_SOURCES`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

export function normalizeParams(opts: CrawlOptions): CrawlParams {
  const lists = [...new Set((opts.lists?.length ? opts.lists : [DEFAULT_CRAWL_LIST]).map((l) => l.trim().replace(/^\/+|\/+$/g, '')))];
  for (const list of lists) {
    if (!isValidListPath(list)) throw new CrawlRequestError(`lists: '${list.slice(0, 200)}' is not a list path`);
  }
  let pages: [number, number | null] = [1, null];
  if (opts.pages) {
    const [from, to] = opts.pages;
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < from) {
      throw new CrawlRequestError(`pages: expected 1 ≤ from ≤ to, got ${from}-${to}`);
    }
    pages = [from, to];
  }
  return { lists, pages, force: opts.force ?? false };
}
