// Nothing acknowledged is lost (issue 39 §5): the Node host on a temporary file database, killed with SIGKILL
// while one request of every path is in flight, restarted, the callers retrying as they really do; after each
// round every acknowledged write is there, each order is paid once with one grant and at most one receipt, the
// VIP time granted is the months paid, and the database passes integrity_check and foreign_key_check.
// The harness is tests/helpers/crash-harness.ts; `npm run bench -- crash` runs it for 200 rounds.
import { describe, expect, it } from 'vitest';
import { CRASH_PATHS, runCrashRounds } from '../helpers/crash-harness';

describe('a host killed inside requests', () => {
  it('loses nothing it acknowledged, pays each order once, and restarts on a sound database', { timeout: 300_000 }, async () => {
    const report = await runCrashRounds({ rounds: 3 });
    expect(report.violations).toEqual([]);
    expect(report.rounds).toBe(3);
    for (const path of CRASH_PATHS) {
      expect(report.paths[path].lost, path).toBe(0);
      expect(report.paths[path].acknowledged + report.paths[path].retried, path).toBe(3);
    }
  });
});
