import { fileURLToPath } from 'node:url';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { pwaOptions } from './pwa.config';
import { appStylesheetTable, bootPrefetch, chunkMetas, inlineCss, startAfterPaint } from './vite-plugins';

const root = fileURLToPath(new URL('.', import.meta.url));
/** The route files → route tree and lazy chunks, the same for the browser and the server renderer. */
const routerPlugin = () =>
  tanstackRouter({
    target: 'react',
    autoCodeSplitting: true,
    routesDirectory: `${root}src/routes`,
    generatedRouteTree: `${root}src/routeTree.gen.ts`,
    quoteStyle: 'single',
  });
const api = process.env.API_ORIGIN ?? 'http://localhost:8787';
// Live-comment rooms (lib/party-host.ts): VITE_PARTYKIT_HOST, else the PARTYKIT_HOST the build
// already writes the CSP (_headers) for, so a deploy names the host once.
const partykitHost = process.env.VITE_PARTYKIT_HOST ?? process.env.PARTYKIT_HOST ?? '';
// Chunks only the back office loads (its feature, its routes, the chart and table libraries) go to
// assets/admin/, which the service worker does not precache: viewers who install the app never download them.
/** The stream controller and its parts, shared by the watch page's start path and the player (decision 0952). */
const STREAM_MODULE = /\/web\/src\/(features\/player\/(stream\/|player-prefs\.ts|api\/episode-path\.ts)|lib\/hls\/)/;
/**
 * Everything the start path (a second entry, features/player/stream-start.ts) reaches: never in the app's chunk,
 * which the start path must not wait for. The small lib modules the film page or the app also use go to a chunk
 * of their own, so the film page does not load the stream's chunk with it. A lib module the start path comes to
 * import must be named here (tests/e2e/stream-start.test.ts fails otherwise: the early tap waits for the app).
 */
const START_PATH =
  /\/web\/src\/(features\/player\/(stream-start\.ts|stream\/|player-prefs\.ts|api\/episode-path\.ts)|lib\/(hls\/|play-intent\.ts|resume-point\.ts|start-server\.ts|first-route\.ts|timeout-signal\.ts))/;
const ADMIN_ONLY_MODULE =
  /\/web\/src\/(features\/admin\/|routes\/admin[./])|\/node_modules\/(chart\.js|@kurkle\/color|@tanstack\/(react-table|table-core))\//;

/**
 * `vite build --ssr src/entry-server.tsx` (npm run build): the first-page renderer both hosts import
 * (worker/ssr/render.ts). One self-contained ES module, no Node APIs, resolved with the Workers
 * conditions (router-core's server build, React's web-streams renderer), so Node and workerd run the same file.
 */
const ssrBuild = defineConfig({
  root,
  envDir: root,
  define: {
    'import.meta.env.VITE_PARTYKIT_HOST': JSON.stringify(partykitHost),
    // workerd has no `process`; React and the router pick their production builds from this.
    'process.env.NODE_ENV': JSON.stringify('production'),
  },
  ssr: {
    noExternal: true,
    resolve: { conditions: ['workerd', 'worker', 'module', 'production'], externalConditions: ['workerd', 'worker'] },
  },
  build: {
    outDir: '../worker/ssr/dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    minify: false,
    copyPublicDir: false,
    rollupOptions: { output: { entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' } },
  },
  // The browser's build comes first (npm run build): its index.html holds the stylesheet a host cuts per page.
  plugins: [routerPlugin(), react(), appStylesheetTable(`${root}dist/index.html`)],
});

const clientBuild = defineConfig({
  root,
  envDir: root,
  define: {
    'import.meta.env.VITE_PARTYKIT_HOST': JSON.stringify(partykitHost),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    rollupOptions: {
      // The watch page's start path is a second entry: the boot script imports it by name before the app loads
      // (features/player/stream-start.ts, decision 0952).
      input: { index: `${root}index.html`, 'stream-start': `${root}src/features/player/stream-start.ts` },
      treeshake: { manualPureFunctions: ['z'] },
      output: {
        // Everything the entry imports statically is one chunk (the entry itself) but React DOM: left to the
        // automatic splitting, the modules it shares with lazy routes became 16 small chunks, each one more
        // request and one more compile/evaluate step on the first page's main thread; React DOM (210 KB) on
        // its own keeps each chunk's compile finalization on the main thread a task under 50 ms at 4× slowdown.
        codeSplitting: {
          groups: [
            // What the start path shares with the watch page's own code (the stream controller and its parts), in
            // one chunk of its own rather than in the app's: the start path must not wait for the app.
            { name: 'stream', test: STREAM_MODULE, priority: 3 },
            // The few small lib modules both the start path and the app's pages use: one chunk, one request.
            { name: 'start-lib', test: /\/web\/src\/lib\/(play-intent|resume-point|start-server|first-route)\.ts/, priority: 3 },
            // Vite's helper for import() (every chunk with a lazy import uses it): on its own, or it would follow
            // the stream's chunk into every page, or put the app's chunk under the start path.
            { name: 'preload-helper', test: /vite\/preload-helper/, priority: 4 },
            { name: 'react-dom', test: /[\\/]node_modules[\\/](react-dom|scheduler)[\\/]/, priority: 2 },
            // TanStack Router and Query (about 100 KB) in a chunk of their own, so that the boot script evaluates them
            // in a task apart from the app's code (web/vite-plugins.ts startAfterPaint).
            {
              name: 'tanstack',
              test: /[\\/]node_modules[\\/]@tanstack[\\/](router-core|react-router|history|store|react-store|query-core|react-query)[\\/]/,
              priority: 2,
            },
            // The app's entry and what it imports statically; the start path (a second entry) keeps to itself.
            { name: 'app', tags: ['$initial'], test: (id) => !START_PATH.test(id), priority: 1 },
          ],
        },
        chunkFileNames: (chunk) =>
          chunk.moduleIds.length > 0 && chunk.moduleIds.every((id) => ADMIN_ONLY_MODULE.test(id))
            ? 'assets/admin/[name]-[hash].js'
            : 'assets/[name]-[hash].js',
      },
    },
  },
  plugins: [
    // The router plugin must run before react(): it rewrites route files into lazy chunks.
    routerPlugin(),
    react(),
    VitePWA(pwaOptions),
    bootPrefetch(),
    inlineCss(),
    startAfterPaint(),
    chunkMetas(),
  ],
  server: {
    proxy: {
      '/api': api,
      '/demo-media': api,
    },
  },
  preview: {
    proxy: {
      '/api': api,
      '/demo-media': api,
    },
  },
});

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? ssrBuild : clientBuild));
