// `npm run bench -- crash`: the crash harness (tests/helpers/crash-harness.ts) for CRASH_ROUNDS rounds (200 by
// default); every round has one request of each path in flight when the host is killed with SIGKILL, so each
// path is crashed CRASH_ROUNDS times. Prints, per path, the writes acknowledged before the kill, those cut off
// and sent again, and the acknowledged ones lost (the goal: 0), with the restart time and the load average.
// The crawl page (tests/helpers/crawl-crash-harness.ts) is a harness of its own: a crawl is a run with a cursor, not
// one request. CRASH_PATHS=requests runs the request paths only, CRASH_PATHS=crawl-page the crawl only; both by default.
import { loadavg } from 'node:os';
import { CRASH_PATHS, runCrashRounds } from '../tests/helpers/crash-harness';
import { runCrawlCrashRounds } from '../tests/helpers/crawl-crash-harness';

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 200);
const WHICH = process.env.CRASH_PATHS ?? 'all';
const startsLine = (startMs: number[]) => {
  const starts = [...startMs].sort((a, b) => a - b);
  const pct = (p: number) => Math.round(starts[Math.min(starts.length - 1, Math.floor(p * starts.length))] ?? 0);
  return `restart to a healthy /api/health: p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms (${starts.length} starts)`;
};
const loadLine = (load: string[]) =>
  `load average at start ${load.join(' ')}, at end ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')} (2 cores)`;

if (WHICH === 'all' || WHICH === 'requests') await requestPaths();
if (WHICH === 'all' || WHICH === 'crawl-page') await crawlPage();

async function crawlPage() {
  const started = performance.now();
  const load = loadavg().map((n) => n.toFixed(2));
  const report = await runCrawlCrashRounds({ rounds: ROUNDS, log: (line) => console.log(`  ${line}`) });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `\nCrash harness, crawl page: ${report.rounds} rounds, SIGKILL at a random moment within twice a crawl's time (${Math.round(report.crawlMs)} ms)`,
  );
  console.log(
    `crawl requests answered before the kill ${report.acknowledgedRequests}, killed mid-crawl ${report.killedMidCrawl}, ` +
      `pages acknowledged by the cursor ${report.acknowledgedPages}, films of those pages lost ${report.lost}`,
  );
  console.log(
    `violations: ${report.violations.length}${report.violations.length ? `\n  ${report.violations.slice(0, 20).join('\n  ')}` : ''}`,
  );
  console.log(`${startsLine(report.startMs)}; ${seconds.toFixed(0)} s in all`);
  console.log(loadLine(load));
  if (report.violations.length > 0) process.exitCode = 1;
}

async function requestPaths() {
  const started = performance.now();
  const load = loadavg().map((n) => n.toFixed(2));
  const report = await runCrashRounds({ rounds: ROUNDS, log: (line) => console.log(`  ${line}`) });
  const seconds = (performance.now() - started) / 1000;

  console.log(
    `\nCrash harness: ${report.rounds} rounds, SIGKILL inside requests (${report.mixedRounds} rounds with some answered, some cut off)`,
  );
  console.log('path             acknowledged  cut off+retried  lost');
  for (const path of CRASH_PATHS) {
    const t = report.paths[path];
    console.log(
      `${path.padEnd(16)} ${String(t.acknowledged).padStart(12)}  ${String(t.retried).padStart(15)}  ${String(t.lost).padStart(4)}`,
    );
  }
  console.log(
    `violations: ${report.violations.length}${report.violations.length ? `\n  ${report.violations.slice(0, 20).join('\n  ')}` : ''}`,
  );
  console.log(`${startsLine(report.startMs)}; ${seconds.toFixed(0)} s in all`);
  console.log(loadLine(load));
  if (report.violations.length > 0) process.exitCode = 1;
}
