// `npm run build` prints the player's JavaScript, loaded by the watch page alone: the stream engine
// (web/src/features/player/stream-engine.ts: hls-video-element, hls.js, the player's loaders; decision 0952), the
// control bar (media-elements.ts: media-chrome; decision 0650), and the start path that runs before the app
// (stream-start.ts and the stream controller's chunk).
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const assets = resolve(fileURLToPath(import.meta.url), '../../web/dist/assets');
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const parts: [string, RegExp][] = [
  ['engine', /^stream-engine-[\w-]+\.js$/],
  ['controls', /^media-elements-[\w-]+\.js$/],
  ['start path', /^stream-start-[\w-]+\.js$/],
  ['stream controller', /^stream-[\w-]{8}\.js$/],
];
for (const [name, pattern] of parts) {
  const chunks = readdirSync(assets).filter((file) => pattern.test(file));
  if (chunks.length !== 1) {
    console.error(`player ${name}: expected one chunk matching ${pattern}, found ${chunks.length}`);
    process.exit(1);
  }
  const raw = readFileSync(join(assets, chunks[0]!));
  console.log(
    `player ${name} (watch page only): assets/${chunks[0]} ${kb(raw.byteLength)} → gzip ${kb(gzipSync(raw, { level: 9 }).byteLength)}`,
  );
}
