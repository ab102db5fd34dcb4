import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const DEPCRUISE = join(ROOT, 'node_modules/.bin/depcruise');

/** Lays out a small tree of files (path → source) and runs the repository's boundary rules over it. */
function cruise(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'phimviet-lint-'));
  dirs.push(dir);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), source);
  }
  const run = spawnSync(DEPCRUISE, ['web', 'worker', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'err'], {
    cwd: dir,
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const contract = {
  'worker/schemas/auth.ts': 'export const MIN_PASSWORD = 8;\n',
  'worker/services/auth/password.ts': 'export const hash = (s: string) => s;\n',
  'worker/db/schema.ts': 'export const users = {};\n',
  'party/messages.ts': 'export type Msg = string;\n',
};

describe('npm run lint: import boundaries (.dependency-cruiser.cjs)', { timeout: 60_000 }, () => {
  it('passes a web feature that imports only the wire contract and shared code', () => {
    const { status, output } = cruise({
      ...contract,
      'web/src/lib/format.ts': 'export const f = 1;\n',
      'web/src/features/auth/login.tsx':
        "import { MIN_PASSWORD } from '../../../../worker/schemas/auth';\nimport { f } from '../../lib/format';\nexport const x = MIN_PASSWORD + f;\n",
      'web/src/routes/login.tsx': "import { x } from '../features/auth/login';\nexport const y = x;\n",
    });
    expect(output).not.toMatch(/error/);
    expect(status).toBe(0);
  });

  it('fails when the web imports a worker service instead of worker/schemas', () => {
    const { status, output } = cruise({
      ...contract,
      'web/src/features/auth/register.tsx':
        "import { hash } from '../../../../worker/services/auth/password';\nexport const x = hash('a');\n",
    });
    expect(status).not.toBe(0);
    expect(output).toContain(
      'web-imports-worker-only-through-schemas: web/src/features/auth/register.tsx → worker/services/auth/password.ts',
    );
  });

  it('fails when one feature imports another, or shared code imports a feature', () => {
    const { status, output } = cruise({
      ...contract,
      'web/src/features/search/box.tsx': 'export const Box = 1;\n',
      'web/src/features/catalogue/page.tsx': "import { Box } from '../search/box';\nexport const P = Box;\n",
      'web/src/components/layout/header.tsx': "import { Box } from '../../features/search/box';\nexport const H = Box;\n",
    });
    expect(status).not.toBe(0);
    expect(output).toContain('features-do-not-import-each-other: web/src/features/catalogue/page.tsx → web/src/features/search/box.tsx');
    expect(output).toContain(
      'shared-web-code-does-not-import-features-or-routes: web/src/components/layout/header.tsx → web/src/features/search/box.tsx',
    );
  });

  it('fails when a route module holds SQL (imports the tables or drizzle)', () => {
    const { status, output } = cruise({
      ...contract,
      'web/src/main.tsx': 'export {};\n',
      'worker/routes/users.ts': "import { users } from '../db/schema';\nexport const r = users;\n",
    });
    expect(status).not.toBe(0);
    expect(output).toContain('no-sql-in-routes-and-hosts: worker/routes/users.ts → worker/db/schema.ts');
  });
});
