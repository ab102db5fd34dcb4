// Node host: wiring only (docs/architecture.md). libSQL file/URL, the built PWA and demo media from one port,
// a one-minute ticker for scheduled jobs, graceful shutdown.
import { getRequestListener } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context } from 'hono';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createApp } from './app';
import { loadConfig, type Config } from './config';
import { DEFAULT_DATABASE_URL, openMigratedDatabase, type NodeDatabase } from './db/node-client';
import type { AppDeps } from './lib/context';
import { DEFAULT_ADMISSION, type AdmissionOptions, withAdmission } from './lib/admission';
import { carriesClientAddress, nodeClientAddress, setClientAddressOnRaw, withClientAddress } from './lib/client-ip';
import { answerClientError, hostErrorResponse } from './lib/host-errors';
import { compressDynamic } from './lib/compress-dynamic';
import { type EdgeCacheOptions, memoryStore, publicCacheControl, withEdgeCache } from './lib/edge-cache';
import { securityHeaders } from './lib/security-headers';
import { holdServerLock } from './db/server-lock';
import { LOCAL_SECRETS_FILE, localSecrets } from './local-secrets';
import { isPagePath, type LoadEntry, loadRenderer, renderShell, type SsrEntry } from './ssr/render';
import { runScheduledJobs } from './scheduled';
import { nodeMailTransport } from './services/mail/node-smtp';
import { startPushPool } from './services/push/pool';
import { scopeVersion } from './services/catalogue/version';
import { cacheScopeOf } from './lib/cache-scope';
import { immutableAssets } from './lib/immutable-assets';
import { isSeoPath } from './services/seo/sitemap';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_DIST = resolve(REPO_ROOT, 'web/dist');
/** The first-page renderer `npm run build` writes (web/src/entry-server.tsx; worker/ssr/render.ts). */
export const SSR_ENTRY = resolve(REPO_ROOT, 'worker/ssr/dist/entry-server.js');
const loadBuiltEntry: LoadEntry = () => import(pathToFileURL(SSR_ENTRY).href) as Promise<SsrEntry>;
/** Secrets drawn on a first start when the environment sets none (worker/local-secrets.ts). */
export { LOCAL_SECRETS_FILE };

export interface NodeServerOptions {
  port: number;
  config: Config;
  database: NodeDatabase;
  /** Directory served at /demo-media/ (demo posters and HLS clip); omitted outside the demo. */
  demoMediaDir?: string;
  /** Run scheduled jobs every SCHEDULER_TICK_MS, a minute by default (the local stand-in for Cron Triggers). */
  ticker?: boolean;
  /** Queue bounds of the request admission (lib/admission.ts); DEFAULT_ADMISSION otherwise. */
  admission?: AdmissionOptions;
}

export interface RunningServer {
  url: string;
  deps: AppDeps;
  close: () => Promise<void>;
}

/**
 * Hono root for the Node host: /api from the shared app, then static files; page routes get the shell with
 * the first page rendered in it (worker/ssr/render.ts), from `loadEntry` (the build's renderer by default).
 */
