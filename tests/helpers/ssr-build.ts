import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SsrEntry } from '../../worker/ssr/render';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Builds the first-page renderer (web/src/entry-server.tsx) as `npm run build` does, into a temporary
 * directory, so tests render the current source and need no prior build (a few seconds).
 */
export async function buildSsrEntry(
  outDir = mkdtempSync(join(tmpdir(), 'ssr-entry-')),
): Promise<{ file: string; load: () => Promise<SsrEntry> }> {
  const { build } = await import('vite');
  // vitest sets NODE_ENV=test, which would make the JSX transform emit its development runtime.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: join(ROOT, 'web/vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
      build: { ssr: 'src/entry-server.tsx', outDir, emptyOutDir: true },
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  const file = join(outDir, 'entry-server.js');
  return { file, load: () => import(pathToFileURL(file).href) as Promise<SsrEntry> };
}
