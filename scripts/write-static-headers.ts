// After `vite build`: web/dist/_headers gives static files on Workers Static Assets the same security
// headers the API sends (only /api/* runs the Worker there). The Node host adds them itself.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { configSchema } from '../worker/config';
import { securityHeaders } from '../worker/lib/security-headers';
import { WEB_DIST } from '../worker/node';

// Only the public origins matter here (PUBLIC_URL, PARTYKIT_HOST): no secrets are needed to build.
const headers = securityHeaders(configSchema.parse(process.env));
const lines = [
  '/*',
  ...Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`),
  '/assets/*',
  '  Cache-Control: public, max-age=31536000, immutable',
  '',
];
writeFileSync(resolve(WEB_DIST, '_headers'), lines.join('\n'));
console.log('web/dist/_headers written');