export function createNodeRoot(deps: AppDeps, demoMediaDir?: string, webDist = WEB_DIST, loadEntry: LoadEntry = loadBuiltEntry) {
  const api = createApp(deps);
  const headers = securityHeaders(deps.config);
  const root = new Hono<{ Bindings: { incoming?: { socket?: { remoteAddress?: string } } } }>();
  // The shell names the live-comment host at run time (web/src/lib/party-host.ts reads this meta), so a
  // different PARTYKIT_HOST needs no rebuild. Read per request: the file is small and may be rebuilt.
  const partyMeta = `<meta name="partykit-host" content="${new URL(deps.config.PARTYKIT_HOST).host}">`;
  const indexHtml = () => {
    const file = resolve(webDist, 'index.html');
    return existsSync(file) ? readFileSync(file, 'utf8').replace('</head>', `${partyMeta}</head>`) : null;
  };
  // The same rule as the Cache API on Workers (lib/edge-cache.ts): anonymous pages and crawler files kept in
  // memory under the catalogue version, never a signed-in or personal answer.
  const fresh = deps.config.PUBLIC_CACHE_SECONDS;
  const pageCache: EdgeCacheOptions = {
    store: memoryStore(fresh, deps.now),
    publicUrl: deps.config.PUBLIC_URL,
    freshSeconds: fresh,
    version: (pathname) => scopeVersion(deps.db, cacheScopeOf(pathname), deps.now(), fresh * 1000),
    waitUntil: (task) => void task.catch(() => undefined),
    now: deps.now,
  };
  // Built without the request's context: a stale entry is refreshed after that request has been answered.
  const shell = (c: Context) =>
    withEdgeCache(c.req.raw, pageCache, async () => {
      const html = indexHtml();
      if (!html) return new Response('Ứng dụng web chưa được build: chạy npm run build.', { status: 503 });
      // The page's reads are the app's, in-process and anonymous (the public read cache, as for any visitor).
      const page = await renderShell(html, new URL(c.req.url), loadEntry, (request) => api.fetch(request), deps.config.PUBLIC_URL);
      // A merged-away film's page (issue 32): 301 to the kept film's.
      if (page.status === 301 && page.location)
        return new Response(null, { status: 301, headers: { Location: page.location, 'Cache-Control': 'no-cache' } });
      return new Response(page.html, {
        status: page.status,
        headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': page.rendered ? publicCacheControl(fresh) : 'no-cache' },
      });
    });
  /** A path naming a file that the build does not have: a 404, never the shell (least of all as immutable). */
  const missingFile = (c: Context) => {
    c.header('Cache-Control', 'no-store');
    return c.text('Not Found', 404);
  };

  // Workers and Cloudflare compress at the edge; this host does it itself (about 400 KB less on a first
  // visit, Lighthouse performance 70s → 90 on a mobile profile): API answers and the shell per request,
  // cheaply (lib/compress-dynamic.ts); static files from the build's .br/.gz copies, never per request.
  root.use('/api/*', compressDynamic);
  root.all('/api/*', (c) => {
    // This host is the edge: the client address is the socket's, never a header the client sent.
    const address = nodeClientAddress(c.req.raw.headers, c.env?.incoming?.socket?.remoteAddress, deps.config.TRUST_PROXY);
    // The server's listener has set them already (setClientAddressOnRaw); a caller without it gets a copy.
    return api.fetch(carriesClientAddress(c.req.raw.headers, address) ? c.req.raw : withClientAddress(c.req.raw, address));
  });
  // Headers are set after the response exists: serveStatic builds its response before its onFound hook.
  root.use('*', async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(headers)) c.res.headers.set(name, value);
    const path = c.req.path;
    if (path.startsWith('/demo-media/')) {
      c.res.headers.set('Cache-Control', 'public, max-age=86400');
      // Hono's MIME table has no HLS types; Safari's native player needs them.
      if (path.endsWith('.m3u8')) c.res.headers.set('Content-Type', 'application/vnd.apple.mpegurl');
      else if (path.endsWith('.ts')) c.res.headers.set('Content-Type', 'video/mp2t');
      else if (path.endsWith('.vtt')) c.res.headers.set('Content-Type', 'text/vtt; charset=utf-8');
    } else {
      // Hashed build assets never change; the shell and the service worker must always revalidate.
      if (!c.res.headers.has('Cache-Control'))
        c.res.headers.set('Cache-Control', path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
      // Files come as .br, .gz or plain copies (scripts/precompress.ts): caches must key on Accept-Encoding.
      if (!c.res.headers.get('Vary')?.includes('Accept-Encoding')) c.res.headers.append('Vary', 'Accept-Encoding');
    }
  });
  if (demoMediaDir) {
    root.use('/demo-media/*', serveStatic({ root: demoMediaDir, rewriteRequestPath: (p) => p.replace(/^\/demo-media/, '') }));
  }
  // robots.txt and the sitemaps are the app's (absolute URLs from PUBLIC_URL).
  root.get('*', (c, next) => (isSeoPath(c.req.path) ? withEdgeCache(c.req.raw, pageCache, async () => api.fetch(c.req.raw)) : next()));
  root.get('/', compressDynamic, shell);
  root.get('/index.html', compressDynamic, shell);
  root.use('/assets/*', immutableAssets(webDist));
  root.use('*', serveStatic({ root: webDist, precompressed: true }));
  root.get('*', compressDynamic, async (c) => (isPagePath(c.req.path) ? shell(c) : missingFile(c)));
  return root;
}

