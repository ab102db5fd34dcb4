// The Worker at the edge (worker/index.ts, lib/edge-cache.ts): anonymous pages and public reads from the Cache
// API keyed by the catalogue version, nothing personal stored; status codes that tell the truth; absolute URLs
// from PUBLIC_URL whatever the Host.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { createClient } from '@libsql/client/web';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/libsql/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../worker/db/client';
import { users } from '../../worker/db/schema';
import worker from '../../worker/index';
import { hashPassword } from '../../worker/services/auth/password';
import { upsertFilm } from '../../worker/services/films/film-writer';

const ORIGIN = 'https://phimviet.example.workers.dev';
const client = createClient({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN });
const db = drizzle(client, { schema });
let slug: string;
const episode = (n: number) => ({
  serverName: 'Vietsub #1',
  episode: n,
  name: `Tập ${n}`,
  m3u8Url: `https://cdn.example.com/edge/${n}/index.m3u8`,
  embedUrl: '',
});

beforeAll(async () => {
  ({ slug } = await upsertFilm(db, { title: 'Bến Không Chồng (edge)', categoryId: 25, description: 'Làng Đông.' }));
});
afterAll(() => client.close());

async function call(url: string, init?: RequestInit, bindings: Cloudflare.Env = env) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(url, init) as Request<unknown, IncomingRequestCfProperties>, bindings, ctx);
  const body = await response.text();
  // Entries are put after the answer (waitUntil): wait for them, as the next visitor would come later.
  await waitOnExecutionContext(ctx);
  return { response, body };
}

const version = async () => (await db.get<{ version: number }>(sql`select version from catalogue_version where id = 1`))?.version ?? 0;
/** What a list page is keyed by (services/catalogue/version.ts scopeVersion): the lists' version, or a later epoch. */
const listsVersion = async () =>
  (await db.get<{ version: number }>(sql`select max(lists, epoch) as version from catalogue_version where id = 1`))?.version ?? 0;

