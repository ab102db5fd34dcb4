// The service worker's push handlers (web/public/sw-push.js, imported by the generated worker) run in a
// stand-in of the worker's global scope: a push shows "{Tên phim}: đã có tập {N}", a click focuses a
// window already on the episode, else takes an open window of the app there, else opens one.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';

const SOURCE = readFileSync(resolve(import.meta.dirname, '../../web/public/sw-push.js'), 'utf8');
const ORIGIN = 'https://phimviet.example';

interface FakeClient {
  url: string;
  focused: boolean;
  navigatedTo?: string;
  focus: () => Promise<FakeClient>;
  navigate: (url: string) => Promise<FakeClient>;
}

function worker(windows: string[] = []) {
  const handlers: Record<string, (event: unknown) => void> = {};
  const shown: { title: string; options: Record<string, unknown> }[] = [];
  const opened: string[] = [];
  const clients: FakeClient[] = windows.map((url) => {
    const c: FakeClient = {
      url,
      focused: false,
      focus: async () => {
        c.focused = true;
        return c;
      },
      navigate: async (to) => {
        c.navigatedTo = to;
        return c;
      },
    };
    return c;
  });
  const self = {
    location: new URL(`${ORIGIN}/sw.js`),
    addEventListener: (type: string, fn: (event: unknown) => void) => {
      handlers[type] = fn;
    },
    registration: {
      showNotification: async (title: string, options: Record<string, unknown>) => void shown.push({ title, options }),
    },
    clients: {
      matchAll: async () => clients,
      openWindow: async (url: string) => void opened.push(url),
    },
  };
  runInNewContext(SOURCE, { self, URL });
  const dispatch = async (type: string, event: Record<string, unknown>) => {
    let work: Promise<unknown> = Promise.resolve();
    handlers[type]?.({ ...event, waitUntil: (p: Promise<unknown>) => (work = p) });
    await work;
  };
  return { dispatch, shown, opened, clients };
}

const payload = {
  type: 'new-episode',
  title: 'Mắt Biếc: đã có tập 12',
  body: 'Bấm để xem tập 12 ngay',
  url: '/xem-phim/mat-biec/tap-12',
  slug: 'mat-biec',
  episode: 12,
};

describe('service worker push handlers', () => {
  it('shows the new-episode notification with the episode to open', async () => {
    const sw = worker();
    await sw.dispatch('push', { data: { json: () => payload, text: () => JSON.stringify(payload) } });
    expect(sw.shown).toHaveLength(1);
    expect(sw.shown[0]?.title).toBe('Mắt Biếc: đã có tập 12');
    expect(sw.shown[0]?.options).toMatchObject({
      body: 'Bấm để xem tập 12 ngay',
      tag: 'new-episode-mat-biec',
      data: { url: '/xem-phim/mat-biec/tap-12' },
    });
  });

  it('a click opens the episode: a window already there is focused, another of ours is taken there, else a new one', async () => {
    const click = (sw: ReturnType<typeof worker>) => {
      let closed = false;
      return sw
        .dispatch('notificationclick', { notification: { data: { url: payload.url }, close: () => (closed = true) } })
        .then(() => closed);
    };
    const there = worker([`${ORIGIN}/`, `${ORIGIN}/xem-phim/mat-biec/tap-12`]);
    expect(await click(there)).toBe(true);
    expect(there.clients[1]?.focused).toBe(true);
    expect(there.clients[0]?.navigatedTo).toBeUndefined();

    const elsewhere = worker([`${ORIGIN}/phim-bo`]);
    await click(elsewhere);
    expect(elsewhere.clients[0]?.navigatedTo).toBe(`${ORIGIN}/xem-phim/mat-biec/tap-12`);

    const none = worker();
    await click(none);
    expect(none.opened).toEqual([`${ORIGIN}/xem-phim/mat-biec/tap-12`]);
  });

  it('never opens another site: a url that is not a path of ours opens the home page', async () => {
    const sw = worker();
    for (const url of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      await sw.dispatch('push', { data: { json: () => ({ ...payload, url }), text: () => '' } });
      expect(sw.shown.at(-1)?.options, url).toMatchObject({ data: { url: '/' } });
    }
  });
});
