// After `vite build`: web/dist/_headers gives static files on Workers Static Assets the same security
// headers the API sends (only /api/* runs the Worker there). The Node host adds them itself.
// Hashed build files are immutable, each named by its own rule: a wildcard (/assets/*) would also mark a
// missing file's 404 immutable (docs/decisions/0901-crawlers-status-and-structured-data.md).
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { configSchema } from '../worker/config';
import { securityHeaders } from '../worker/lib/security-headers';
import { WEB_DIST } from '../worker/node';

/** Workers Static Assets reads at most 100 rules from _headers; one is the security headers'. */
const MAX_FILE_RULES = 99;

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });

// Only the public origins matter here (PUBLIC_URL, PARTYKIT_HOST): no secrets are needed to build.
const headers = securityHeaders(configSchema.parse(process.env));
// The .br/.gz copies are not uploaded (.assetsignore): the platform compresses.
const hashed = files(resolve(WEB_DIST, 'assets'))
  .filter((f) => !/\.(br|gz)$/.test(f))
  .map((f) => `/${relative(WEB_DIST, f).split('\\').join('/')}`)
  .sort();
if (hashed.length > MAX_FILE_RULES)
  console.warn(`web/dist/_headers: ${hashed.length} hashed files, over ${MAX_FILE_RULES} rules: /assets/* as a whole is immutable`);
const immutable = hashed.length > MAX_FILE_RULES ? ['/assets/*'] : hashed;
const lines = [
  '/*',
  ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`),
  ...immutable.flatMap((path) => [path, '  Cache-Control: public, max-age=31536000, immutable']),
  '',
];
writeFileSync(resolve(WEB_DIST, '_headers'), lines.join('\n'));
console.log(`web/dist/_headers written (${immutable.length} immutable rules)`);
