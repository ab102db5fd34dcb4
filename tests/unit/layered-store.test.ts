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
