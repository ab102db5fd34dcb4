// The deployable Worker: `wrangler deploy --dry-run` must bundle worker/index.ts with wrangler.toml as is
// (no nodejs_compat, so any node: import anywhere in the API fails the build), and the upload must stay
// well under the Workers free plan's 3 MB compressed limit. Prints the sizes on every run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FREE_PLAN_LIMIT = 3 * 1024 * 1024;
const work = mkdtempSync(join(tmpdir(), 'worker-bundle-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('Worker bundle (wrangler deploy --dry-run)', () => {
  it('builds from wrangler.toml without Node.js APIs and fits the free plan', () => {
    const outdir = join(work, 'out');
    // An empty assets directory stands in for web/dist, so this does not depend on a web build.
    const assets = mkdtempSync(join(work, 'assets-'));
    const run = spawnSync('npx', ['--no-install', 'wrangler', 'deploy', '--dry-run', '--outdir', outdir, '--assets', assets], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', CI: '1', FORCE_COLOR: '0', NO_COLOR: '1' },
      timeout: 60_000,
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).toContain('--dry-run: exiting now');

    const files = readdirSync(outdir).filter((f) => f.endsWith('.js'));
    expect(files).toEqual(['index.js']);
    const code = readFileSync(join(outdir, 'index.js'));
    const text = code.toString('utf8');
    // Neither Node built-ins nor the native libSQL driver may reach the Worker.
    expect(text).not.toMatch(/(?:from\s*|require\(\s*|import\(\s*)["']node:/);
    expect(text).not.toMatch(/@libsql\/linux-|from\s*["']libsql["']/);
    expect(text).toContain('/api/');

    const gzip = gzipSync(code, { level: 9 }).length;
    const reported = /Total Upload:\s*([\d.]+) KiB \/ gzip:\s*([\d.]+) KiB/.exec(output);
    expect(reported, output).not.toBeNull();
    const wranglerGzip = Number(reported![2]) * 1024;
    console.log(
      `[worker-bundle] index.js ${(code.length / 1024).toFixed(1)} KiB raw, ${(gzip / 1024).toFixed(1)} KiB gzip ` +
        `(wrangler: ${reported![1]} KiB / gzip ${reported![2]} KiB); free-plan limit ${FREE_PLAN_LIMIT / 1024} KiB gzip`,
    );
    expect(wranglerGzip).toBeLessThan(FREE_PLAN_LIMIT);
    expect(gzip).toBeLessThan(FREE_PLAN_LIMIT);
  }, 60_000);
});
