import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { crawlCommand, formatSummary, main, parseCrawlArgs, UsageError } from '../../scripts/crawl';
import { openMigratedDatabase } from '../../worker/db/node-client';
import { films } from '../../worker/db/schema';
import { ophimFilm, startOphimStandin } from '../helpers/ophim-standin';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const fn of cleanups.splice(0)) await fn();
});

describe('crawl CLI arguments', () => {
  it('parses source, page range, repeated lists and --force', () => {
    expect(
      parseCrawlArgs([
        '--source',
        'https://ophim1.com',
        '--pages',
        '2-5',
        '--list',
        'danh-sach/phim-bo',
        '--list=the-loai/hanh-dong',
        '--force',
      ]),
    ).toEqual({
      source: 'https://ophim1.com',
      pages: [2, 5],
      lists: ['danh-sach/phim-bo', 'the-loai/hanh-dong'],
      force: true,
    });
    expect(parseCrawlArgs(['--source=demo', '--pages=3'])).toEqual({ source: 'demo', pages: [3, 3], lists: [], force: false });
  });

  it('names what is wrong', () => {
    expect(() => parseCrawlArgs([])).toThrow(/--source is required/);
    expect(() => parseCrawlArgs(['--source'])).toThrow(/--source needs a value/);
    expect(() => parseCrawlArgs(['--source', 'x', '--pages', '5-2'])).toThrow(/--pages/);
    expect(() => parseCrawlArgs(['--source', 'x', '--pages', 'all'])).toThrow(UsageError);
    expect(() => parseCrawlArgs(['--source', 'x', '--fast'])).toThrow(/unknown argument '--fast'/);
  });

  it('exits 2 with the usage text on bad arguments', async () => {
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
    expect(await main(['--pages', '1-2'])).toBe(2);
    expect(errors.join('\n')).toMatch(/--source is required[\s\S]*Usage: npm run crawl/);
  });
});

describe('crawlCommand', () => {
  it('migrates DATABASE_URL, crawls and reports; a source outside CRAWL_SOURCES is refused', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'crawl-cli-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const source = await startOphimStandin();
    cleanups.push(() => source.close());
    source.films.push(ophimFilm({ slug: 'tu-dong-lenh' }), ophimFilm({ slug: 'tu-dong-lenh-2', type: 'single' }));
    const env = { DATABASE_URL: `file:${join(dir, 'cli.db')}`, CRAWL_SOURCES: source.origin, CRAWL_DELAY_MS: '0', APP_ENV: 'test' };
    const lines: string[] = [];

    const summary = await crawlCommand({ source: source.url, lists: [], force: false }, { env, log: (l) => lines.push(l) });
    expect(summary).toMatchObject({ pages: 1, filmsNew: 2, filmsFailed: 0 });
    expect(lines.some((l) => l.includes('page 1/1'))).toBe(true);
    expect(formatSummary(summary)).toMatch(/films: +2 new, 0 updated, 0 skipped, 0 failed/);

    const check = await openMigratedDatabase(env.DATABASE_URL);
    expect(await check.db.$count(films)).toBe(2);
    check.client.close();

    await expect(crawlCommand({ source: 'https://ophim1.com', lists: [], force: false }, { env, log: () => undefined })).rejects.toThrow(
      /not in CRAWL_SOURCES/,
    );
  });
});
