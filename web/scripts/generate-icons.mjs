// Renders the app icons from one SVG (run: node web/scripts/generate-icons.mjs). Output is committed.
import { mkdir, writeFile } from 'node:fs/promises';
import sharp from 'sharp';

const out = new URL('../public/', import.meta.url);

/** The mark: a play triangle on a film-frame, red on the app's dark background. */
const mark = (size, padding) => {
  const inner = size - padding * 2;
  const s = inner / 100;
  return `<g transform="translate(${padding} ${padding}) scale(${s})">
    <rect x="6" y="16" width="88" height="68" rx="14" fill="none" stroke="#e50914" stroke-width="7"/>
    <path d="M41 34 L68 50 L41 66 Z" fill="#ffffff"/>
  </g>`;
};

const icon = (
  size,
  { maskable = false, rounded = true } = {},
) => `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1b1f2a"/><stop offset="1" stop-color="#0f1117"/></linearGradient></defs>
  <rect width="${size}" height="${size}" ${rounded && !maskable ? `rx="${size * 0.2}"` : ''} fill="url(#g)"/>
  ${mark(size, maskable ? size * 0.22 : size * 0.12)}
</svg>`;

await mkdir(new URL('icons/', out), { recursive: true });
await mkdir(new URL('images/', out), { recursive: true });
// The tab's icon is a PNG: Chrome's renderer fetches and decodes the page's icon on every navigation, the app's
// own included, and an SVG icon is an SVG document built each time (14–35 ms of a phone's main thread).
await sharp(Buffer.from(icon(48)))
  .png()
  .toFile(new URL('icons/favicon-48.png', out).pathname);
for (const size of [192, 512]) {
  await sharp(Buffer.from(icon(size)))
    .png()
    .toFile(new URL(`icons/icon-${size}.png`, out).pathname);
  await sharp(Buffer.from(icon(size, { maskable: true })))
    .png()
    .toFile(new URL(`icons/maskable-${size}.png`, out).pathname);
}
await sharp(Buffer.from(icon(180, { rounded: false })))
  .png()
  .toFile(new URL('icons/apple-touch-icon.png', out).pathname);

// The error image (when a poster fails to load): 175x245, the card's box. The placeholder while it loads is
// drawn by CSS (global.css, .poster).
const poster = (label) => `<svg xmlns="http://www.w3.org/2000/svg" width="175" height="245" viewBox="0 0 175 245">
  <rect width="175" height="245" fill="#1d2230"/>
  <g transform="translate(47.5 82) scale(0.8)" opacity="0.55">
    <rect x="6" y="16" width="88" height="68" rx="14" fill="none" stroke="#8a93a8" stroke-width="6"/>
    <path d="M41 34 L68 50 L41 66 Z" fill="#8a93a8"/>
  </g>
  ${label ? `<text x="87.5" y="180" text-anchor="middle" font-family="system-ui, sans-serif" font-size="13" fill="#aeb6c8">${label}</text>` : ''}
</svg>`;
await writeFile(new URL('images/poster-error.svg', out), poster('Không tải được ảnh'));
console.log('icons written');
