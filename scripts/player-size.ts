// `npm run build` prints the player's JavaScript: the chunk web/src/features/player/media-elements.ts makes
// (media-chrome's controls, hls-video-element, hls.js), imported by the watch page alone (decision 0650).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const assets = resolve(fileURLToPath(import.meta.url), '../../web/dist/assets');
const chunks = readdirSync(assets).filter((name) => /^media-elements-[\w-]+\.js$/.test(name));
if (chunks.length !== 1) {
  console.error(`player chunk: expected one assets/media-elements-*.js, found ${chunks.length}`);
  process.exit(1);
}
const raw = readFileSync(join(assets, chunks[0]!));
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(`player (watch page only): assets/${chunks[0]} ${kb(raw.byteLength)} → gzip ${kb(gzipSync(raw, { level: 9 }).byteLength)}`);
