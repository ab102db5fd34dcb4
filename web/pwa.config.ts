import type { VitePWAOptions } from 'vite-plugin-pwa';

/**
 * Service worker and manifest. Caching rules (issue 3; docs/architecture.md):
 * - the app shell (every built asset) is precached, so any route opens offline (online, navigations get the
 *   page rendered on the host);
 * - catalogue reads (home, listings, film detail, search, categories) are network-first with a short
 *   timeout, so a page seen before renders from cache when the network is gone;
 * - posters are cache-first with expiry and purge on quota errors;
 * - nothing else: auth, comments, ratings, payment, the member's library (/api/me/*), episode links and
 *   video segments never match a rule, and a request carrying an Authorization header is never cached
 *   (its answer is personal).
 */
export const pwaOptions: Partial<VitePWAOptions> = {
  registerType: 'prompt',
  injectRegister: false,
  includeAssets: ['icons/favicon-48.png', 'icons/apple-touch-icon.png', 'images/*.svg'],
  manifest: {
    id: '/',
    name: 'PhimViet - Xem phim online',
    short_name: 'PhimViet',
    description: 'Xem phim bộ, phim lẻ, TV shows Vietsub chất lượng cao, miễn phí và cập nhật mỗi ngày.',
    lang: 'vi',
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'any',
    theme_color: '#0f1117',
    background_color: '#0f1117',
    categories: ['entertainment', 'video'],
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
      { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  workbox: {
    globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,txt}'],
    // The player (hls.js and hls-video-element, ~186 kB gzip, features/player/stream-engine.ts; media-chrome's
    // controls, ~47 kB, media-elements.ts; hls.js's transmuxer worker, ~36 kB) only matters on the watch page: cached
    // when first used instead.
    globIgnores: ['**/media-elements-*.js', '**/stream-engine-*.js', '**/hls.worker-*.js', 'assets/admin/**'],
    // No navigateFallback: page navigations go to the network, which answers with the page rendered on the
    // host (worker/ssr/render.ts), and fall back to the precached shell offline (the first rule below).
    // Push and notification-click handlers (new episodes) live in a plain script the generated worker
    // imports: the caching rules stay declarative here (docs/decisions/0800-member-library.md).
    importScripts: ['/sw-push.js'],
    cleanupOutdatedCaches: true,
    clientsClaim: true,
    skipWaiting: false,
    runtimeCaching: [
      {
        // Navigations: the host's rendered page while online (an installed app opens with content as a
        // first visit does); the precached shell when the network fails (offline), as before. Rendered pages
        // are not cached: an old page would name hashed assets a newer deploy has removed.
        urlPattern: ({ request, url }) => request.mode === 'navigate' && !/^\/(api|demo-media|parties)\//.test(url.pathname),
        handler: 'NetworkOnly',
        options: { precacheFallback: { fallbackURL: '/index.html' } },
      },
      {
        // Hashed build files left out of the precache (the player): immutable, so cache-first.
        urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/assets/'),
        handler: 'CacheFirst',
        options: {
          cacheName: 'assets',
          expiration: { maxEntries: 30, maxAgeSeconds: 60 * 24 * 60 * 60, purgeOnQuotaError: true },
          cacheableResponse: { statuses: [200] },
        },
      },
      {
        // Catalogue reads only (allowlist). Functions are serialised into sw.js: keep them self-contained.
        urlPattern: ({ url, request, sameOrigin }) => {
          if (!sameOrigin || request.method !== 'GET' || request.headers.has('authorization')) return false;
          const p = url.pathname;
          if (p === '/api/category' || p === '/api/product/product-home' || p === '/api/product/search') return true;
          // /api/product/product-{listing} and /api/product/{film-slug}: exactly one segment after /api/product/.
          const m = /^\/api\/product\/([^/]+)$/.exec(p);
          if (!m) return false;
          const seg = decodeURIComponent(m[1] ?? '');
          return !/^(update_view|report_error|comment|rating_star|getdetail_xemphim|vnpay|momo|zalopay|edit_|delete_|create_)/.test(seg);
        },
        handler: 'NetworkFirst',
        method: 'GET',
        options: {
          cacheName: 'api-catalogue',
          networkTimeoutSeconds: 4,
          expiration: { maxEntries: 300, maxAgeSeconds: 7 * 24 * 60 * 60, purgeOnQuotaError: true },
          cacheableResponse: { statuses: [200] },
        },
      },
      {
        urlPattern: ({ request, url }) => request.destination === 'image' && !url.pathname.startsWith('/api/'),
        handler: 'CacheFirst',
        options: {
          cacheName: 'posters',
          expiration: { maxEntries: 400, maxAgeSeconds: 30 * 24 * 60 * 60, purgeOnQuotaError: true },
          cacheableResponse: { statuses: [0, 200] },
        },
      },
    ],
  },
  devOptions: { enabled: false },
};
