import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../worker/config';
import { openMigratedDatabase } from '../../worker/db/node-client';
import { withAdmission } from '../../worker/lib/admission';
import { carriesClientAddress, setClientAddressOnRaw } from '../../worker/lib/client-ip';
import { TtlCache } from '../../worker/lib/ttl-cache';
import { type RunningServer, startNodeServer } from '../../worker/node';
import type { ErrorBody } from '../../worker/schemas/errors';
import { createTestApp } from '../helpers/app';
import { seedCatalogue } from '../helpers/catalogue-fixture';

/** A stand-in for node:http's pair: records what the admission wrote, or that it passed the request on. */
function fakeExchange(name: string) {
  const written: { status?: number; headers?: Record<string, unknown>; body?: string } = {};
  const req = { url: name, socket: { destroyed: false } } as unknown as IncomingMessage;
  const res = {
    headersSent: false,
    destroyed: false,
    writeHead(status: number, headers: Record<string, unknown>) {
      written.status = status;
      written.headers = headers;
      return this;
    },
    end(body: string) {
      written.body = body;
    },
  } as unknown as ServerResponse;
  return { req, res, written };
}

/** One turn of the event loop: the admission starts requests from setImmediate callbacks. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('Node host admission (worker/lib/admission.ts)', () => {
  it('starts requests one per loop turn, in arrival order', async () => {
    const started: string[] = [];
    const admit = withAdmission((req) => started.push(req.url!), { maxQueue: 10, maxWaitMs: 60_000, retryAfterSeconds: 1 });
    for (const name of ['a', 'b', 'c']) {
      const { req, res } = fakeExchange(name);
      admit(req, res);
    }
    expect(started).toEqual([]);
    await turn();
    expect(started).toEqual(['a']);
    await turn();
    await turn();
    expect(started).toEqual(['a', 'b', 'c']);
    expect(admit.waiting()).toBe(0);
  });

  it('beyond maxQueue waiting requests, answers 503 at once in the JSON error shape with Retry-After', async () => {
    const started: string[] = [];
    const admit = withAdmission((req) => started.push(req.url!), { maxQueue: 2, maxWaitMs: 60_000, retryAfterSeconds: 3 });
    const exchanges = ['a', 'b', 'c'].map(fakeExchange);
    for (const { req, res } of exchanges) admit(req, res);
    const shed = exchanges[2]!.written;
    expect(shed.status).toBe(503);
    expect(shed.headers).toMatchObject({ 'Retry-After': '3', 'Content-Type': 'application/json; charset=UTF-8' });
    const body = JSON.parse(shed.body!) as ErrorBody;
    expect(body.error.code).toBe('overloaded');
    expect(body.error.message).toMatch(/quá tải/);
    await turn();
    await turn();
    expect(started).toEqual(['a', 'b']);
  });

  it('answers 503 instead of running a request that waited past maxWaitMs, and skips one whose client left', async () => {
    let clock = 0;
    const started: string[] = [];
    const admit = withAdmission((req) => started.push(req.url!), {
      maxQueue: 10,
      maxWaitMs: 1_000,
      retryAfterSeconds: 1,
      now: () => clock,
    });
    const [old, gone, fresh] = ['old', 'gone', 'fresh'].map(fakeExchange);
    admit(old!.req, old!.res);
    admit(gone!.req, gone!.res);
    (gone!.res as { destroyed: boolean }).destroyed = true;
    clock = 5_000;
    admit(fresh!.req, fresh!.res);
    await turn();
    expect(old!.written.status).toBe(503);
    expect(gone!.written.status).toBeUndefined();
    // 'gone' was never started; 'old' was answered 503 by the admission itself.
    await turn();
    expect(started).toEqual(['fresh']);
  });
});

describe('Node host request path', () => {
  let server: RunningServer;
  beforeAll(async () => {
    const database = await openMigratedDatabase(':memory:');
    // No room at all: every request is answered by the admission.
    server = await startNodeServer({
      port: 0,
      config: loadConfig({ APP_ENV: 'test' }),
      database,
      admission: { maxQueue: 0, maxWaitMs: 1_000, retryAfterSeconds: 5 },
    });
  });
  afterAll(() => server.close());

  it('an overloaded server answers 503 + Retry-After in the JSON error shape, over real HTTP', async () => {
    const res = await fetch(`${server.url}/api/product/product-home`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(((await res.json()) as ErrorBody).error.code).toBe('overloaded');
  });

  it('the client address headers of the raw request become the socket address alone (no Request copy needed)', () => {
    const incoming = {
      rawHeaders: ['Host', 'x', 'CF-Connecting-IP', '203.0.113.1', 'X-Forwarded-For', '198.51.100.1', 'Accept', '*/*'],
      socket: { remoteAddress: '192.0.2.9' },
    };
    setClientAddressOnRaw(incoming, false);
    expect(incoming.rawHeaders).toEqual(['Host', 'x', 'Accept', '*/*', 'cf-connecting-ip', '192.0.2.9']);
    const proxied = {
      rawHeaders: ['X-Forwarded-For', '6.6.6.6', 'x-forwarded-for', '198.51.100.2'],
      socket: { remoteAddress: '127.0.0.1' },
    };
    setClientAddressOnRaw(proxied, true);
    expect(proxied.rawHeaders).toEqual(['cf-connecting-ip', '198.51.100.2']);
  });

  it('over real HTTP the Request the app gets already carries the socket address alone: no copy per request', async () => {
    // Node parses `headers` before the listener runs, and @hono/node-server reads that object first: a rewrite of
    // rawHeaders alone left every API request copied (withClientAddress, ~0.6 ms each under load).
    const listener = getRequestListener((request) =>
      Response.json({ carries: carriesClientAddress(request.headers, '127.0.0.1'), address: request.headers.get('cf-connecting-ip') }),
    );
    const http = createServer((incoming, outgoing) => {
      setClientAddressOnRaw(incoming, false);
      return listener(incoming, outgoing);
    });
    await new Promise<void>((listening) => http.listen(0, '127.0.0.1', listening));
    try {
      const { port } = http.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { 'X-Forwarded-For': '6.6.6.6', 'CF-Connecting-IP': '6.6.6.7' } });
      expect(await res.json()).toEqual({ carries: true, address: '127.0.0.1' });
    } finally {
      http.close();
    }
  });
});

