// Cloudflare Workers host: wiring only (docs/architecture.md). Turso over HTTP via the Web-standard libSQL client,
// /api/*, robots.txt and the sitemaps to the shared Hono app, page routes to the shell with the first page rendered
// in it (worker/ssr/render.ts), both behind the Cache API (lib/edge-cache.ts), files to Workers Static Assets; Cron Triggers
// to the shared scheduled jobs; the push-chunks Queue to services/push/chunks.ts. Nothing Node-only may be imported here: no node:*, no db/node-client.ts.
import { env as isolateEnv } from 'cloudflare:workers';
import { createClient } from '@libsql/client/web';
import { drizzle } from 'drizzle-orm/libsql/web';
import type { z } from 'zod';
import { createApp } from './app';
import { loadConfig, type Config, type configSchema } from './config';
import { schema } from './db/client';
import type { AppDeps } from './lib/context';
import { type EdgeCacheOptions, layeredStore, memoryStore, publicCacheControl, type ResponseStore, withEdgeCache } from './lib/edge-cache';
import { securityHeaders } from './lib/security-headers';
import { runScheduledJobs } from './scheduled';
import { workersMailTransport } from './services/mail/workers-smtp';
import { consumePushChunks } from './services/push/chunks';
import { scopeVersion } from './services/catalogue/version';
import { cacheScopeOf } from './lib/cache-scope';
import { isSeoPath } from './services/seo/sitemap';
import { isPagePath, type LoadEntry, loadRenderer, renderShell, type SsrEntry } from './ssr/render';

/**
 * The first-page renderer `npm run build` writes (web/src/entry-server.tsx). Not bundled: wrangler uploads
 * ssr/dist/**.js as modules of their own (wrangler.toml find_additional_modules), so a Worker built before
 * the web build still deploys and sends the static shell. The specifier is a variable so neither the
 * bundler nor the type checker needs the file.
 */
const SSR_ENTRY = './ssr/dist/entry-server.js';
const loadSsrEntry: LoadEntry = () => import(SSR_ENTRY) as Promise<SsrEntry>;
/**
 * Imported and warmed up as the isolate starts, not on its first page (ssr/render.ts loadRenderer): compiling the
 * renderer and running it until V8 has compiled its hot paths is then start-up work instead of the first request's
 * CPU. A missing build rejects; pages then get the static shell.
 */
loadRenderer(loadSsrEntry).catch(() => undefined);

/** Every variable worker/config.ts reads, as the string bindings ([vars] and secrets) that carry them. */
type ConfigVars = { [K in keyof z.input<typeof configSchema>]?: string };

/** Bindings: wrangler.toml [vars], secrets (`wrangler secret put`) and the assets binding. */
export interface Env extends ConfigVars {
  /** libsql://<db>-<org>.turso.io (or http(s):// for a self-hosted sqld). */
  DATABASE_URL: string;
  /** Turso database token; secret. */
  DATABASE_AUTH_TOKEN?: string;
  /** Workers Static Assets: web/dist with SPA fallback. */
  ASSETS: Fetcher;
  /** New-episode push chunks (wrangler.toml [[queues]]; services/push/chunks.ts); absent: sent in the notifier's call. */
  PUSH_CHUNKS?: Queue<PushChunkMessage>;
}

interface PushChunkMessage {
  chunk: number;
}

/** sendBatch takes at most 100 messages per call. */
function pushQueueOf(queue: Queue<PushChunkMessage>): AppDeps['pushQueue'] {
  return {
    send: async (ids) => {
      for (let i = 0; i < ids.length; i += 100) await queue.sendBatch(ids.slice(i, i + 100).map((chunk) => ({ body: { chunk } })));
    },
  };
}

interface Host {
  deps: AppDeps;
  api: ReturnType<typeof createApp>;
  headers: Record<string, string>;
  /** The isolate's memory in front of caches.default (lib/edge-cache.ts layeredStore). */
  cache: ResponseStore;
}

/** What one isolate keeps of the Cache API's entries in memory (an isolate has 128 MB in all). */
const ISOLATE_CACHE_BYTES = 16 * 2 ** 20;

