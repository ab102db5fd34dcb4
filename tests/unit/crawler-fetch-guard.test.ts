import { describe, expect, it } from 'vitest';
import { allowedOriginSet, CrawlFetchError, guardedFetchJson } from '../../worker/services/crawler/fetch-guard';
import { createSourceClient, forEachLimited } from '../../worker/services/crawler/source-client';

const allowed = allowedOriginSet(['https://ophim1.com', 'http://127.0.0.1:8788/', 'not a url', 'ftp://x.example']);

function fakeFetch(routes: Record<string, () => Response>, seen: string[] = []): typeof fetch {
  return async (input) => {
    const url = String(input);
    seen.push(url);
    const route = routes[url];
    if (!route) throw new TypeError('fetch failed');
    return route();
  };
}

const jsonResponse = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
  });

const options = (f: typeof globalThis.fetch) => ({ fetch: f, allowedOrigins: allowed, maxBytes: 1000, timeoutMs: 1000 });

async function failure(promise: Promise<unknown>): Promise<CrawlFetchError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CrawlFetchError);
  return error as CrawlFetchError;
}

describe('guardedFetchJson', () => {
  it('allowlists origins only (ports count, other schemes never)', () => {
    expect([...allowed]).toEqual(['https://ophim1.com', 'http://127.0.0.1:8788']);
  });

  it('refuses other origins, other ports and credentials before sending anything', async () => {
    const seen: string[] = [];
    const f = fakeFetch({}, seen);
    for (const url of [
      'https://evil.example/x',
      'http://127.0.0.1:8789/x',
      'http://ophim1.com/x',
      'https://user:pw@ophim1.com/x',
      'file:///etc/passwd',
    ]) {
      expect((await failure(guardedFetchJson(url, options(f)))).kind).toBe('disallowed_origin');
    }
    expect(seen).toEqual([]);
  });

  it('re-checks every redirect hop and stops after 3', async () => {
    const seen: string[] = [];
    const redirect = (to: string) => () => new Response(null, { status: 302, headers: { location: to } });
    const f = fakeFetch(
      {
        'https://ophim1.com/a': redirect('/b'),
        'https://ophim1.com/b': redirect('http://127.0.0.1:8788/c'),
        'http://127.0.0.1:8788/c': () => jsonResponse({ ok: true }),
        'https://ophim1.com/out': redirect('http://169.254.169.254/latest/meta-data'),
        'https://ophim1.com/l1': redirect('/l2'),
        'https://ophim1.com/l2': redirect('/l3'),
        'https://ophim1.com/l3': redirect('/l4'),
        'https://ophim1.com/l4': redirect('/l5'),
        'https://ophim1.com/nowhere': () => new Response(null, { status: 301 }),
      },
      seen,
    );
    expect(await guardedFetchJson('https://ophim1.com/a', options(f))).toEqual({ ok: true });
    expect((await failure(guardedFetchJson('https://ophim1.com/out', options(f)))).kind).toBe('disallowed_origin');
    expect(seen).not.toContain('http://169.254.169.254/latest/meta-data');
    expect((await failure(guardedFetchJson('https://ophim1.com/l1', options(f)))).kind).toBe('too_many_redirects');
    expect(seen).not.toContain('https://ophim1.com/l5');
    expect((await failure(guardedFetchJson('https://ophim1.com/nowhere', options(f)))).kind).toBe('http');
  });

  it('caps bodies by header and while streaming, and wants JSON', async () => {
    const big = 'x'.repeat(5000);
    const f = fakeFetch({
      'https://ophim1.com/declared': () => new Response(big, { headers: { 'content-type': 'application/json', 'content-length': '5000' } }),
      'https://ophim1.com/streamed': () =>
        new Response(
          new ReadableStream({
            pull(controller) {
              controller.enqueue(new TextEncoder().encode(big)); // endless: only the cap ends it
            },
          }),
          { headers: { 'content-type': 'application/json' } },
        ),
      'https://ophim1.com/html': () => new Response('<html></html>', { headers: { 'content-type': 'text/html' } }),
      'https://ophim1.com/broken': () => new Response('{"a":', { headers: { 'content-type': 'application/json' } }),
    });
    expect((await failure(guardedFetchJson('https://ophim1.com/declared', options(f)))).kind).toBe('too_large');
    expect((await failure(guardedFetchJson('https://ophim1.com/streamed', options(f)))).kind).toBe('too_large');
    expect((await failure(guardedFetchJson('https://ophim1.com/html', options(f)))).kind).toBe('not_json');
    expect((await failure(guardedFetchJson('https://ophim1.com/broken', options(f)))).kind).toBe('not_json');
  });

  it('says which failures are worth a retry', async () => {
    const f = fakeFetch({
      'https://ophim1.com/503': () => jsonResponse({}, { status: 503 }),
      'https://ophim1.com/404': () => jsonResponse({}, { status: 404 }),
    });
    expect((await failure(guardedFetchJson('https://ophim1.com/503', options(f)))).retryable).toBe(true);
    expect((await failure(guardedFetchJson('https://ophim1.com/404', options(f)))).retryable).toBe(false);
    expect((await failure(guardedFetchJson('https://ophim1.com/offline', options(f)))).kind).toBe('network');
  });
});

describe('source client', () => {
  it('retries retryable failures at most twice, never the others', async () => {
    const seen: string[] = [];
    const f = fakeFetch(
      {
        'https://ophim1.com/503': () => jsonResponse({}, { status: 503 }),
        'https://ophim1.com/400': () => jsonResponse({}, { status: 400 }),
      },
      seen,
    );
    const client = createSourceClient({ ...options(f), delayMs: 0, retries: 2, retryBaseMs: 1 });
    await expect(client.getJson('https://ophim1.com/503')).rejects.toThrow(/503/);
    await expect(client.getJson('https://ophim1.com/400')).rejects.toThrow(/400/);
    expect(seen.filter((u) => u.endsWith('/503'))).toHaveLength(3);
    expect(seen.filter((u) => u.endsWith('/400'))).toHaveLength(1);
  });

  it('spaces request starts by the politeness delay, even from concurrent workers', async () => {
    const starts: number[] = [];
    const f: typeof fetch = async () => {
      starts.push(Date.now());
      return jsonResponse({});
    };
    const client = createSourceClient({ ...options(f), delayMs: 40, retries: 0, retryBaseMs: 1 });
    await forEachLimited([1, 2, 3, 4], 4, async () => {
      await client.getJson('https://ophim1.com/x');
    });
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(35);
  });
});