describe('read cache bound', () => {
  it('evicts the least recently used answers beyond its byte bound', () => {
    const cache = new TtlCache<string>(60_000, 100, () => 0, { weigh: (v) => v.length, maxWeight: 10 });
    cache.set('a', '1234');
    cache.set('b', '1234');
    expect(cache.get('a')).toBe('1234'); // a is now the most recent
    cache.set('c', '1234');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('1234');
    expect(cache.size).toEqual({ entries: 2, weight: 8 });
    cache.set('huge', '12345678901'); // larger than the whole bound: not kept, nothing evicted for it
    expect(cache.size).toEqual({ entries: 2, weight: 8 });
    cache.set('a', '12'); // replacing an entry replaces its weight
    expect(cache.size).toEqual({ entries: 2, weight: 6 });
  });
});

describe('prepared statements answer as the built ones did', () => {
  it('film detail by slug and by id, and an episode, for two different films in a row', async () => {
    const t = await createTestApp({ config: { PUBLIC_CACHE_SECONDS: 0 } });
    await seedCatalogue(t.deps.db);
    const list = (await (await t.request('/api/product?pageSize=2')).json()) as { data: { id: number; slug: string }[] };
    expect(list.data.length).toBe(2);
    for (const film of list.data) {
      const bySlug = (await (await t.request(`/api/product/${film.slug}`)).json()) as { datafilm: { id: number; slug: string } };
      expect(bySlug.datafilm).toMatchObject({ id: film.id, slug: film.slug });
      const byId = (await (await t.request(`/api/product/getdetail_xemphim/${film.id}`)).json()) as { data: { id: number } };
      expect(byId.data.id).toBe(film.id);
    }
    expect((await t.request('/api/product/khong-co-phim-nay')).status).toBe(404);
    expect((await t.request('/api/product/khong-co-phim-nay/tap-1')).status).toBe(404);
  });
});
