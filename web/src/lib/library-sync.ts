// The member's library writes, sent through an outbox kept in IndexedDB (idb-keyval): list changes and
// progress made offline survive a closed tab and are sent, in order and with their original
// `updatedAt`, when the connection returns (docs/decisions/0800-member-library.md). Progress is batched:
// the player reports every few seconds, the server hears at most every 15 s of playback, at once on
// pause, and with `keepalive` when the page is hidden or left.
import { createStore, del, get, set, type UseStore, update } from 'idb-keyval';
import type { ProgressItem } from '../../../worker/schemas/library';
import { PROGRESS_BATCH_MAX } from '../../../worker/schemas/library-texts';
import { api } from './api-client';
import { authedCall, SessionExpiredError } from './auth-request';
import { getSession, getToken } from './session';

/** How often progress reaches the server while playing. */
export const PROGRESS_FLUSH_MS = 15_000;
/**
 * After a send that never reached the server (no network, the server down, a request that hung): tried again
 * after 2 s, then 4, 8, and every 15 s, whatever `navigator.onLine` says. The `online` event alone is not enough:
 * an app started offline, a server restarted while the network was up, a phone whose onLine never turned false
 * fire none (issue 31 §4).
 */
export const RETRY_MS = [2000, 4000, 8000, 15_000] as const;
/** A send that has not answered after this long is given up (and retried), so the outbox is never stuck behind it. */
export const SEND_TIMEOUT_MS = 15_000;

export type OutboxOp =
  | { id: string; kind: 'progress'; item: ProgressItem }
  | { id: string; kind: 'watchlist'; slug: string; on: boolean; notify?: boolean; at: number };

let idb: UseStore | undefined;
function store(): UseStore | undefined {
  if (typeof indexedDB === 'undefined') return undefined;
  idb ??= createStore('phimviet-library', 'kv');
  return idb;
}

const outboxKey = (userId: string) => `outbox:${userId}`;
const listCopyKey = (userId: string) => `watchlist:${userId}`;

const listeners = new Set<() => void>();
/** Called after the outbox changed (queued or sent): the list page shows what is still waiting. */
export function onOutboxChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const changed = () => {
  for (const l of listeners) l();
};

let chain: Promise<unknown> = Promise.resolve();
/** Outbox writes run one after another, so the order of ops is the order they were made in. */
function serial<T>(task: () => Promise<T>): Promise<T> {
  const next = chain.then(task, task);
  chain = next.catch(() => undefined);
  return next;
}

let seq = 0;
const newId = () => `${Date.now().toString(36)}-${(seq++).toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

/** The ops waiting for the signed-in member. */
export async function pendingOps(): Promise<OutboxOp[]> {
  const session = getSession();
  const s = store();
  if (!session || !s) return [];
  return (await get<OutboxOp[]>(outboxKey(session.id), s)) ?? [];
}

async function enqueue(userId: string, op: OutboxOp): Promise<void> {
  const s = store();
  if (!s) return;
  await serial(() =>
    update<OutboxOp[]>(
      outboxKey(userId),
      (list = []) => {
        if (op.kind === 'progress') {
          // Only the newest position per episode is worth sending.
          const same = (o: OutboxOp) => o.kind === 'progress' && o.item.slug === op.item.slug && o.item.episode === op.item.episode;
          return [...list.filter((o) => !same(o)), op];
        }
        return [...list, op];
      },
      s,
    ),
  );
  changed();
}

async function removeOps(userId: string, ids: ReadonlySet<string>): Promise<void> {
  const s = store();
  if (!s || ids.size === 0) return;
  await serial(() => update<OutboxOp[]>(outboxKey(userId), (list = []) => list.filter((o) => !ids.has(o.id)), s));
  changed();
}

/** Positions reported since the last send: what a page being left sends with keepalive. */
const unsent = new Map<string, ProgressItem>();
let flushTimer: ReturnType<typeof setTimeout> | undefined;
let lastFlush = 0;
let hiding = false;

/**
 * Progress of the signed-in member (watch-history.ts calls this on every save): queued, and sent
 * within 15 s (every 15 s of playback), at once on pause, with keepalive while the page is hidden.
 */
export function queueProgress(item: ProgressItem): void {
  const session = getSession();
  if (!session) return;
  unsent.set(`${item.slug}#${item.episode}`, item);
  // Also queued while the page is being left: if the keepalive request is lost, the next visit sends it.
  void enqueue(session.id, { id: newId(), kind: 'progress', item });
  if (hiding) {
    sendWithKeepalive();
    return;
  }
  const wait = lastFlush + PROGRESS_FLUSH_MS - Date.now();
  if (wait <= 0) void flushOutbox();
  else flushTimer ??= setTimeout(() => void flushOutbox(), wait);
}

/** A change to the member's list, queued and sent now (or when the connection returns). */
export async function queueWatchlist(slug: string, on: boolean, notify?: boolean, send = true): Promise<void> {
  const session = getSession();
  if (!session) return;
  await enqueue(session.id, { id: newId(), kind: 'watchlist', slug, on, at: Date.now(), ...(notify === undefined ? {} : { notify }) });
  if (send) await flushOutbox();
}

/** Progress items the signed-in member made on this device (a visitor's, merged at sign-in), queued and sent. */
export async function queueProgressItems(items: ProgressItem[], send = true): Promise<void> {
  const session = getSession();
  if (!session || items.length === 0) return;
  for (const item of items) await enqueue(session.id, { id: newId(), kind: 'progress', item });
  if (send) await flushOutbox();
}

let flushing: Promise<void> | undefined;
let again = false;
/** Sends in a row that did not reach the server: the next retry waits RETRY_MS[failures - 1]. */
let failures = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;

