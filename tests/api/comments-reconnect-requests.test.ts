/// <reference types="vite/client" />
// The API requests a page makes per reconnect of its live comment room (issue 38 §3: "≤ 2 API requests per
// reconnect"): the page's own room code (joinLiveRoom, what useLiveComments runs), its API client, its session and the
// app's query client with the film detail's query, without a browser: the browser globals it reads are stood in
// (window as an event target, the partykit-host meta, session storage, `ws` as WebSocket), the API is the real app
// in process (setApiFetch, as the host's renderer uses it) and the room is a real `partykit dev`. Every API request
// the page makes is counted. A member asks for its member token then for what it missed (2), a visitor only for
// what it missed (1): on a room restart ({type:'reconnect'}), and when the network comes back (the room's socket
// and the query client both hear 'online').
import type { QueryClient } from '@tanstack/react-query';
import { QueryObserver } from '@tanstack/react-query';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type PartyKitDev, startPartyKitDev } from '../../party/dev-server';
import type { FilmDetailResponse } from '../../worker/schemas/catalogue';
import { PARTY_SECRET_HEADER } from '../../worker/schemas/values';
import { createTestApp, type TestApp } from '../helpers/app';
import { bearer, insertFilm, signedInUser } from '../helpers/auth';

const SECRET = `reconnect-requests-secret-${process.pid}-${Date.now()}`;
let party: PartyKitDev;
let t: TestApp;
/** Every API request the page made ("GET /api/…?…"), in order. */
const calls: string[] = [];

class MemoryStorage {
  #items = new Map<string, string>();
  get length() {
    return this.#items.size;
  }
  key(i: number) {
    return [...this.#items.keys()][i] ?? null;
  }
  getItem(k: string) {
    return this.#items.get(k) ?? null;
  }
  setItem(k: string, v: string) {
    this.#items.set(k, String(v));
  }
  removeItem(k: string) {
    this.#items.delete(k);
  }
  clear() {
    this.#items.clear();
  }
}

const g = globalThis as Record<string, unknown>;
const saved = Object.fromEntries(['window', 'document', 'sessionStorage', 'localStorage', 'WebSocket'].map((k) => [k, g[k]]));

// The page's modules, loaded once the globals they read are in place.
let web: {
  joinLiveRoom: typeof import('../../web/src/features/comments/hooks/use-live-comments').joinLiveRoom;
  createQueryClient: typeof import('../../web/src/app/query-client').createQueryClient;
  filmQuery: typeof import('../../web/src/features/catalogue/api/catalogue-queries').filmQuery;
  storeSession: typeof import('../../web/src/lib/session').storeSession;
  clearTabSession: typeof import('../../web/src/lib/session').clearTabSession;
};

beforeAll(async () => {
  party = await startPartyKitDev({ secret: SECRET });
  g.window = Object.assign(new EventTarget(), { location: new URL('http://127.0.0.1:5173/') });
  g.document = { querySelector: (selector: string) => (selector.includes('partykit-host') ? { content: party.url } : null) };
  g.sessionStorage = new MemoryStorage();
  g.localStorage = new MemoryStorage();
  g.WebSocket = WebSocket;
  t = await createTestApp({ config: { PARTYKIT_HOST: party.url, PARTY_SECRET: SECRET } });
  const { setApiFetch } = await import('../../web/src/lib/api-client');
  setApiFetch(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://127.0.0.1:5173');
    calls.push(`${init?.method ?? 'GET'} ${url.pathname}${url.search}`);
    return t.request(`${url.pathname}${url.search}`, init);
  });
  web = {
    ...(await import('../../web/src/features/comments/hooks/use-live-comments')),
    ...(await import('../../web/src/app/query-client')),
    ...(await import('../../web/src/features/catalogue/api/catalogue-queries')),
    ...(await import('../../web/src/lib/session')),
  };
}, 90_000);

afterAll(async () => {
  await party?.stop();
  Object.assign(g, saved);
});

const leaves: (() => void)[] = [];
afterEach(() => {
  for (const leave of leaves.splice(0)) leave();
});

