// The first page rendered by the Worker (worker/index.ts → worker/ssr/render.ts → the renderer the global
// setup builds into worker/ssr/dist): public pages come with their films in #root, read in-process from
// the libSQL server; other pages and a misconfigured API get the static shell from Static Assets (a failing
// render and a missing build: tests/api/ssr-node.test.ts, the same worker/ssr/render.ts).
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { createClient } from '@libsql/client/web';
import { drizzle } from 'drizzle-orm/libsql/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../worker/db/client';
import worker from '../../worker/index';
import { upsertFilm } from '../../worker/services/films/film-writer';

const ORIGIN = 'https://phimviet.example.workers.dev';
const TITLE = 'Cánh Đồng Bất Tận (SSR)';
const client = createClient({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN });
const db = drizzle(client, { schema });
let slug: string;

beforeAll(async () => {
  ({ slug } = await upsertFilm(db, {
    title: TITLE,
    categoryId: 24,
    description: 'Hai chị em theo cha trên ghe vịt.',
    episodes: [
      {
        serverName: 'Vietsub #1',
        episode: 1,
        name: 'Tập 1',
        m3u8Url: 'https://cdn.example.com/ssr/1.m3u8',
        embedUrl: 'https://player.example.com/ssr/1',
      },
    ],
  }));
});

afterAll(() => client.close());

const navigation = { headers: { accept: 'text/html', 'sec-fetch-mode': 'navigate' } };

async function page(path: string, bindings: Cloudflare.Env = env) {
  const ctx = createExecutionContext();
  const request = new Request(`${ORIGIN}${path}`, navigation) as Request<unknown, IncomingRequestCfProperties>;
  const response = await worker.fetch(request, bindings, ctx);
  await waitOnExecutionContext(ctx);
  expect(response.status, path).toBe(200);
  return { response, html: await response.text() };
}

const rootOf = (html: string) => /<div id="root"[^>]*>([\s\S]*)<\/div><!--\/app-->/.exec(html)?.[1] ?? '';

describe('Workers entry: the first page rendered in the shell', () => {
  it('a film page: its title and description in #root, the query cache beside it, the security headers', async () => {
    const { response, html } = await page(`/${slug}`);
    expect(rootOf(html)).toContain(TITLE);
    expect(rootOf(html)).toContain('Hai chị em theo cha trên ghe vịt.');
    expect(html).toContain('<script type="application/json" id="ssr-state">');
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // Public for shared caches (the Cache API in front of the renderer, lib/edge-cache.ts); browsers revalidate.
    expect(response.headers.get('cache-control')).toMatch(/^public, max-age=0, s-maxage=10, stale-while-revalidate=\d+$/);
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('home and /phim-bo list the film', async () => {
    expect(rootOf((await page('/')).html)).toContain(TITLE);
    expect(rootOf((await page('/phim-bo')).html)).toContain(TITLE);
  });

  it('is reached through the deployed routing (run_worker_first covers page routes)', async () => {
    const res = await exports.default.fetch(`${ORIGIN}/${slug}`, navigation);
    expect(res.status).toBe(200);
    expect(rootOf(await res.text())).toContain(TITLE);
  });

  it('renders for a browser holding an older copy of the shell (no 304 from Static Assets)', async () => {
    const etag = (await env.ASSETS.fetch(new Request(`${ORIGIN}/index.html`))).headers.get('etag');
    expect(etag).toBeTruthy();
    const conditional = { headers: { ...navigation.headers, 'if-none-match': etag! } };
    const res = await exports.default.fetch(`${ORIGIN}/${slug}`, conditional);
    expect(res.status).toBe(200);
    expect(rootOf(await res.text())).toContain(TITLE);
  });

  it('sends the static shell for pages it does not render', async () => {
    for (const path of ['/dang-nhap', '/admin']) {
      const { html } = await page(path);
      expect(rootOf(html), path).toBe('<div class="app-spinner"></div>');
      expect(html, path).not.toContain('ssr-state');
    }
  });

  it('sends the static shell while the API is misconfigured, never a 500', async () => {
    const misconfigured = { ...env, JWT_SECRET: undefined } as Cloudflare.Env;
    const { html } = await page(`/${slug}`, misconfigured);
    expect(rootOf(html)).toBe('<div class="app-spinner"></div>');
  });

  it('asks Static Assets for the shell once per isolate, and again after an answer that was not the shell', async () => {
    let asked = 0;
    let broken = true;
    const assets = {
      fetch: (input: RequestInfo | URL, init?: RequestInit) => {
        asked++;
        if (broken) return Promise.resolve(new Response('not here', { status: 404 }));
        return env.ASSETS.fetch(input as Request, init);
      },
      connect: env.ASSETS.connect.bind(env.ASSETS),
    } as Fetcher;
    const bindings = { ...env, ASSETS: assets } as Cloudflare.Env;
    const ctx = createExecutionContext();
    // Paths no earlier test asked for: the edge cache holds none of them.
    const failed = await worker.fetch(
      new Request(`${ORIGIN}/phim-le`, navigation) as Request<unknown, IncomingRequestCfProperties>,
      bindings,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    // Static Assets' own answer goes out as it was (the first ask, and the one that passes it on).
    expect(failed.status).toBe(404);
    broken = false;
    asked = 0;
    for (const path of ['/phim-le', `/xem-phim/${slug}/tap-1`, '/phim-shows'])
      expect((await page(path, bindings)).html, path).toContain('ssr-state');
    expect(asked).toBe(1);
  });
});
