// `npm run crawl -- --source <base URL|demo|all> [--family F] [--pages A-B] [--list <path>]... [--force]`
// Crawls an OPhim-compatible source into DATABASE_URL (migrations applied first), printing progress. The source is
// registered in "Nguồn phim" on its first crawl; its films join the films other sources gave (issue 32).
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareDemoMedia } from '../demo/media';
import { withDemoSource } from '../demo/server';
import { loadConfig, type Config } from '../worker/config';
import { DEFAULT_DATABASE_URL, openMigratedDatabase } from '../worker/db/node-client';
import { CrawlBusyError, CrawlRequestError, runCrawl, type CrawlSummary, type CrawlTrigger } from '../worker/services/crawler/index';
import { crawlableSources, syncConfiguredSources } from '../worker/services/sources/registry';
import { SOURCE_FAMILIES, type SourceFamilyName } from '../worker/schemas/sources';

export const USAGE = `Usage: npm run crawl -- --source <base URL|demo|all> [--family F] [--name N] [--pages A-B] [--list <path>]... [--force]

  --source URL   an OPhim-compatible API listed in CRAWL_SOURCES (or CRAWL_SOURCE), e.g. https://ophim1.com,
                 https://ophim1.com/v1/api, https://phimapi.com; 'demo' for the bundled demo source (both its
                 families); 'all' for every enabled source of "Nguồn phim" (and CRAWL_SOURCE), in priority order
  --family F     the source's family (${SOURCE_FAMILIES.join(', ')}); default: detected from its answers
  --name N       the name its servers carry when it is crawled the first time (default: its family's, else its host)
  --pages A-B    page range of every list (default: all pages), e.g. 1-5 or 3
  --list PATH    a source list, repeatable (default: danh-sach/phim-moi-cap-nhat),
                 e.g. danh-sach/phim-bo, danh-sach/phim-le, the-loai/hanh-dong
  --force        rewrite films even when they are unchanged

Environment: DATABASE_URL (default ${DEFAULT_DATABASE_URL}), DATABASE_AUTH_TOKEN,
CRAWL_SOURCES, CRAWL_CONCURRENCY, CRAWL_DELAY_MS, CRAWL_MAX_RESPONSE_BYTES.`;

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface CrawlCommand {
  source: string;
  family?: SourceFamilyName;
  name?: string;
  pages?: [number, number];
  lists: string[];
  force: boolean;
}

/** argv (after the script name) → the command; throws UsageError naming the problem. */
export function parseCrawlArgs(argv: readonly string[]): CrawlCommand {
  const command: CrawlCommand = { source: '', lists: [], force: false };
  const args = argv.flatMap((a) =>
    a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a],
  );
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const value = () => {
      const v = args[++i];
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    switch (arg) {
      case '--source':
        command.source = value();
        break;
      case '--name': {
        const name = value().trim();
        if (!name || name.length > 40) throw new UsageError('--name: 1 to 40 characters');
        command.name = name;
        break;
      }
      case '--family': {
        const family = value();
        if (!(SOURCE_FAMILIES as readonly string[]).includes(family))
          throw new UsageError(`--family: expected one of ${SOURCE_FAMILIES.join(', ')}, got '${family}'`);
        command.family = family as SourceFamilyName;
        break;
      }
      case '--pages': {
        const raw = value();
        const match = /^(\d+)(?:-(\d+))?$/.exec(raw);
        const from = Number(match?.[1]);
        const to = Number(match?.[2] ?? match?.[1]);
        if (!match || from < 1 || to < from) throw new UsageError(`--pages: expected A-B with 1 ≤ A ≤ B, got '${raw}'`);
        command.pages = [from, to];
        break;
      }
      case '--list':
        command.lists.push(value());
        break;
      case '--force':
        command.force = true;
        break;
      default:
        throw new UsageError(`unknown argument '${arg}'`);
    }
  }
  if (!command.source) throw new UsageError('--source is required');
  return command;
}

export interface CrawlCommandContext {
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
  trigger?: CrawlTrigger;
}

/**
 * Runs a parsed crawl command against DATABASE_URL: the CLI's body, callable from other scripts.
 * 'demo' as the source starts the bundled demo source for the duration (or uses one already running).
 */
