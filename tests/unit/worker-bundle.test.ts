// The deployable Worker: `wrangler deploy --dry-run` must bundle worker/index.ts with wrangler.toml as is
// (no nodejs_compat, so a node: import anywhere in the API fails the build), the bundled first-party code
// must not touch Node globals (the workers test pool enables Node compatibility, production does not), and
// the upload must stay well under the Workers free plan's 3 MB compressed limit. Prints the sizes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FREE_PLAN_LIMIT = 3 * 1024 * 1024;
const work = mkdtempSync(join(tmpdir(), 'worker-bundle-'));
const outdir = join(work, 'out');
const metafile = join(work, 'meta.json');
let build: { status: number | null; output: string };

beforeAll(() => {
  // An empty assets directory stands in for web/dist, so this does not depend on a web build.
  const assets = mkdtempSync(join(work, 'assets-'));
  const run = spawnSync(
    'npx',
    ['--no-install', 'wrangler', 'deploy', '--dry-run', '--outdir', outdir, '--metafile', metafile, '--assets', assets],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: 'false',
        CLOUDFLARE_CF_FETCH_ENABLED: 'false',
        CI: '1',
        FORCE_COLOR: '0',
        NO_COLOR: '1',
      },
      timeout: 60_000,
    },
  );
  build = { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}, 60_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('Worker bundle (wrangler deploy --dry-run)', () => {
  it('builds from wrangler.toml and fits the free plan', () => {
    expect(build.status, build.output).toBe(0);
    expect(build.output).toContain('--dry-run: exiting now');
    expect(readdirSync(outdir).filter((f) => f.endsWith('.js'))).toEqual(['index.js']);

    const code = readFileSync(join(outdir, 'index.js'));
    const gzip = gzipSync(code, { level: 9 }).length;
    const reported = /Total Upload:\s*([\d.]+) KiB \/ gzip:\s*([\d.]+) KiB/.exec(build.output);
    expect(reported, build.output).not.toBeNull();
    const meta = JSON.parse(readFileSync(metafile, 'utf8')) as { inputs: Record<string, { bytes: number }> };
    const byPackage = new Map<string, number>();
    for (const [path, { bytes }] of Object.entries(meta.inputs)) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)?.[1] ?? path.split('/')[0]!;
      byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + bytes);
    }
    const largest = [...byPackage]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([p, b]) => `${p} ${(b / 1024).toFixed(0)}`)
      .join(', ');
    console.log(
      `[worker-bundle] index.js ${(code.length / 1024).toFixed(1)} KiB raw, ${(gzip / 1024).toFixed(1)} KiB gzip ` +
        `(wrangler: ${reported![1]} KiB / gzip ${reported![2]} KiB; free-plan limit ${FREE_PLAN_LIMIT / 1024} KiB gzip). ` +
        `Largest inputs, KiB before minification: ${largest}`,
    );
    expect(Number(reported![2]) * 1024).toBeLessThan(FREE_PLAN_LIMIT);
    expect(gzip).toBeLessThan(FREE_PLAN_LIMIT);
  });

  it('bundles the Web libSQL client and no Node-only module', () => {
    expect(build.status, build.output).toBe(0);
    const inputs = Object.keys((JSON.parse(readFileSync(metafile, 'utf8')) as { inputs: object }).inputs);
    expect(inputs).toContain('worker/index.ts');
    expect(inputs.some((p) => p.includes('@libsql/client/lib-esm/web.js'))).toBe(true);
    const nodeOnly = inputs.filter(
      (p) =>
        p === 'worker/node.ts' ||
        p === 'worker/db/node-client.ts' ||
        /node_modules\/(libsql|@libsql\/linux-|@hono\/node-server|ws)\//.test(p),
    );
    expect(nodeOnly).toEqual([]);
    const text = readFileSync(join(outdir, 'index.js'), 'utf8');
    expect(text).not.toMatch(/(?:from\s*|require\(\s*|import\(\s*)["']node:/);
  });

  it('bundles first-party code that uses no Node globals (production has no nodejs_compat)', () => {
    expect(build.status, build.output).toBe(0);
    const inputs = Object.keys((JSON.parse(readFileSync(metafile, 'utf8')) as { inputs: object }).inputs).filter((p) =>
      /^(worker|party)\//.test(p),
    );
    expect(inputs.length).toBeGreaterThan(5);
    const offenders: string[] = [];
    for (const path of inputs) {
      const source = readFileSync(join(ROOT, path), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
      for (const match of source.matchAll(/\b(Buffer|process|__dirname|__filename|require|setImmediate|global)\b\s*[.(]/g)) {
        offenders.push(`${path}: ${match[0]}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
