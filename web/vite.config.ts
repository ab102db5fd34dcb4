import { fileURLToPath } from 'node:url';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { pwaOptions } from './pwa.config';
import { bootPrefetch, inlineCss, playerChunkMeta, startAfterPaint } from './vite-plugins';

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
  plugins: [routerPlugin(), react()],
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
      output: {
        // Everything the entry imports statically is one chunk (the entry itself) but React DOM: left to the
        // automatic splitting, the modules it shares with lazy routes became 16 small chunks, each one more
        // request and one more compile/evaluate step on the first page's main thread; React DOM (210 KB) on
        // its own keeps each chunk's compile finalization on the main thread a task under 50 ms at 4× slowdown.
        codeSplitting: {
          groups: [
            { name: 'react-dom', test: /[\\/]node_modules[\\/](react-dom|scheduler)[\\/]/, priority: 2 },
            { name: 'app', tags: ['$initial'], priority: 1 },
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
    playerChunkMeta(),
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