/** The send did not reach the server: try again later by itself (not only on `online`). */
function retryLater(): void {
  failures++;
  if (retryTimer) clearTimeout(retryTimer);
  retryTimer = setTimeout(
    () => {
      retryTimer = undefined;
      void flushOutbox();
    },
    RETRY_MS[Math.min(failures, RETRY_MS.length) - 1],
  );
}

/** Sends the outbox in order. Network failures keep the ops and try again by themselves (RETRY_MS), and on 'online'. */
export function flushOutbox(): Promise<void> {
  if (flushing) {
    again = true;
    return flushing;
  }
  flushing = (async () => {
    do {
      again = false;
      await sendAll();
    } while (again);
  })().finally(() => {
    flushing = undefined;
  });
  return flushing;
}

async function sendAll(): Promise<void> {
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = undefined;
  const session = getSession();
  if (!session || !getToken()) return;
  await chain;
  const ops = await pendingOps();
  lastFlush = Date.now();
  let i = 0;
  while (i < ops.length) {
    const op = ops[i];
    if (!op) break;
    let batch: OutboxOp[];
    let call: (headers: Record<string, string>) => Promise<Response>;
    if (op.kind === 'progress') {
      batch = [];
      for (let j = i; j < ops.length && batch.length < PROGRESS_BATCH_MAX && ops[j]?.kind === 'progress'; j++)
        batch.push(ops[j] as OutboxOp);
      const items = batch.map((o) => (o.kind === 'progress' ? o.item : undefined)).filter((x): x is ProgressItem => !!x);
      call = (headers) => api.api.me.progress.$put({ json: { items } }, { headers, init: timeout() }) as unknown as Promise<Response>;
    } else {
      batch = [op];
      const param = { slug: op.slug };
      call = (headers) =>
        (op.on
          ? api.api.me.watchlist[':slug'].$put(
              { param, json: op.notify === undefined ? {} : { notify: op.notify } },
              { headers, init: timeout() },
            )
          : api.api.me.watchlist[':slug'].$delete({ param }, { headers, init: timeout() })) as unknown as Promise<Response>;
    }
    let status: number;
    try {
      status = (await authedCall(call)).status;
    } catch (error) {
      // The session is over: kept for the member's next sign-in here. Otherwise the send never reached the
      // server (offline, the server down, no answer in time): kept, and tried again by itself.
      if (!(error instanceof SessionExpiredError)) retryLater();
      return;
    }
    failures = 0;
    if (status === 429 || status >= 500) {
      flushTimer ??= setTimeout(() => void flushOutbox(), 60_000);
      return;
    }
    // 2xx is done; any other 4xx (a film deleted since, a full list) can never succeed: drop it.
    await removeOps(session.id, new Set(batch.map((o) => o.id)));
    for (const o of batch) if (o.kind === 'progress') unsent.delete(`${o.item.slug}#${o.item.episode}`);
    i += batch.length;
  }
}

/** Each send gives up after SEND_TIMEOUT_MS: a request that never answers must not hold the outbox. */
// Not lib/timeout-signal.ts: that module lives in the stream's chunk (the watchdog's), which the app's own chunk must
// not import on every page; without AbortSignal.timeout a send simply has no deadline.
function timeout(): RequestInit {
  return typeof AbortSignal.timeout === 'function' ? { signal: AbortSignal.timeout(SEND_TIMEOUT_MS) } : {};
}

/** The page is being left or hidden: what is not yet sent goes out with keepalive (no answer awaited). */
function sendWithKeepalive(): void {
  const token = getToken();
  if (!token || unsent.size === 0) return;
  const items = [...unsent.values()].slice(-PROGRESS_BATCH_MAX);
  unsent.clear();
  try {
    void fetch('/api/me/progress', {
      method: 'PUT',
      keepalive: true,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ items }),
    }).catch(() => undefined);
  } catch {
    // keepalive quota exceeded: the outbox still holds them.
  }
}

/** The list as last read from the server (plus changes since), for the list page offline. */
export async function saveListCopy<T>(value: T): Promise<void> {
  const session = getSession();
  const s = store();
  if (!session || !s) return;
  await set(listCopyKey(session.id), value, s).catch(() => undefined);
}

export async function readListCopy<T>(): Promise<T | undefined> {
  const session = getSession();
  const s = store();
  if (!session || !s) return undefined;
  return get<T>(listCopyKey(session.id), s).catch(() => undefined);
}

/**
 * Signing out forgets the copy of the member's list on this device (a shared phone keeps no list
 * behind); changes still waiting in the outbox stay for their next sign-in here.
 */
export async function forgetListCopy(userId: string): Promise<void> {
  const s = store();
  if (!s) return;
  await del(listCopyKey(userId), s).catch(() => undefined);
}

let started = false;
/**
 * Wires the triggers once, in the browser: reconnect, pause of any video, page hidden, left or shown again; and
 * a send that did not reach the server is retried by itself (RETRY_MS).
 */
export function startLibrarySync(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  window.addEventListener('online', () => {
    failures = 0;
    void flushOutbox();
  });
  // Media events do not bubble, but they pass through the document in the capture phase. The player
  // reports the paused position in its own listener, after this one: send once that report is queued.
  document.addEventListener('pause', () => setTimeout(() => void flushOutbox(), 0), true);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') sendWithKeepalive();
    // Back in front (the app reopened, the phone unlocked): whatever is still waiting goes now.
    else void flushOutbox();
  });
  window.addEventListener('pagehide', () => {
    hiding = true;
    sendWithKeepalive();
  });
  window.addEventListener('pageshow', () => {
    hiding = false;
    void flushOutbox();
  });
  void flushOutbox();
}