export async function crawlCommand(command: CrawlCommand, context: CrawlCommandContext = {}): Promise<CrawlSummary> {
  const env = context.env ?? process.env;
  const log = context.log ?? ((line: string) => console.log(line));
  const config = loadConfig(env);
  const database = await openMigratedDatabase(env.DATABASE_URL ?? DEFAULT_DATABASE_URL, env.DATABASE_AUTH_TOKEN);
  try {
    const crawl = (source: string, crawlConfig: Config, family = command.family) =>
      runCrawl(
        { db: database.db, fetch: globalThis.fetch, config: crawlConfig, now: Date.now, log },
        {
          source,
          family,
          sourceName: command.name,
          pages: command.pages,
          lists: command.lists.length ? command.lists : undefined,
          force: command.force,
          trigger: context.trigger ?? 'cli',
        },
      );
    if (command.source === 'all') {
      // Every enabled source, one after the other in priority order; their summaries added up.
      await syncConfiguredSources(database.db, config);
      const sources = await crawlableSources(database.db, Date.now());
      if (!sources.length) throw new CrawlRequestError('source: no enabled source (add one with --source URL or CRAWL_SOURCE)');
      let total: CrawlSummary | undefined;
      for (const source of sources) {
        const summary = await crawl(source.baseUrl, config, source.familyGiven && source.family ? source.family : undefined);
        total = total ? addUp(total, summary) : summary;
      }
      return total!;
    }
    if (command.source !== 'demo') return await crawl(command.source, config);
    // The app serves these at /demo-media; the films' poster and clip links point there.
    await prepareDemoMedia();
    return await withDemoSource({ mediaBase: `${config.PUBLIC_URL}/demo-media`, log }, async (url) => {
      // Our own loopback server: no one to be polite to, so no delay between requests. Its OPhim-shaped family
      // first, then its KKPhim-shaped one, whose films join the first's.
      const demoConfig = { ...config, CRAWL_SOURCES: [...config.CRAWL_SOURCES, url], CRAWL_DELAY_MS: 0 };
      const first = await crawl(url, demoConfig);
      return addUp(first, await crawl(`${url}/kkphim`, demoConfig, 'kkphim'));
    });
  } finally {
    database.client.close();
  }
}

/** Two runs' summaries as one (several sources crawled by one command). */
function addUp(a: CrawlSummary, b: CrawlSummary): CrawlSummary {
  return {
    runId: b.runId,
    pages: a.pages + b.pages,
    pagesFailed: a.pagesFailed + b.pagesFailed,
    filmsNew: a.filmsNew + b.filmsNew,
    filmsUpdated: a.filmsUpdated + b.filmsUpdated,
    filmsSkipped: a.filmsSkipped + b.filmsSkipped,
    filmsFailed: a.filmsFailed + b.filmsFailed,
    filmsMerged: a.filmsMerged + b.filmsMerged,
    seconds: Math.round((a.seconds + b.seconds) * 10) / 10,
  };
}

export function formatSummary(summary: CrawlSummary): string {
  const resumed = summary.resumedFrom ? ` (resumed after ${summary.resumedFrom.pagesDone} pages)` : '';
  return [
    `Crawl run #${summary.runId} finished in ${summary.seconds}s${resumed}`,
    `  pages:   ${summary.pages}${summary.pagesFailed ? ` (${summary.pagesFailed} failed)` : ''}`,
    `  films:   ${summary.filmsNew} new, ${summary.filmsUpdated} updated, ${summary.filmsSkipped} skipped, ${summary.filmsFailed} failed, ` +
      `${summary.filmsMerged} merged into films of other sources`,
  ].join('\n');
}

/** The CLI: exit 0 done, 1 crawl failed, 2 bad arguments. */
export async function main(argv: readonly string[]): Promise<number> {
  let command: CrawlCommand;
  try {
    command = parseCrawlArgs(argv);
  } catch (err) {
    console.error(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
    return 2;
  }
  try {
    console.log(formatSummary(await crawlCommand(command)));
    return 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof CrawlRequestError) {
      console.error(`${message}\n\n${USAGE}`);
      return 2;
    }
    console.error(err instanceof CrawlBusyError ? message : `Crawl failed: ${message}`);
    return 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
