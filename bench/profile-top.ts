// `tsx bench/profile-top.ts <dir>`: the functions with the most self time in the newest .cpuprofile of
// <dir> (written by `node --cpu-prof`), grouped by function and file, so a profile reads in a terminal.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const dir = process.argv[2] ?? 'data/prof';
const newest = readdirSync(dir)
  .filter((f) => f.endsWith('.cpuprofile'))
  .map((f) => join(dir, f))
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (!newest) throw new Error(`no .cpuprofile in ${dir}`);
const profile = JSON.parse(readFileSync(newest, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map<string, number>();
const byPackage = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const node = byId.get(id);
  const dt = profile.timeDeltas[i] ?? 0;
  if (!node) return;
  total += dt;
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^file:\/\//, '').replace(/^.*node_modules\//, '~/');
  const key = `${functionName || '(anonymous)'}  ${file}:${lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + dt);
  const pkg = url.includes('node_modules/')
    ? (/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1] ?? 'node_modules')
    : url.startsWith('node:') || !url
      ? functionName.startsWith('(')
        ? functionName
        : 'node internals'
      : url.includes('/worker/')
        ? 'worker/ (our code)'
        : 'other';
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + dt);
});
const pct = (n: number) => `${((100 * n) / total).toFixed(1).padStart(5)} %`;
console.log(`${newest}: ${(total / 1000).toFixed(0)} ms sampled\n\nself time by package:`);
for (const [name, t] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${pct(t)}  ${name}`);
console.log('\ntop functions by self time:');
for (const [name, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`  ${pct(t)}  ${name}`);
