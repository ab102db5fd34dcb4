// `npm run crawl -- --source <base URL|demo> [--pages A-B] [--list <path>]... [--force]`
// Crawls an OPhim-compatible source into DATABASE_URL (migrations applied first), printing progress.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareDemoMedia } from '../demo/media';
import { withDemoSource } from '../demo/server';
import { loadConfig, type Config } from '../worker/config';
import { DEFAULT_DATABASE_URL, openMigratedDatabase } from '../worker/db/node-client';
import { CrawlBusyError, CrawlRequestError, runCrawl, type CrawlSummary, type CrawlTrigger } from '../worker/services/crawler/index';

export const USAGE = `Usage: npm run crawl -- --source <base URL|demo> [--pages A-B] [--list <path>]... [--force]

  --source URL   an OPhim-compatible API listed in CRAWL_SOURCES, e.g. https://ophim1.com,
                 https://ophim1.com/v1/api, https://phimapi.com; or 'demo' for the bundled demo source
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
    const crawl = (source: string, crawlConfig: Config) =>
      runCrawl(
        { db: database.db, fetch: globalThis.fetch, config: crawlConfig, now: Date.now, log },
        {
          source,
          pages: command.pages,
          lists: command.lists.length ? command.lists : undefined,
          force: command.force,
          trigger: context.trigger ?? 'cli',
        },
      );
    if (command.source !== 'demo') return await crawl(command.source, config);
    // The app serves these at /demo-media; the films' poster and clip links point there.
    await prepareDemoMedia();
    return await withDemoSource({ mediaBase: `${config.PUBLIC_URL}/demo-media`, log }, (url) =>
      // Our own loopback server: no one to be polite to, so no delay between requests.
      crawl(url, { ...config, CRAWL_SOURCES: [...config.CRAWL_SOURCES, url], CRAWL_DELAY_MS: 0 }),
    );
  } finally {
    database.client.close();
  }
}

export function formatSummary(summary: CrawlSummary): string {
  const resumed = summary.resumedFrom ? ` (resumed after ${summary.resumedFrom.pagesDone} pages)` : '';
  return [
    `Crawl run #${summary.runId} finished in ${summary.seconds}s${resumed}`,
    `  pages:   ${summary.pages}${summary.pagesFailed ? ` (${summary.pagesFailed} failed)` : ''}`,
    `  films:   ${summary.filmsNew} new, ${summary.filmsUpdated} updated, ${summary.filmsSkipped} skipped, ${summary.filmsFailed} failed`,
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
