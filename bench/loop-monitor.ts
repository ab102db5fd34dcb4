// Preloaded into the bench server (bench/server.ts: `node --import ./bench/loop-monitor.ts`): measures the
// server's event-loop delay, and on SIGUSR2 writes its percentiles (ms) as JSON to BENCH_LOOP_FILE, then
// starts a fresh histogram. The load bench reads it to say how long the loop was blocked.
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_FILE;
if (file) {
  let histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  process.on('SIGUSR2', () => {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const { heapUsed, external } = process.memoryUsage();
    // Live data: after a full collection (the bench server runs with --expose-gc).
    (globalThis as { gc?: () => void }).gc?.();
    const live = process.memoryUsage().heapUsed;
    writeFileSync(
      file,
      JSON.stringify({
        p50: ms(histogram.percentile(50)),
        p99: ms(histogram.percentile(99)),
        max: ms(histogram.max),
        heapMb: Math.round(heapUsed / 2 ** 20),
        liveHeapMb: Math.round(live / 2 ** 20),
        externalMb: Math.round(external / 2 ** 20),
      }),
    );
    histogram.disable();
    histogram = monitorEventLoopDelay({ resolution: 10 });
    histogram.enable();
  });
}