/**
 * One Host per env object: the runtime hands every request of an isolate the same env, so config
 * parsing, the DB client and the Hono app are built once per isolate. A new env (new secrets after a
 * deploy, a test's own env) gets its own Host. A configuration error is remembered too, so a broken
 * deploy fails every API request the same way without re-parsing.
 */
const hosts = new WeakMap<Env, Host | Error>();

function hostFor(env: Env): Host {
  let host = hosts.get(env);
  if (!host) {
    host = sameConfiguration(env, startup.env) ? startup.host : hostOrError(env);
    hosts.set(env, host);
  }
  if (host instanceof Error) throw host;
  return host;
}

function hostOrError(env: Env): Host | Error {
  try {
    return buildHost(env);
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/** Whether two envs carry the same variables and secrets (the bindings' objects may differ by identity). */
function sameConfiguration(a: Env, b: Env): boolean {
  const values = (env: Env) => Object.entries(env).filter(([, value]) => typeof value === 'string');
  const left = values(a);
  return left.length === values(b).length && left.every(([name, value]) => (b as unknown as Record<string, unknown>)[name] === value);
}

/**
 * The host of the isolate's own bindings (cloudflare:workers `env`), built while the isolate starts: the
 * configuration parsed, the app created and its statements prepared (db/prepared.ts prepareAll) before the
 * first request, not during it. The runtime hands requests an env object of another identity with the same
 * bindings; one with the same variables and secrets gets this host.
 */
const startup = { env: isolateEnv as unknown as Env, host: hostOrError(isolateEnv as unknown as Env) };

function buildHost(env: Env): Host {
  const config: Config = loadConfig(env as unknown as Record<string, unknown>);
  if (!env.DATABASE_URL) throw new Error('Invalid configuration: DATABASE_URL: required (libsql://… of the Turso database)');
  if (env.DATABASE_URL.startsWith('file:'))
    throw new Error('Invalid configuration: DATABASE_URL: a Worker cannot open file: databases; use libsql:// or https://');
  const client = createClient({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN || undefined });
  const deps: AppDeps = {
    db: drizzle(client, { schema }),
    config,
    now: Date.now,
    // Called as deps.fetch(...): workerd throws "Illegal invocation" if fetch runs with a foreign `this`.
    fetch: (input, init) => fetch(input, init),
    // worker-mailer over cloudflare:sockets to SMTP_URL (or Resend's API); none: mails wait in the outbox.
    mail: workersMailTransport(config, (input, init) => fetch(input, init)),
    pushQueue: env.PUSH_CHUNKS ? pushQueueOf(env.PUSH_CHUNKS) : undefined,
  };
  const shared: ResponseStore = {
    match: (key) => caches.default.match(key),
    put: (key, response) => caches.default.put(key, response),
  };
  const near = memoryStore(config.PUBLIC_CACHE_SECONDS, Date.now, ISOLATE_CACHE_BYTES);
  return { deps, api: createApp(deps), headers: securityHeaders(config), cache: layeredStore(near, shared) };
}

function misconfigured(err: unknown): Response {
  // The details (which variable, why) go to the logs, not to the client.
  console.error('[worker] configuration error:', err instanceof Error ? err.message : err);
  return Response.json(
    { error: { code: 'misconfigured', message: 'Máy chủ đang được cấu hình sai, vui lòng thử lại sau.' } },
    { status: 500, headers: { 'Cache-Control': 'no-store' } },
  );
}

function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}

/**
 * The shell (web/dist/index.html) for a page route, whatever its path: Static Assets has no SPA fallback
 * (wrangler.toml not_found_handling = "none"), so a missing hashed asset is a 404, never the shell. Asked
 * unconditionally: a 304 to a browser holding an older copy (the shell as a file) would skip the rendering.
 */
function shellRequest(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.delete('if-none-match');
  headers.delete('if-modified-since');
  return new Request(new URL('/', request.url), { method: request.method, headers });
}

/**
 * The shell's text, read from Static Assets once per isolate: the Worker and its assets deploy as one
 * version, so an isolate's shell never changes, and each page then spends nothing on asking for it again.
 * Null (not kept, asked again next time) when Static Assets answers anything but the HTML shell.
 */
const shells = new WeakMap<Fetcher, Promise<string | null>>();

function shellText(request: Request, env: Env): Promise<string | null> {
  let text = shells.get(env.ASSETS);
  if (!text) {
    text = env.ASSETS.fetch(shellRequest(request)).then((shell) =>
      shell.status === 200 && shell.headers.get('content-type')?.startsWith('text/html') ? shell.text() : null,
    );
    shells.set(env.ASSETS, text);
    text.then(
      (kept) => kept === null && shells.delete(env.ASSETS),
      () => shells.delete(env.ASSETS),
    );
  }
  return text;
}

/**
 * The shell with the page rendered in it (404: the not-found page), public for shared caches; or the static
 * shell, revalidated by browsers, when the answer is not a rendered page (a client-only route). Anything but
 * a GET, or a shell Static Assets could not give, is Static Assets' own answer. The page's reads are the
 * app's, in-process and anonymous.
 */
async function renderedPage(request: Request, host: Host, env: Env, ctx: ExecutionContext): Promise<Response> {
  const text = request.method === 'GET' ? await shellText(request, env) : null;
  if (text === null) {
    const shell = await env.ASSETS.fetch(shellRequest(request));
    return new Response(shell.body, shell);
  }
  const url = new URL(request.url);
  const page = await renderShell(
    text,
    url,
    loadSsrEntry,
    (apiRequest) => host.api.fetch(apiRequest, env, ctx),
    host.deps.config.PUBLIC_URL,
  );
  // A merged-away film's page (issue 32): 301 to the kept film's.
  if (page.status === 301 && page.location)
    return new Response(null, { status: 301, headers: { Location: page.location, 'Cache-Control': 'no-cache' } });
  // A new body: the asset's ETag and length do not describe it; the platform compresses it at the edge.
  return new Response(page.html, {
    status: page.status,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': page.rendered ? publicCacheControl(host.deps.config.PUBLIC_CACHE_SECONDS) : 'no-cache',
    },
  });
}