const waitFor = async (check: () => boolean, what: string, ms = 15_000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; requests: ${JSON.stringify(calls)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const TOKEN = /^GET \/api\/product\/[^/]+\/comments\/token$/;
const SINCE = /^GET \/api\/product\/[^/]+\/comments\?since=\d+$/;
/** How long the page is left alone after its catch-up, for any later request to show. */
const SETTLE_MS = 1500;

/**
 * The film page as it runs: the app's query client with the film detail's query observed (as the page's useQuery
 * does), and the page's live room. Answers once the first connect's catch-up has come back.
 */
async function openFilmPage(slug: string, viewerId: number): Promise<{ queryClient: QueryClient; comments: () => number[] }> {
  const queryClient = web.createQueryClient();
  queryClient.mount();
  const observer = new QueryObserver(queryClient, web.filmQuery(slug));
  const unsubscribe = observer.subscribe(() => undefined);
  leaves.push(() => {
    unsubscribe();
    queryClient.unmount();
  });
  await waitFor(() => observer.getCurrentResult().isSuccess, 'the film detail');
  calls.length = 0;
  leaves.push(web.joinLiveRoom(slug, viewerId, queryClient, () => undefined));
  await waitFor(() => calls.some((c) => SINCE.test(c)), "the first connect's catch-up");
  await sleep(300);
  const comments = () => (observer.getCurrentResult().data as FilmDetailResponse | undefined)?.comments.map((c) => c.id) ?? [];
  return { queryClient, comments };
}

/** The room restarts (the API's push with the secret): every socket is told when to come back. */
async function restartRoom(slug: string): Promise<void> {
  const res = await fetch(`${party.url}/parties/comments/${slug}`, {
    method: 'POST',
    headers: { [PARTY_SECRET_HEADER]: SECRET },
    body: JSON.stringify({ type: 'reconnect' }),
  });
  expect(((await res.json()) as { delivered: number }).delivered).toBe(1);
}

/** Another member's comment, posted straight to the API (not counted: it is not this page's request). */
async function postElsewhere(slug: string, text: string): Promise<number> {
  const poster = await signedInUser(t);
  const res = await t.request('/api/product/comment', {
    json: { titlefilm: slug, contentcomment: text },
    headers: bearer(poster.session.token),
  });
  expect(res.status).toBe(201);
  await t.background();
  return ((await res.json()) as { id: number }).id;
}

async function signIn(): Promise<number> {
  const member = await signedInUser(t, { name: 'Người xem kết nối lại' });
  web.storeSession({ ...member.session, id: member.session.id });
  return member.id;
}

describe('API requests per reconnect of the live comment room', () => {
  it('a member: its token and its catch-up, 2 requests, on the first connect and on a room restart; the catch-up brings what was posted meanwhile', async () => {
    const slug = 'ket-noi-lai-thanh-vien';
    await insertFilm(t.deps.db, slug);
    const viewerId = await signIn();
    const page = await openFilmPage(slug, viewerId);
    expect(calls.filter((c) => TOKEN.test(c) || SINCE.test(c)).length).toBe(calls.length);
    expect(calls.length).toBe(2);

    calls.length = 0;
    await restartRoom(slug);
    const missed = await postElsewhere(slug, 'Đăng lúc phòng khởi động lại');
    // It reaches the page only by the catch-up: the room's sockets were away when it was pushed.
    await waitFor(() => page.comments().includes(missed), 'the comment posted during the restart');
    await sleep(SETTLE_MS);
    expect(calls).toEqual([expect.stringMatching(TOKEN), expect.stringMatching(SINCE)]);
    expect(calls.length).toBeLessThanOrEqual(2);
  }, 60_000);

  it('a visitor: its catch-up alone, 1 request, on a room restart', async () => {
    const slug = 'ket-noi-lai-khach';
    await insertFilm(t.deps.db, slug);
    web.clearTabSession();
    const page = await openFilmPage(slug, 0);
    expect(calls).toEqual([expect.stringMatching(SINCE)]);

    calls.length = 0;
    await restartRoom(slug);
    const missed = await postElsewhere(slug, 'Khách xem vẫn nhận được');
    await waitFor(() => page.comments().includes(missed), 'the comment posted during the restart');
    await sleep(SETTLE_MS);
    expect(calls).toEqual([expect.stringMatching(SINCE)]);
  }, 60_000);

  it('a member back online after a long loss: the room reconnects (2 requests) and the film detail is not read a third time', async () => {
    const slug = 'ket-noi-lai-mat-mang';
    await insertFilm(t.deps.db, slug);
    const viewerId = await signIn();
    const page = await openFilmPage(slug, viewerId);
    // Offline for longer than the film detail stays fresh (the query client's staleTime, 30 s).
    window.dispatchEvent(new Event('offline'));
    const key = web.filmQuery(slug).queryKey;
    page.queryClient.setQueryData(key, page.queryClient.getQueryData(key), { updatedAt: Date.now() - 5 * 60_000 });
    calls.length = 0;
    window.dispatchEvent(new Event('online'));
    await waitFor(() => calls.some((c) => SINCE.test(c)), 'the catch-up of the fresh socket');
    await sleep(SETTLE_MS);
    expect(calls).toEqual([expect.stringMatching(TOKEN), expect.stringMatching(SINCE)]);
  }, 60_000);
});
