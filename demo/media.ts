// Media of the demo source: a poster per film (rendered at run time from an SVG, never committed) and
// the bundled HLS clip. The app's Node host serves the directory at /demo-media/.
import { copyFile, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { buildDemoCatalogue, type DemoFilm } from './catalogue';

const DEMO_DIR = dirname(fileURLToPath(import.meta.url));
const REPO_ROOT = resolve(DEMO_DIR, '..');
/** The bundled clip (3 levels + WebVTT subtitles); segments are stored as .mpegts because the repo's tsconfig takes *.ts for TypeScript. */
const BUNDLED_HLS = join(DEMO_DIR, 'hls');

export const POSTER_WIDTH = 350;
export const POSTER_HEIGHT = 490;

/** data/demo-media under the repository root. */
export function demoMediaDir(): string {
  return join(REPO_ROOT, 'data', 'demo-media');
}

export interface DemoMediaResult {
  dir: string;
  postersWritten: number;
  postersKept: number;
}

const TYPE_LABEL: Record<DemoFilm['type'], string> = { series: 'PHIM BỘ', single: 'PHIM LẺ', tvshows: 'TV SHOW', hoathinh: 'HOẠT HÌNH' };

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
}

/** Greedy word wrap for the poster title. */
function wrap(text: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && `${line} ${word}`.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  if (lines.length > maxLines) {
    lines.length = maxLines;
    lines[maxLines - 1] = `${lines[maxLines - 1]}…`;
  }
  return lines;
}

export function posterSvg(film: DemoFilm): string {
  const [from, to] = film.palette;
  const lines = wrap(film.name, 14, 5);
  const size = lines.length > 3 ? 34 : 40;
  const top = 250 - ((lines.length - 1) * size * 1.2) / 2;
  const title = lines
    .map(
      (l, i) =>
        `<text x="175" y="${Math.round(top + i * size * 1.2)}" font-size="${size}" font-weight="700" text-anchor="middle" fill="#fff">${escapeXml(l)}</text>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${POSTER_WIDTH}" height="${POSTER_HEIGHT}" viewBox="0 0 350 490">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<rect width="350" height="490" fill="url(#g)"/>
<circle cx="300" cy="70" r="120" fill="#fff" fill-opacity="0.08"/><circle cx="40" cy="430" r="90" fill="#000" fill-opacity="0.15"/>
<g font-family="DejaVu Sans, Noto Sans, Arial, sans-serif">
<text x="24" y="46" font-size="18" font-weight="700" fill="#fff" fill-opacity="0.85">PhimViet</text>
${title}
${wrap(film.origin_name, 32, 2)
  .map(
    (l, i) =>
      `<text x="175" y="${Math.round(top + lines.length * size * 1.2 + 10 + i * 22)}" font-size="17" text-anchor="middle" fill="#fff" fill-opacity="0.8">${escapeXml(l)}</text>`,
  )
  .join('')}
<rect x="24" y="428" width="120" height="34" rx="6" fill="#000" fill-opacity="0.35"/>
<text x="84" y="451" font-size="16" font-weight="700" text-anchor="middle" fill="#fff">${TYPE_LABEL[film.type]}</text>
<text x="326" y="451" font-size="18" text-anchor="end" fill="#fff">${film.year}</text>
</g></svg>`;
}

async function sizeOf(path: string): Promise<number | undefined> {
  return stat(path).then(
    (s) => s.size,
    () => undefined,
  );
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/**
 * Writes dir/posters/{slug}.webp for every film (keeping ones already there) and copies the bundled
 * clip to dir/hls/ (the multi-level clip.m3u8, its variant playlists clip_180p.m3u8…, segments
 * clip_180p_0.ts…, and the WebVTT subtitles clip_vi.vtt). Idempotent: cheap on every start.
 */
export async function prepareDemoMedia(
  dir: string = demoMediaDir(),
  films: readonly DemoFilm[] = buildDemoCatalogue(),
): Promise<DemoMediaResult> {
  const posters = join(dir, 'posters');
  const hls = join(dir, 'hls');
  await mkdir(posters, { recursive: true });
  await mkdir(hls, { recursive: true });

  // A file whose size differs is an older clip's (the clip was re-cut): replaced.
  for (const name of await readdir(BUNDLED_HLS)) {
    const source = join(BUNDLED_HLS, name);
    const target = join(hls, name.replace(/\.mpegts$/, '.ts'));
    if ((await sizeOf(target)) !== (await sizeOf(source))) await copyFile(source, target);
  }

  let postersWritten = 0;
  let postersKept = 0;
  const queue = [...films];
  const worker = async () => {
    for (let film = queue.shift(); film; film = queue.shift()) {
      const target = join(posters, film.poster_url);
      if (await exists(target)) {
        postersKept++;
        continue;
      }
      const webp = await sharp(Buffer.from(posterSvg(film)))
        .webp({ quality: 60, effort: 4 })
        .toBuffer();
      await writeFile(target, webp);
      postersWritten++;
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return { dir, postersWritten, postersKept };
}
