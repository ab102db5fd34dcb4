import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
// Built, not written out, so this file does not cite them either.
const OUTSIDE = ['SPEC', 'DESIGN', 'STYLE'].map((name) => `${name}.md`);

describe('citations', () => {
  it('no file of the repository cites a document the repository does not hold', () => {
    const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
    expect(listed.status).toBe(0);
    const files = listed.stdout.split('\0').filter((f) => f && !/\.(png|jpe?g|webp|ico|woff2?|gz|br|ts\.map)$/.test(f));
    expect(files.length).toBeGreaterThan(100);
    const citing: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(join(ROOT, file), 'utf8');
      } catch {
        continue; // listed but deleted in the work tree
      }
      for (const name of OUTSIDE) if (text.includes(name)) citing.push(`${file}: ${name}`);
    }
    expect(citing).toEqual([]);
  });
});