export async function startNodeServer(options: NodeServerOptions): Promise<RunningServer> {
  // `npm run restore` refuses while this mark names a live process (db/server-lock.ts).
  const releaseLock = options.database.file ? holdServerLock(options.database.file) : () => undefined;
  const deps: AppDeps = {
    db: options.database.db,
    config: options.config,
    now: Date.now,
    fetch: globalThis.fetch,
    // nodemailer to SMTP_URL (or Resend's API); none: mails wait in the outbox (services/mail).
    mail: nodeMailTransport(options.config, globalThis.fetch),
  };
  // New-episode pushes: chunks run by a pool beside the ticker (services/push/pool.ts), so a 50,000-follower
  // release never holds the minute jobs. Without the ticker (tests), the notifier sends in its own call.
  const pushPool = options.ticker ? startPushPool(deps) : undefined;
  if (pushPool) deps.pushQueue = pushPool.queue;
  const root = createNodeRoot(deps, options.demoMediaDir);
  // Built by hand rather than with serve(): serve() passes no errorHandler, and the HTTP layer's own 400s
  // (worker/lib/host-errors.ts) should carry the JSON error shape too.
  const listener = getRequestListener(root.fetch, { errorHandler: hostErrorResponse });
  const trustProxy = options.config.TRUST_PROXY;
  const server = createServer(
    withAdmission((incoming, outgoing) => {
      setClientAddressOnRaw(incoming, trustProxy);
      return listener(incoming, outgoing);
    }, options.admission ?? DEFAULT_ADMISSION),
  );
  // Bounds for a slow or silent client (Node's defaults: 60 s for headers, 5 minutes for a request).
  server.headersTimeout = 20_000;
  server.requestTimeout = 30_000;
  server.on('clientError', answerClientError);
  await new Promise<void>((listening) => server.listen(options.port, '0.0.0.0', listening));
  const { port } = server.address() as AddressInfo;
  // The renderer warmed up as the server starts (ssr/render.ts loadRenderer): the first page after a start took 304 ms
  // to render, the next ones 16–33 ms.
  loadRenderer(loadBuiltEntry).catch(() => undefined);
  // Ticks never overlap in this process (a crawl tick may run for CRAWL_TICK_BUDGET_MS); SCHEDULER_TICK_MS
  // lets tests tick faster than the Cron Trigger's minute.
  let ticking = false;
  const tick = () => {
    if (ticking) return;
    ticking = true;
    void runScheduledJobs(deps).finally(() => {
      ticking = false;
    });
  };
  const ticker = options.ticker ? setInterval(tick, options.config.SCHEDULER_TICK_MS) : undefined;
  ticker?.unref();
  return {
    url: `http://localhost:${port}`,
    deps,
    close: () =>
      new Promise<void>((done) => {
        if (ticker) clearInterval(ticker);
        void pushPool?.stop();
        server.close(() => {
          releaseLock();
          done();
        });
        server.closeAllConnections();
      }),
  };
}

/** `tsx worker/node.ts`: the API and PWA only, on DATABASE_URL (npm start adds demo data and PartyKit). */
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const config = loadConfig({ ...process.env, ...localSecrets(process.env, LOCAL_SECRETS_FILE) });
  const database = await openMigratedDatabase(process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL, process.env.DATABASE_AUTH_TOKEN);
  const running = await startNodeServer({ port: Number(process.env.PORT ?? 8787), config, database, ticker: true });
  console.log(`API và web: ${running.url}`);
  const stop = async () => {
    await running.close();
    database.client.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
