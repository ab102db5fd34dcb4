// lib/edge-cache.ts: layeredStore (on Workers the isolate's memory in front of the Cache API) and how long withEdgeCache answers an entry.
import { describe, expect, it } from 'vitest';
import {
  layeredStore,
  memoryStore,
  publicCacheControl,
  type ResponseStore,
  STALE_WHILE_REVALIDATE_SECONDS,
  withEdgeCache,
} from '../../worker/lib/edge-cache';

/** A store that counts what it is asked, over a memory store. */
function counted(): ResponseStore & { matches: number; puts: number; keys: () => Promise<string[]> } {
  const inner = memoryStore(60, () => 0);
  const seen = new Set<string>();
  const store = {
    matches: 0,
    puts: 0,
    match: async (key: string) => {
      store.matches++;
      return inner.match(key);
    },
    put: async (key: string, response: Response) => {
      store.puts++;
      seen.add(key);
      await inner.put(key, response);
    },
    keys: async () => [...seen],
  };
  return store;
}

const page = (text: string) => new Response(text, { status: 200, headers: { 'content-type': 'text/html', 'x-stored-at': '1000' } });

describe('layeredStore', () => {
  it('puts an entry in both layers, then answers it from the near one without asking the far one', async () => {
    const near = counted();
    const far = counted();
    const store = layeredStore(near, far);
    await store.put('https://site/a?__catalogue=3', page('<p>Đất Phương Nam</p>'));
    expect([near.puts, far.puts]).toEqual([1, 1]);
    const hit = await store.match('https://site/a?__catalogue=3');
    expect(await hit?.text()).toBe('<p>Đất Phương Nam</p>');
    expect(hit?.headers.get('x-stored-at')).toBe('1000');
    expect(far.matches).toBe(0);
  });

  it('answers an entry only the far layer holds (another isolate put it), and keeps it near for next time', async () => {
    const near = counted();
    const far = counted();
    await far.put('https://site/b?__catalogue=3', page('<p>Mùa Len Trâu</p>'));
    const store = layeredStore(near, far);
    const first = await store.match('https://site/b?__catalogue=3');
    expect(first?.status).toBe(200);
    expect(first?.headers.get('content-type')).toBe('text/html');
    expect(await first?.text()).toBe('<p>Mùa Len Trâu</p>');
    expect(far.matches).toBe(1);
    const second = await store.match('https://site/b?__catalogue=3');
    expect(await second?.text()).toBe('<p>Mùa Len Trâu</p>');
    expect(far.matches).toBe(1);
  });

  it('a key neither layer holds is a miss, and nothing is kept for it', async () => {
    const near = counted();
    const far = counted();
    expect(await layeredStore(near, far).match('https://site/c?__catalogue=4')).toBeUndefined();
    expect([near.puts, await near.keys()]).toEqual([0, []]);
  });
});

describe('withEdgeCache: how long an entry is answered', () => {
  const FRESH = 10;
  const now = 1_000_000;
  /** withEdgeCache over a store holding one entry stored `age` seconds ago; what it answers and whether it produced. */
  async function answerAt(age: number) {
    let produced = 0;
    const store: ResponseStore = {
      match: async () =>
        new Response('<p>cũ</p>', {
          headers: { 'x-stored-at': String(now - age * 1000), 'x-cache-control': publicCacheControl(FRESH) },
        }),
      put: async () => undefined,
    };
    const response = await withEdgeCache(
      new Request('https://site/phim-le'),
      { store, publicUrl: 'https://site', freshSeconds: FRESH, version: async () => 1, waitUntil: () => undefined, now: () => now },
      async () => {
        produced++;
        return new Response('<p>mới</p>', { headers: { 'cache-control': publicCacheControl(FRESH) } });
      },
    );
    return { cache: response.headers.get('x-cache'), body: await response.text(), produced };
  }

  it('fresh, then stale (answered, refreshed behind it) until fresh + stale-while-revalidate seconds', async () => {
    expect(await answerAt(FRESH - 1)).toEqual({ cache: 'hit', body: '<p>cũ</p>', produced: 0 });
    expect((await answerAt(FRESH + STALE_WHILE_REVALIDATE_SECONDS - 1)).cache).toBe('stale');
  });

  it('past that, a miss, whichever store still held the entry', async () => {
    expect(await answerAt(FRESH + STALE_WHILE_REVALIDATE_SECONDS)).toEqual({ cache: 'miss', body: '<p>mới</p>', produced: 1 });
  });
});

