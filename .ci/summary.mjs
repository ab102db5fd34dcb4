// Prints the plain `N passed, N failed` line CI reads, from vitest JSON reports and exit codes.
// A suite that exited non-zero without a report (crash, build failure) counts as one failure.
import { existsSync, readFileSync } from 'node:fs';

const args = process.argv.slice(2);
let passed = 0;
let failed = 0;
for (let i = 0; i < args.length; i += 2) {
  const file = args[i];
  const code = Number(args[i + 1]);
  let counted = false;
  if (existsSync(file)) {
    try {
      const report = JSON.parse(readFileSync(file, 'utf8'));
      passed += report.numPassedTests ?? 0;
      failed += (report.numFailedTests ?? 0) + (report.numFailedTestSuites && !report.numFailedTests ? report.numFailedTestSuites : 0);
      counted = (report.numTotalTests ?? 0) > 0;
      if (code !== 0 && (report.numFailedTests ?? 0) === 0 && (report.numFailedTestSuites ?? 0) === 0) failed += 1;
    } catch {
      counted = false;
    }
  }
  if (!counted && code !== 0) failed += 1;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
