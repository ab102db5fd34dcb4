// Sends "{Tên phim}: đã có tập {N}" to every push subscription of every member who follows the film (on their
// list with notify on), after the write that released the episode has committed (docs/decisions/0800, 1030):
// kicked by the write's handler through waitUntil (or a floating promise on Node) and by the scheduled job,
// which also picks up releases a crawl recorded.
// A release becomes chunks of ≤ 100 subscriptions (push_chunks rows): its followers are walked in id order, and
// each step writes the chunks and moves the release's cursor in one atomic batch, conditional on the cursor, so a
// subscription is in one chunk of a release, once. The chunks then go where the host sends them
// (`deps.pushQueue`: Cloudflare Queues on Workers, the Node host's pool) or, with no queue (tests, scripts), are
// drained here. Sending a chunk is chunks.ts.
import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { episodeReleases, pushChunks, pushSubscriptions, watchlist } from '../../db/schema';
import type { AppDeps } from '../../lib/context';
import { CHUNK_SIZE, dueChunkIds, type PushDeps, runChunk } from './chunks';
import { type PushMessage, sendPush, type Target, topicOf } from './send';
import { vapidKeys } from './vapid';

export type { Target } from './send';

/** Chunks written per planning step (one batch). */
const CHUNKS_PER_STEP = 10;
/** Follower ids read per query while planning. */
const READ_AT_ONCE = 100_000;
/** A release nobody got to within this long is dropped rather than announced late. */
const STALE_MS = 3 * 24 * 60 * 60 * 1000;
/** A chunk due this long ago and not taken is sent to the queue again (a message lost or dead-lettered). */
const OVERDUE_MS = 2 * 60_000;
/** Chunks run at once when drained in-process. */
const DRAIN_PARALLEL = 4;

export interface NotifyResult {
  /** Chunks written for new releases. */
  chunks: number;
  sent: number;
  failed: number;
  removed: number;
}

/** Where chunks go to be sent: a Queue producer on Workers, the pool's wake-up on Node. */
export interface PushQueue {
  send: (chunkIds: number[]) => Promise<void>;
}