describe('withEdgeCache: one render per key', () => {
  const FRESH = 10;
  /**
   * An isolate's store as on Workers (memory in front of a Cache API that answers after a delay), a clock, and a
   * renderer that counts its calls and takes a while.
   */
  function isolate() {
    let clock = 1_000_000;
    const far = counted();
    const slow: ResponseStore = {
      match: async (key) => {
        await new Promise((r) => setTimeout(r, 5));
        return far.match(key);
      },
      put: async (key, response) => {
        await new Promise((r) => setTimeout(r, 5));
        await far.put(key, response);
      },
    };
    const store = layeredStore(
      memoryStore(FRESH, () => clock),
      slow,
    );
    const background: Promise<unknown>[] = [];
    const state = { renders: 0 };
    const options = {
      store,
      publicUrl: 'https://site',
      freshSeconds: FRESH,
      version: async () => 7,
      waitUntil: (task: Promise<unknown>) => void background.push(task),
      now: () => clock,
    };
    const get = (path: string) =>
      withEdgeCache(new Request(`https://site${path}`), options, async () => {
        state.renders++;
        const n = state.renders;
        await new Promise((r) => setTimeout(r, 20));
        return new Response(`<p>trang ${path} lần ${n}</p>`, { headers: { 'cache-control': publicCacheControl(FRESH) } });
      });
    // Everything run after the answers, including what that work itself scheduled.
    const settle = async () => {
      for (let seen = -1; seen !== background.length; ) {
        seen = background.length;
        await Promise.all(background);
      }
    };
    return { get, state, far, advance: (ms: number) => (clock += ms), settle };
  }

  it('50 concurrent misses of one page make one render; the others wait for it and say hit', async () => {
    const site = isolate();
    const answers = await Promise.all(Array.from({ length: 50 }, () => site.get('/xem-phim/mat-biec/2')));
    expect(site.state.renders).toBe(1);
    const caches = answers.map((r) => r.headers.get('x-cache'));
    expect(caches.filter((c) => c === 'miss')).toHaveLength(1);
    expect(caches.filter((c) => c === 'hit')).toHaveLength(49);
    const bodies = await Promise.all(answers.map((r) => r.text()));
    expect(new Set(bodies)).toEqual(new Set(['<p>trang /xem-phim/mat-biec/2 lần 1</p>']));
    expect(answers.every((r) => r.headers.get('cache-control')?.startsWith('public'))).toBe(true);
    await site.settle();
    // Stored once, in both layers; another page is its own render.
    expect(site.far.puts).toBe(1);
    await Promise.all([site.get('/mat-biec'), site.get('/mat-biec')]);
    expect(site.state.renders).toBe(2);
  });

  it('K stale hits of one page make one refresh, and the page is fresh again after it', async () => {
    const site = isolate();
    await site.get('/phim-bo');
    await site.settle();
    site.advance((FRESH + 1) * 1000);
    const stale = await Promise.all(Array.from({ length: 30 }, () => site.get('/phim-bo')));
    expect(stale.every((r) => r.headers.get('x-cache') === 'stale')).toBe(true);
    expect(await stale[0]!.text()).toBe('<p>trang /phim-bo lần 1</p>');
    await site.settle();
    expect(site.state.renders).toBe(2);
    const after = await site.get('/phim-bo');
    expect(after.headers.get('x-cache')).toBe('hit');
    expect(await after.text()).toBe('<p>trang /phim-bo lần 2</p>');
  });

  it('a render that fails or is not storable is not shared: each waiting request renders its own', async () => {
    let calls = 0;
    const store = memoryStore(FRESH, () => 0);
    const options = {
      store,
      publicUrl: 'https://site',
      freshSeconds: FRESH,
      version: async () => 1,
      waitUntil: () => undefined,
      now: () => 0,
    };
    const answers = await Promise.all(
      Array.from({ length: 3 }, () =>
        withEdgeCache(new Request('https://site/tai-khoan'), options, async () => {
          calls++;
          await new Promise((r) => setTimeout(r, 10));
          return new Response('riêng', { headers: { 'cache-control': 'private, no-store' } });
        }),
      ),
    );
    expect(calls).toBe(3);
    expect(answers.map((r) => r.headers.get('x-cache'))).toEqual([null, null, null]);
  });
});
