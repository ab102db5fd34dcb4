// Sending one chunk of a release (≤ 100 push subscriptions, a push_chunks row), the same on both hosts
// (docs/decisions/1030): a Queue consumer runs it on Workers, the pool (pool.ts) on Node.
// - A run claims the row by one conditional update with a lease; a row whose lease ran out (a crash, an isolate
//   cut off) is claimed again and run again.
// - Each send that settles (delivered, gone, refused) is removed from the row's `pending` in a write that counts
//   only while the row still carries this run's claim; writes are coalesced (one in flight, the next takes all
//   that settled meanwhile). A run after a crash therefore sends only what was not recorded: the duplicates are
//   the sends in flight at the crash (their Topic, the film, lets the push service replace the undelivered one).
// - 404/410 deletes the subscription in that same write. 429, 5xx and timeouts are tried again after Retry-After
//   (or 1, 2, 4 s) while the run's budget allows; what is left goes back to 'pending' with next_attempt_at, and
//   the row settles only after every send of the run has settled.
import { and, asc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import { episodeReleases, films, pushChunks, pushSubscriptions, watchlist } from '../../db/schema';
import type { AppDeps } from '../../lib/context';
import { type NewEpisodePush, newEpisodeText } from '../../schemas/library';
import { type PushMessage, sendPush, type Target, topicOf } from './send';
import { vapidKeys } from './vapid';

export type PushDeps = Pick<AppDeps, 'db' | 'config' | 'fetch' | 'now'>;

/** Subscriptions per chunk (one Queue message). */
export const CHUNK_SIZE = 100;
/** Sends in flight at once within a chunk (Workers open 6 connections at a time per invocation anyway). */
const PARALLEL = 10;
/** Tries of one subscription within a run before it waits for the chunk's next run. */
const TRIES_PER_RUN = 4;
/** Runs of a chunk (crash re-runs included) before what is still pending is given up. */
export const MAX_RUNS = 8;
/** How long a push service keeps an undelivered message (seconds). */
const TTL_SECONDS = 24 * 60 * 60;

export interface ChunkResult {
  sent: number;
  gone: number;
  failed: number;
}

/** done: nothing left (or no such chunk); later: run again at `at`; busy: another run holds it until `at`. */
export type ChunkOutcome = ({ state: 'done' } | { state: 'later'; at: number } | { state: 'busy'; at: number }) & ChunkResult;

const none: ChunkResult = { sent: 0, gone: 0, failed: 0 };

/** Due now: pending and due, or claimed by a run whose lease ran out. */
const dueAt = (now: number) =>
  or(
    and(eq(pushChunks.status, 'pending'), sql`${pushChunks.nextAttemptAt} <= ${now}`),
    and(eq(pushChunks.status, 'sending'), lt(pushChunks.leaseUntil, now)),
  );

/** Ids of chunks due now, oldest first. */
export async function dueChunkIds(deps: Pick<AppDeps, 'db'>, now: number, limit: number): Promise<number[]> {
  const rows = await deps.db.select({ id: pushChunks.id }).from(pushChunks).where(dueAt(now)).orderBy(asc(pushChunks.id)).limit(limit);
  return rows.map((r) => r.id);
}

function messageOf(release: { slug: string; title: string; episode: number; poster: string }): PushMessage {
  const data: NewEpisodePush = {
    type: 'new-episode',
    title: newEpisodeText(release.title, release.episode),
    body: `Bấm để xem tập ${release.episode} ngay`,
    url: `/xem-phim/${release.slug}/tap-${release.episode}`,
    slug: release.slug,
    episode: release.episode,
    ...(release.poster.startsWith('/') ? { icon: release.poster } : {}),
  };
  return { data, topic: topicOf(release.slug), ttlSeconds: TTL_SECONDS, urgency: 'normal' };
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Claims and sends one chunk; resolves when its sends have settled and the row says so. Never throws. */
export async function runChunk(deps: PushDeps, chunkId: number): Promise<ChunkOutcome> {
  const { db } = deps;
  const started = deps.now();
  // A run that stopped half-way is considered gone after its lease (config PUSH_LEASE_MS, a minute); its chunk is
  // then claimed and run again. A run starts no send (first or retried) after half of it, so it settles inside it.
  const leaseMs = deps.config.PUSH_LEASE_MS;
  const runBudgetMs = leaseMs / 2;
  const filmOf = sql`(SELECT r.film_id FROM ${episodeReleases} AS r JOIN ${pushChunks} AS c ON c.release_id = r.id WHERE c.id = ${chunkId})`;
  let claim: { attempts: number; pending: string }[];
  let rows: {
    status: string;
    nextAttemptAt: number;
    leaseUntil: number | null;
    slug: string;
    title: string;
    episode: number;
    poster: string;
  }[];
  let targets: Target[];
  try {
    // One round trip: the claim, then what it needs (the film, the subscriptions still followers with notify on).
    [claim, rows, targets] = await db.batch([
      db
        .update(pushChunks)
        .set({ status: 'sending', attempts: sql`${pushChunks.attempts} + 1`, leaseUntil: started + leaseMs })
        .where(and(eq(pushChunks.id, chunkId), dueAt(started)))
        .returning({ attempts: pushChunks.attempts, pending: pushChunks.pending }),
      db
        .select({
          status: pushChunks.status,
          nextAttemptAt: pushChunks.nextAttemptAt,
          leaseUntil: pushChunks.leaseUntil,
          slug: films.slug,
          title: films.title,
          episode: episodeReleases.episode,
          poster: films.posterUrl,
        })
        .from(pushChunks)
        .innerJoin(episodeReleases, eq(episodeReleases.id, pushChunks.releaseId))
        .innerJoin(films, eq(films.id, episodeReleases.filmId))
        .where(eq(pushChunks.id, chunkId)),
      // From the chunk's ids outwards (CROSS JOIN keeps SQLite to that order): 100 primary-key lookups, where the
      // planner's own choice (every follower of the film by watchlist_film) took seconds with 50,000 followers,
      // inside this batch's write lock.
      db.all<Target>(sql`
        SELECT s.id AS id, s.endpoint AS endpoint, s.p256dh AS p256dh, s.auth AS auth
        FROM json_each((SELECT pending FROM ${pushChunks} WHERE id = ${chunkId})) AS j
        CROSS JOIN ${pushSubscriptions} AS s ON s.id = j.value
        CROSS JOIN ${watchlist} AS w ON w.user_id = s.user_id AND w.film_id = ${filmOf} AND w.notify = 1`),
    ]);
  } catch (err) {
    console.error(`[push] chunk ${chunkId}: claim failed`, err);
    return { state: 'later', at: started + leaseMs, ...none };
  }
  const row = rows[0];
  const claimed = claim[0];
  if (!claimed || !row) {
    if (!row || row.status === 'done') return { state: 'done', ...none };
    if (row.status === 'sending') return { state: 'busy', at: row.leaseUntil ?? started + leaseMs, ...none };
    return { state: 'later', at: row.nextAttemptAt, ...none };
  }
  const run = claimed.attempts;
  const remaining = new Set(JSON.parse(claimed.pending) as number[]);
  const byId = new Map(targets.map((t) => [t.id, t]));
  const total: ChunkResult = { sent: 0, gone: 0, failed: 0 };
  // Not unflushed work: subscriptions deleted or unfollowed since the chunk was made are simply dropped.
  const unsent = [...remaining].filter((id) => !byId.has(id));
  for (const id of unsent) remaining.delete(id);

  // ---- recording progress: one write in flight; it carries everything that settled before it started ----
  let delta: ChunkResult = { sent: 0, gone: 0, failed: 0 };
  let goneIds: number[] = [];
  let lost = false;
  let flushing: Promise<void> | undefined;
  let dirty = unsent.length > 0;
  const write = async (extra: Partial<typeof pushChunks.$inferInsert> = {}) => {
    const d = delta;
    const g = goneIds;
    delta = { sent: 0, gone: 0, failed: 0 };
    goneIds = [];
    const update = db
      .update(pushChunks)
      .set({
        pending: JSON.stringify([...remaining]),
        sent: sql`${pushChunks.sent} + ${d.sent}`,
        gone: sql`${pushChunks.gone} + ${d.gone}`,
        failed: sql`${pushChunks.failed} + ${d.failed}`,
        ...extra,
      })
      .where(and(eq(pushChunks.id, chunkId), eq(pushChunks.status, 'sending'), eq(pushChunks.attempts, run)))
      .returning({ id: pushChunks.id });
    const [updated] = g.length
      ? await db.batch([update, db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, g))])
      : [await update];
    if (updated.length === 0) lost = true; // another run holds the chunk now: stop sending
  };
  const flush = () => {
    dirty = true;
    flushing ??= (async () => {
      try {
        while (dirty && !lost) {
          dirty = false;
          await write();
        }
      } catch (err) {
        // The database is unreachable: stop; the lease runs out and the chunk is run again.
        lost = true;
        console.error(`[push] chunk ${chunkId}: progress not recorded`, err);
      } finally {
        flushing = undefined;
      }
    })();
  };

  let vapid: { keys: Awaited<ReturnType<typeof vapidKeys>>; subject: string };
  try {
    vapid = { keys: await vapidKeys(deps.config), subject: deps.config.VAPID_SUBJECT ?? deps.config.PUBLIC_URL };
  } catch (err) {
    console.error('[push] no VAPID keys', err);
    lost = true;
    vapid = { keys: { publicKey: '', privateKey: '' }, subject: '' };
  }
  const message = messageOf(row);
  const deadline = started + runBudgetMs;
  let retryAt = Number.POSITIVE_INFINITY;
  const giveUp = run >= MAX_RUNS;
  const queue = [...remaining].map((id) => byId.get(id)!);
  const worker = async () => {
    for (let target = queue.shift(); target; target = queue.shift()) {
      if (lost || deps.now() > deadline) {
        retryAt = Math.min(retryAt, deps.now());
        return;
      }
      for (let tries = 1; ; tries++) {
        const outcome = await sendPush(deps, vapid, target, message);
        if (outcome.kind !== 'retry') {
          remaining.delete(target.id);
          const key = outcome.kind === 'refused' ? 'failed' : outcome.kind;
          delta[key]++;
          total[key]++;
          if (outcome.kind === 'gone') goneIds.push(target.id);
          if (outcome.kind === 'refused') {
            console.warn(`[push] chunk ${chunkId}: subscription ${target.id} refused: ${outcome.reason}`);
          }
          flush();
          break;
        }
        const wait = outcome.afterMs ?? 1000 * 2 ** (tries - 1) * (0.75 + Math.random() / 2);
        const at = deps.now() + wait;
        if (tries < TRIES_PER_RUN && at <= deadline && !lost) {
          await sleep(wait);
          continue;
        }
        retryAt = Math.min(retryAt, at);
        break;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, queue.length) }, worker));
  while (flushing) await flushing;
  if (lost) return { state: 'busy', at: started + leaseMs, ...total };

  // Every send of this run has settled: the row settles with the last of the progress.
  const now = deps.now();
  try {
    if (remaining.size > 0 && giveUp) {
      console.warn(`[push] chunk ${chunkId}: ${remaining.size} subscription(s) given up after ${run} runs`);
      delta.failed += remaining.size;
      total.failed += remaining.size;
      remaining.clear();
    }
    if (remaining.size === 0) {
      await write({ status: 'done', doneAt: now, leaseUntil: null });
      return lost ? { state: 'busy', at: started + leaseMs, ...total } : { state: 'done', ...total };
    }
    const at = Number.isFinite(retryAt) ? retryAt : now;
    await write({ status: 'pending', nextAttemptAt: at, leaseUntil: null });
    return lost ? { state: 'busy', at: started + leaseMs, ...total } : { state: 'later', at, ...total };
  } catch (err) {
    console.error(`[push] chunk ${chunkId}: could not settle`, err);
    return { state: 'busy', at: started + leaseMs, ...total };
  }
}

/** What a Queue consumer needs of a message (the runtime's Message, or a test's). */
export interface ChunkMessage {
  body: unknown;
  ack: () => void;
  retry: (options?: { delaySeconds?: number }) => void;
}

/**
 * Workers' Queue consumer: runs each message's chunk, one after the other (an invocation opens 6 connections at
 * a time, and the chunk's own sends fill them); acks a settled one, retries the others when they are due.
 */
export async function consumePushChunks(deps: PushDeps, messages: readonly ChunkMessage[]): Promise<void> {
  for (const message of messages) {
    const chunk = (message.body as { chunk?: unknown } | null)?.chunk;
    if (typeof chunk !== 'number') {
      message.ack();
      continue;
    }
    const outcome = await runChunk(deps, chunk);
    if (outcome.state === 'done') message.ack();
    else message.retry({ delaySeconds: Math.min(Math.max(Math.ceil((outcome.at - deps.now()) / 1000), 0), 43_200) });
  }
}
