// `npm run bench -- premiere [part ...]`: the premiere-night figures of issue 38, each printed beside a floor
// measured in the same run (a plain socket broadcast loop, a static file served by the same host), with the load
// average. Each part lives in bench/premiere/<part>.ts and exports `run()`; name parts to run only those.
// Loopback only; every part is bounded in count and time and stops what it started.
import { loadavg } from 'node:os';

const PARTS = ['thread', 'cache', 'room', 'catchup', 'posting', 'push', 'party'] as const;
type Part = (typeof PARTS)[number];

const asked = process.argv.filter((arg): arg is Part => (PARTS as readonly string[]).includes(arg));
const parts = asked.length > 0 ? asked : [...PARTS];
for (const part of parts) {
  const started = performance.now();
  console.log(
    `\n== premiere: ${part} (load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')})`,
  );
  const mod = (await import(`./premiere/${part}.ts`)) as { run: () => Promise<void> };
  await mod.run();
  console.log(`   ${part} took ${((performance.now() - started) / 1000).toFixed(1)} s; load average now ${loadavg()[0]!.toFixed(2)}`);
}