describe('Workers entry: the Cache API in front of the app', () => {
  it('a second anonymous view of a page is answered from the cache', async () => {
    const first = await call(`${ORIGIN}/${slug}?v=hit`);
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get('x-cache')).toBe('miss');
    const second = await call(`${ORIGIN}/${slug}?v=hit`);
    expect(second.response.headers.get('x-cache')).toBe('hit');
    expect(second.body).toBe(first.body);
    expect(second.response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('public API reads too', async () => {
    await call(`${ORIGIN}/api/product/product-phimle?page=1`);
    const again = await call(`${ORIGIN}/api/product/product-phimle?page=1`);
    expect(again.response.headers.get('x-cache')).toBe('hit');
    expect(again.response.headers.get('cache-control')).toMatch(/public.*s-maxage=10/);
  });

  it('a catalogue write raises the version: the old entries are unreachable within PUBLIC_CACHE_SECONDS', async () => {
    // One second here: the isolate reads the version again after a second (10 s in wrangler.toml).
    const quick = { ...env, PUBLIC_CACHE_SECONDS: '1' } as Cloudflare.Env;
    const path = `${ORIGIN}/phim-le?v=write`;
    await call(path, undefined, quick);
    expect((await call(path, undefined, quick)).response.headers.get('x-cache')).toBe('hit');
    const before = await version();
    await upsertFilm(db, { title: 'Mùa Len Trâu (edge)', categoryId: 25 });
    expect(await version()).toBeGreaterThan(before);
    let after = await call(path, undefined, quick);
    for (let i = 0; i < 30 && !after.body.includes('Mùa Len Trâu (edge)'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await call(path, undefined, quick);
    }
    expect(after.body).toContain('Mùa Len Trâu (edge)');
    expect(after.response.headers.get('x-cache')).toBe('miss');
  });

  it("an entry another isolate put in the Cache API is answered from it, then from this isolate's memory", async () => {
    // An env of its own: a host (and an isolate memory) of its own, which reads the catalogue version afresh.
    const own = { ...env, PUBLIC_CACHE_SECONDS: '30' } as Cloudflare.Env;
    const path = '/phim-le?v=layers';
    const key = `${env.PUBLIC_URL}${path}&__catalogue=${await listsVersion()}`;
    const stored = new Response('<p>Trang của isolate khác</p>', {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'public, max-age=90',
        'x-stored-at': String(Date.now()),
        'x-cache-control': 'public, max-age=0, s-maxage=30, stale-while-revalidate=60',
      },
    });
    await caches.default.put(key, stored);
    const first = await call(`${ORIGIN}${path}`, undefined, own);
    expect(first.response.headers.get('x-cache')).toBe('hit');
    expect(first.body).toBe('<p>Trang của isolate khác</p>');
    // Gone from the Cache API: this isolate still has it.
    await caches.default.delete(key);
    const second = await call(`${ORIGIN}${path}`, undefined, own);
    expect(second.response.headers.get('x-cache')).toBe('hit');
    expect(second.body).toBe('<p>Trang của isolate khác</p>');
  });

  it("a new episode of one film: its pages are rendered again, another film's stay hits", async () => {
    const quick = { ...env, PUBLIC_CACHE_SECONDS: '1' } as Cloudflare.Env;
    const other = await upsertFilm(db, { title: 'Cánh Đồng Hoang (edge)', categoryId: 25 });
    const series = await upsertFilm(db, { title: 'Người Phán Xử (edge)', categoryId: 24, episodes: [episode(1)] });
    const mine = [`${ORIGIN}/${series.slug}?v=release`, `${ORIGIN}/api/product/${series.slug}?v=release`];
    const theirs = [`${ORIGIN}/${other.slug}?v=release`, `${ORIGIN}/api/product/${other.slug}?v=release`];
    // Once the isolate has read the versions after those writes (a second), every page is stored.
    await new Promise((r) => setTimeout(r, 1_100));
    for (const url of [...mine, ...theirs]) expect((await call(url, undefined, quick)).response.headers.get('x-cache')).toBe('miss');
    await upsertFilm(db, { id: series.id, title: 'Người Phán Xử (edge)', categoryId: 24, episodes: [episode(1), episode(2)] });
    // Within PUBLIC_CACHE_SECONDS the isolate sees the release: the film's detail and page are rendered again.
    let detail = await call(mine[1]!, undefined, quick);
    for (let i = 0; i < 30 && !detail.body.includes('https://cdn.example.com/edge/2/index.m3u8'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      detail = await call(mine[1]!, undefined, quick);
    }
    expect(detail.body).toContain('https://cdn.example.com/edge/2/index.m3u8');
    expect(detail.response.headers.get('x-cache')).toBe('miss');
    expect((await call(mine[0]!, undefined, quick)).response.headers.get('x-cache')).toBe('miss');
    // The other film's entries are still answered (fresh or, a second on, stale while one refresh runs).
    for (const url of theirs) expect(['hit', 'stale']).toContain((await call(url, undefined, quick)).response.headers.get('x-cache'));
  });

  it('concurrent first views of one page in one isolate: one render, the others say hit', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, () => call(`${ORIGIN}/${slug}?v=crowd`)));
    const caches = answers.map((a) => a.response.headers.get('x-cache'));
    expect(caches.filter((c) => c === 'miss')).toHaveLength(1);
    expect(caches.filter((c) => c === 'hit')).toHaveLength(19);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
  });

  it('never answers nor stores a signed-in request or a personal answer', async () => {
    const email = `edge-${Date.now()}@example.com`;
    await db.insert(users).values({ email, username: 'Người xem', passwordHash: await hashPassword('mat-khau-edge-dai'), roles: 'user' });
    const login = await call(`${ORIGIN}/api/dang-nhap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'mat-khau-edge-dai' }),
    });
    const { token } = JSON.parse(login.body) as { token: string };
    const path = `${ORIGIN}/api/product/${slug}`;
    const anonymous = await call(path);
    expect(anonymous.response.headers.get('cache-control')).toMatch(/^public/);
    for (let i = 0; i < 2; i++) {
      const mine = await call(path, { headers: { authorization: `Bearer ${token}` } });
      expect(mine.response.status).toBe(200);
      expect(mine.response.headers.get('cache-control')).toBe('private, no-store');
      // Not from the Cache API (an entry answered from it says its Age).
      expect(mine.response.headers.get('age')).toBeNull();
    }
    // The anonymous entry is still the anonymous answer.
    const again = await call(path);
    expect(again.response.headers.get('x-cache')).toBe('hit');
    expect(again.response.headers.get('age')).not.toBeNull();
    expect(again.body).toBe(anonymous.body);
  });
});

describe('Workers entry: status codes and absolute URLs', () => {
  it('a missing hashed asset is a 404 from Static Assets, never the shell cached as immutable', async () => {
    const res = await exports.default.fetch(`${ORIGIN}/assets/missing.js`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('data-fixture="spa-shell"');
    expect(res.headers.get('cache-control') ?? '').not.toContain('immutable');
  });

  it('an unknown film or genre is a 404 with the not-found page', async () => {
    for (const path of ['/khong-co-phim-nay-edge', '/the-loai/khong-co']) {
      const res = await exports.default.fetch(`${ORIGIN}${path}`, { headers: { accept: 'text/html', 'sec-fetch-mode': 'navigate' } });
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).toContain('Page Not Found');
    }
  });

  it('canonical and og:url come from PUBLIC_URL, whatever the Host header says', async () => {
    const { body } = await call(`https://evil.example/${slug}`, { headers: { host: 'evil.example' } });
    expect(body).not.toContain('evil.example');
    expect(body).toContain(`<link rel="canonical" href="${env.PUBLIC_URL}/${slug}">`);
    expect(body).toContain(`<meta property="og:url" content="${env.PUBLIC_URL}/${slug}" />`);
    expect(body).toContain('<meta property="og:type" content="video.movie" />');
    const ld = [...body.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map((m) => JSON.parse(m[1]!));
    expect(ld.map((d) => d['@type'])).toEqual(['Movie', 'BreadcrumbList']);
  });

  it('robots.txt names the sitemap index, which lists the films', async () => {
    const robots = await call(`https://evil.example/robots.txt`);
    expect(robots.body).toContain(`Sitemap: ${env.PUBLIC_URL}/sitemap.xml`);
    const index = await call(`${ORIGIN}/sitemap.xml`);
    expect(index.response.status).toBe(200);
    expect(index.body).toContain(`<loc>${env.PUBLIC_URL}/sitemaps/films-1.xml</loc>`);
    const films = await call(`${ORIGIN}/sitemaps/films-1.xml`);
    expect(films.body).toContain(`<loc>${env.PUBLIC_URL}/${slug}</loc>`);
  });
});
