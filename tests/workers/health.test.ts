// worker/index.ts inside workerd: the real default export, the real wrangler.toml bindings, Turso's
// protocol (Hrana over HTTP) to a migrated database. Nothing here runs in Node.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import worker from '../../worker/index';

const ORIGIN = 'https://phimviet.example.workers.dev';

afterEach(() => {
  vi.restoreAllMocks();
});

async function call(path: string, init?: RequestInit, bindings: Cloudflare.Env = env) {
  const ctx = createExecutionContext();
  const request = new Request(`${ORIGIN}${path}`, init) as Request<unknown, IncomingRequestCfProperties>;
  const response = await worker.fetch(request, bindings, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe('Workers entry: /api', () => {
  it('answers GET /api/health with ok after a real query to the libSQL server', async () => {
    const res = await call('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, db: 'ok' });
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('is reached through the deployed routing too (run_worker_first for /api/*)', async () => {
    const res = await exports.default.fetch(`${ORIGIN}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, db: 'ok' });
  });

  it('reads the migrated catalogue taxonomy through the API', async () => {
    const res = await call('/api/category');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { id: number; namecategory: string }[] };
    expect(body.data.map((c) => c.id)).toEqual([24, 25, 26, 27]);
  });

  it('answers an unknown API path with the JSON 404, never the SPA shell', async () => {
    for (const res of [await call('/api/khong-co'), await exports.default.fetch(`${ORIGIN}/api/khong-co`)]) {
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
  });

  it('fails API requests with a JSON 500 (no details) when the configuration is invalid', async () => {
    // Production refuses the built-in development secrets: a deploy that forgot `wrangler secret put`.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const broken = { ...env, JWT_SECRET: undefined, PARTY_SECRET: undefined } as Cloudflare.Env;
    const res = await call('/api/health', undefined, broken);
    expect(res.status).toBe(500);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('misconfigured');
    expect(body.error.message).not.toMatch(/JWT_SECRET|PARTY_SECRET/);
    // ...while the operator's log names the problem.
    expect(String(logged.mock.calls[0])).toMatch(/JWT_SECRET/);
    // The same env object keeps failing; the good one keeps working (hosts are cached per env object).
    expect((await call('/api/health', undefined, broken)).status).toBe(500);
    expect((await call('/api/health')).status).toBe(200);
  });

  it('refuses a file: database URL, which only the Node host can open', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const res = await call('/api/health', undefined, { ...env, DATABASE_URL: 'file:data/phimviet.db' });
    expect(res.status).toBe(500);
    expect(String(logged.mock.calls[0])).toMatch(/DATABASE_URL/);
  });
});

describe('Workers entry: static assets', () => {
  it('serves robots.txt, naming the sitemap on PUBLIC_URL', async () => {
    const res = await call('/robots.txt');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`User-agent: *`);
  });

  it('serves the SPA shell for client-side routes, with the security headers', async () => {
    const res = await call('/dang-nhap', { headers: { accept: 'text/html', 'sec-fetch-mode': 'navigate' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('data-fixture="spa-shell"');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it('routes non-API paths to the assets when the platform routes them (wrangler.toml [assets])', async () => {
    const res = await exports.default.fetch(`${ORIGIN}/dang-ky`, {
      headers: { accept: 'text/html', 'sec-fetch-mode': 'navigate' },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('data-fixture="spa-shell"');
  });

  it('still serves the site while the API is misconfigured', async () => {
    const res = await call('/', undefined, { ...env, JWT_SECRET: undefined } as Cloudflare.Env);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('data-fixture="spa-shell"');
  });
});