/** Push subscription ids of members following the film (list + notify), after `cursor`, in id order. */
async function followerIdsAfter(deps: Pick<AppDeps, 'db'>, filmId: number, cursor: number, limit: number): Promise<number[]> {
  const rows = await deps.db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .innerJoin(watchlist, and(eq(watchlist.userId, pushSubscriptions.userId), eq(watchlist.filmId, filmId), eq(watchlist.notify, true)))
    .where(gt(pushSubscriptions.id, cursor))
    .orderBy(asc(pushSubscriptions.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** Turns pending releases into chunks; returns the new chunks' ids. A release whose followers are all in chunks is done. */
export async function planReleases(deps: Pick<AppDeps, 'db' | 'now'>): Promise<number[]> {
  const { db } = deps;
  const now = deps.now();
  await db
    .update(episodeReleases)
    .set({ doneAt: now })
    .where(and(isNull(episodeReleases.doneAt), lt(episodeReleases.createdAt, now - STALE_MS)));
  const releases = await db
    .select({ id: episodeReleases.id, filmId: episodeReleases.filmId, cursor: episodeReleases.cursor })
    .from(episodeReleases)
    .where(isNull(episodeReleases.doneAt))
    .orderBy(asc(episodeReleases.id))
    .limit(50);
  const created: number[] = [];
  for (const release of releases) {
    let cursor = release.cursor;
    // The followers are read once (up to READ_AT_ONCE ids: SQLite reads the film's followers by watchlist_film and
    // sorts them, whatever the limit), then written a step at a time.
    let followers: number[] = [];
    for (;;) {
      if (followers.length === 0) followers = await followerIdsAfter(deps, release.filmId, cursor, READ_AT_ONCE);
      const ids = followers.splice(0, CHUNK_SIZE * CHUNKS_PER_STEP);
      if (ids.length === 0) {
        await db
          .update(episodeReleases)
          .set({ doneAt: deps.now() })
          .where(and(eq(episodeReleases.id, release.id), eq(episodeReleases.cursor, cursor), isNull(episodeReleases.doneAt)));
        break;
      }
      const last = ids[ids.length - 1]!;
      const parts = [];
      for (let i = 0; i < ids.length; i += CHUNK_SIZE) {
        const part = ids.slice(i, i + CHUNK_SIZE);
        parts.push({ p: JSON.stringify(part), n: part.length });
      }
      // One atomic batch: the chunks are written only while the cursor is still where this planner read it, then
      // the cursor moves past them. A planner that lost the race (the cursor moved) writes nothing. A batch, not an
      // interactive transaction: on a file database another connection of this process would block the event loop
      // waiting for the transaction's lock (libSQL's calls are synchronous).
      const [written] = await db.batch([
        db.all<{ id: number }>(sql`
          INSERT INTO ${pushChunks} (release_id, pending, size, next_attempt_at, created_at)
          SELECT ${release.id}, json_extract(value, '$.p'), json_extract(value, '$.n'), ${now}, ${now}
          FROM json_each(${JSON.stringify(parts)})
          WHERE (SELECT cursor FROM ${episodeReleases} WHERE id = ${release.id} AND done_at IS NULL) = ${cursor}
          RETURNING id`),
        db
          .update(episodeReleases)
          .set({ cursor: last })
          .where(and(eq(episodeReleases.id, release.id), eq(episodeReleases.cursor, cursor), isNull(episodeReleases.doneAt))),
      ]);
      if (written.length === 0) break; // another planner holds this release
      created.push(...written.map((c) => c.id));
      cursor = last;
    }
  }
  return created;
}

/** Runs due chunks, DRAIN_PARALLEL at a time, until none is due (a chunk waiting for a Retry-After is left for later). */
export async function drainPush(deps: PushDeps): Promise<Omit<NotifyResult, 'chunks'>> {
  const total = { sent: 0, failed: 0, removed: 0 };
  const tried = new Set<number>();
  for (;;) {
    const ids = (await dueChunkIds(deps, deps.now(), DRAIN_PARALLEL * 4)).filter((id) => !tried.has(id));
    if (ids.length === 0) return total;
    for (let i = 0; i < ids.length; i += DRAIN_PARALLEL) {
      const outcomes = await Promise.all(ids.slice(i, i + DRAIN_PARALLEL).map((id) => runChunk(deps, id)));
      for (const o of outcomes) {
        total.sent += o.sent;
        total.failed += o.failed;
        total.removed += o.gone;
      }
    }
    // A chunk left 'later' is due again at once only when its run ran out of budget: one run each per drain.
    for (const id of ids) tried.add(id);
  }
}

/** Chunks due for a while that nobody took: their message was lost or dead-lettered (Workers), sent again. */
async function overdueChunkIds(deps: Pick<AppDeps, 'db'>, now: number): Promise<number[]> {
  const rows = await deps.db
    .select({ id: pushChunks.id })
    .from(pushChunks)
    .where(
      or(
        and(eq(pushChunks.status, 'pending'), sql`${pushChunks.nextAttemptAt} <= ${now - OVERDUE_MS}`),
        and(eq(pushChunks.status, 'sending'), lt(pushChunks.leaseUntil, now - OVERDUE_MS)),
      ),
    )
    .orderBy(asc(pushChunks.id))
    .limit(1000);
  return rows.map((r) => r.id);
}

/**
 * Plans every pending release and hands the chunks to the host's queue (with those overdue), or sends them here
 * when there is none. Resolves when handed over (or sent). Never throws: a release is stored whatever happens.
 */
export async function notifyNewEpisodes(deps: PushDeps & { pushQueue?: PushQueue }): Promise<NotifyResult> {
  const result: NotifyResult = { chunks: 0, sent: 0, failed: 0, removed: 0 };
  try {
    const created = await planReleases(deps);
    result.chunks = created.length;
    if (deps.pushQueue) {
      const overdue = await overdueChunkIds(deps, deps.now());
      const ids = [...new Set([...created, ...overdue])];
      if (ids.length) await deps.pushQueue.send(ids);
    } else {
      Object.assign(result, await drainPush(deps));
    }
  } catch (err) {
    console.error('[push] notifier failed', err);
  }
  return result;
}

/**
 * Sends one payload to each target once, no retry (the VIP reminder, services/payments/vip-reminders.ts);
 * forgets gone subscriptions.
 */
export async function sendBatch(
  deps: Pick<AppDeps, 'db' | 'config' | 'fetch'>,
  targets: Target[],
  payload: { type: string; title: string; body: string; url: string },
  topic: string,
): Promise<Omit<NotifyResult, 'chunks'>> {
  const vapid = { keys: await vapidKeys(deps.config), subject: deps.config.VAPID_SUBJECT ?? deps.config.PUBLIC_URL };
  const message: PushMessage = { data: payload, topic: topicOf(topic), ttlSeconds: 24 * 60 * 60, urgency: 'normal' };
  const outcomes = await Promise.all(targets.map((target) => sendPush(deps, vapid, target, message)));
  const gone = targets.filter((_, i) => outcomes[i]?.kind === 'gone').map((t) => t.id);
  if (gone.length) await deps.db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, gone));
  const sent = outcomes.filter((o) => o.kind === 'sent').length;
  return { sent, failed: outcomes.length - sent, removed: gone.length };
}
