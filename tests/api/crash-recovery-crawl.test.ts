// Nothing a crawl acknowledged is lost (issue 39 §5, a crawl page): the Node host crawling a genre of the local
// OPhim stand-in is killed with SIGKILL at a random moment, restarted, the crawl taken over as the scheduler and
// the admin do; after each round every page the run's cursor called completed has its films' new episodes, no film
// is half written, the retried run ends with every film whole, integrity_check ok, foreign_key_check empty.
// The harness is tests/helpers/crawl-crash-harness.ts; `npm run bench -- crash` with CRASH_PATHS=crawl-page runs 200.
import { describe, expect, it } from 'vitest';
import { runCrawlCrashRounds } from '../helpers/crawl-crash-harness';

describe('a host killed inside a crawl', () => {
  it('keeps every page its cursor acknowledged, writes no film by half, and finishes the crawl on a sound database', {
    timeout: 120_000,
  }, async () => {
    const report = await runCrawlCrashRounds({ rounds: 2 });
    expect(report.violations).toEqual([]);
    expect(report.rounds).toBe(2);
    expect(report.lost).toBe(0);
  });
});
