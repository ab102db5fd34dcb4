// After `vite build`: a .br (quality 11) and a .gz (level 9) beside every compressible static file, so
// the Node host serves them as they are (worker/node.ts, serveStatic precompressed) and never compresses
// a static file per request. Workers Static Assets compress at Cloudflare's edge: .assetsignore keeps
// the copies out of the upload.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Text formats worth compressing; images, video and fonts (woff2) are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml|map|wasm|ico)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

export interface PrecompressSummary {
  files: number;
  bytes: number;
  gzipBytes: number;
  brotliBytes: number;
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

/** Writes the compressed copies of every compressible file under `dir` (kept only when smaller). */
export function precompressDir(dir: string): PrecompressSummary {
  const summary: PrecompressSummary = { files: 0, bytes: 0, gzipBytes: 0, brotliBytes: 0 };
  for (const path of walk(dir)) {
    if (!COMPRESSIBLE.test(path) || statSync(path).size < MIN_BYTES) continue;
    const raw = readFileSync(path);
    const gzip = gzipSync(raw, { level: 9 });
    const brotli = brotliCompressSync(raw, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.byteLength },
    });
    if (gzip.byteLength >= raw.byteLength) continue;
    writeFileSync(`${path}.gz`, gzip);
    if (brotli.byteLength < gzip.byteLength) writeFileSync(`${path}.br`, brotli);
    summary.files += 1;
    summary.bytes += raw.byteLength;
    summary.gzipBytes += gzip.byteLength;
    summary.brotliBytes += Math.min(brotli.byteLength, gzip.byteLength);
  }
  // Workers Static Assets: Cloudflare compresses on its own; do not upload the copies.
  writeFileSync(join(dir, '.assetsignore'), '*.gz\n*.br\n');
  return summary;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dist = resolve(fileURLToPath(import.meta.url), '../../web/dist');
  const s = precompressDir(dist);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(`web/dist precompressed: ${s.files} files, ${kb(s.bytes)} → gzip ${kb(s.gzipBytes)}, brotli ${kb(s.brotliBytes)}`);
}
