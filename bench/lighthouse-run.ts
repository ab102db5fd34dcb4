// One Lighthouse run (mobile, its default simulated throttling) of one page, with the TBT recomputed on CPU
// time (bench/trace-cpu.ts): used by `npm run lighthouse` (bench/lighthouse.ts) and `npm run bench -- startup`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { mainThreadCost, type TraceEvent } from './trace-cpu';

export interface Run {
  performance: number;
  lcp: number;
  fcp: number;
  tbt: number;
  /** The same TBT formula on the trace's thread time (bench/trace-cpu.ts), and the longest task's CPU. */
  cpuTbt: number;
  longestCpu: number;
  cls: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
}

export async function measureLighthouse(url: string, port: number): Promise<Run> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error' });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  // LIGHTHOUSE_REPORTS=dir keeps each run's whole report (long tasks, script boot-up) and its trace to look into.
  const reports = process.env.LIGHTHOUSE_REPORTS;
  if (reports) {
    mkdirSync(reports, { recursive: true });
    const name = `${new URL(url).pathname.replace(/\W+/g, '_') || 'home'}-${Date.now()}`;
    writeFileSync(join(reports, `${name}.json`), String(result.report));
    writeFileSync(join(reports, `${name}.trace`), JSON.stringify((result.artifacts as unknown as { Trace: unknown }).Trace));
  }
  const { categories, audits } = result.lhr;
  const cpu = mainThreadCost((result.artifacts as unknown as { Trace: { traceEvents: TraceEvent[] } }).Trace.traceEvents, url);
  const score = (id: string) => Math.round((categories[id]?.score ?? Number.NaN) * 100);
  return {
    performance: score('performance'),
    lcp: audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    fcp: audits['first-contentful-paint']?.numericValue ?? Number.NaN,
    tbt: audits['total-blocking-time']?.numericValue ?? Number.NaN,
    cpuTbt: cpu.tbt4x,
    longestCpu: cpu.longest,
    cls: audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
  };
}