/**
 * The Cache API, behind the isolate's memory, in front of the app and the renderer (lib/edge-cache.ts); entries
 * keyed by the catalogue version of what they show (a film's, the lists', or every change's: lib/cache-scope.ts).
 */
function edgeCache(host: Host, ctx: ExecutionContext): EdgeCacheOptions {
  const { config, db } = host.deps;
  return {
    store: host.cache,
    publicUrl: config.PUBLIC_URL,
    freshSeconds: config.PUBLIC_CACHE_SECONDS,
    version: (pathname) => scopeVersion(db, cacheScopeOf(pathname), Date.now(), config.PUBLIC_CACHE_SECONDS * 1000),
    waitUntil: (task) => ctx.waitUntil(task),
    now: Date.now,
  };
}

export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (isApiPath(pathname) || isSeoPath(pathname)) {
      let host: Host;
      try {
        host = hostFor(env);
      } catch (err) {
        return misconfigured(err);
      }
      return withEdgeCache(request, edgeCache(host, ctx), async () => host.api.fetch(request, env, ctx));
    }
    // run_worker_first (wrangler.toml) sends page routes here; the build's files go straight to Static Assets.
    // A path here that names a file (/foo.png) is Static Assets' to answer (a 404 when it has none).
    if (!isPagePath(pathname)) return env.ASSETS.fetch(request);
    let host: Host | undefined;
    try {
      host = hostFor(env);
    } catch {
      host = undefined; // the site still loads (as the static shell) while the API is misconfigured
    }
    if (!host) return env.ASSETS.fetch(shellRequest(request));
    const ready = host;
    const page = await withEdgeCache(request, edgeCache(ready, ctx), () => renderedPage(request, ready, env, ctx));
    const answer = new Response(page.body, page);
    for (const [name, value] of Object.entries(ready.headers)) answer.headers.set(name, value);
    return answer;
  },

  async scheduled(_controller, env, ctx) {
    // A misconfigured deploy throws here, so the Cron Trigger shows as failed in the dashboard.
    ctx.waitUntil(runScheduledJobs(hostFor(env).deps));
  },

  // The push chunks' consumer (wrangler.toml [[queues.consumers]]): each message is one chunk of ≤ 100 subscriptions.
  async queue(batch, env) {
    await consumePushChunks(hostFor(env).deps, batch.messages);
  },
} satisfies ExportedHandler<Env>;
