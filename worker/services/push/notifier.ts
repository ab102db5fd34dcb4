// Sends "{Tên phim}: đã có tập {N}" to every push subscription of every member who follows the film
// (on their list with notify on), after the write that released the episode has committed: kicked by
// the write's handler through waitUntil (or a floating promise on Node) and by the scheduled job, which
// also picks up releases a crawl recorded. Each release's subscribers are walked in id order and every
// batch is claimed by a conditional update of the release's cursor before it is sent, so concurrent
// notifiers never send the same (subscription, episode) twice; a crash loses at most a claimed batch.
import { buildPushPayload } from '@block65/webcrypto-web-push';
import { and, asc, eq, gt, inArray, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { episodeReleases, films, pushSubscriptions, watchlist } from '../../db/schema';
import type { AppDeps } from '../../lib/context';
import { type NewEpisodePush, newEpisodeText } from '../../schemas/library';
import { isAllowedPushEndpoint } from './subscriptions';
import { vapidKeys } from './vapid';

/** Subscriptions claimed and sent per step. */
const BATCH = 100;
/** Requests in flight at once within a batch. */
const PARALLEL = 10;
const SEND_TIMEOUT_MS = 5000;
/** A release nobody got to within this long is dropped rather than announced late. */
const STALE_MS = 3 * 24 * 60 * 60 * 1000;
/** How long a push service keeps an undelivered message (seconds). */
const TTL_SECONDS = 24 * 60 * 60;

export interface NotifyResult {
  sent: number;
  failed: number;
  removed: number;
}

export interface Target {
  id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** Sends every pending release; resolves when done. Never throws: a release is stored whatever happens. */
export async function notifyNewEpisodes(deps: Pick<AppDeps, 'db' | 'config' | 'fetch' | 'now'>): Promise<NotifyResult> {
  const total: NotifyResult = { sent: 0, failed: 0, removed: 0 };
  try {
    const { db } = deps;
    const now = deps.now();
    await db
      .update(episodeReleases)
      .set({ doneAt: now })
      .where(and(isNull(episodeReleases.doneAt), lt(episodeReleases.createdAt, now - STALE_MS)));
    const pending = await db
      .select({
        id: episodeReleases.id,
        filmId: episodeReleases.filmId,
        episode: episodeReleases.episode,
        cursor: episodeReleases.cursor,
        slug: films.slug,
        title: films.title,
        poster: films.posterUrl,
      })
      .from(episodeReleases)
      .innerJoin(films, eq(films.id, episodeReleases.filmId))
      .where(isNull(episodeReleases.doneAt))
      .orderBy(asc(episodeReleases.id))
      .limit(50);
    for (const release of pending) {
      const text = newEpisodeText(release.title, release.episode);
      const payload: NewEpisodePush = {
        type: 'new-episode',
        title: text,
        body: `Bấm để xem tập ${release.episode} ngay`,
        url: `/xem-phim/${release.slug}/tap-${release.episode}`,
        slug: release.slug,
        episode: release.episode,
        ...(release.poster.startsWith('/') ? { icon: release.poster } : {}),
      };
      let cursor = release.cursor;
      for (;;) {
        const targets = await followersAfter(db, release.filmId, cursor);
        if (targets.length === 0) {
          await db
            .update(episodeReleases)
            .set({ doneAt: deps.now() })
            .where(and(eq(episodeReleases.id, release.id), eq(episodeReleases.cursor, cursor)));
          break;
        }
        const last = targets[targets.length - 1]?.id ?? cursor;
        const claimed = await db
          .update(episodeReleases)
          .set({ cursor: last })
          .where(and(eq(episodeReleases.id, release.id), eq(episodeReleases.cursor, cursor), isNull(episodeReleases.doneAt)))
          .returning({ id: episodeReleases.id });
        if (claimed.length === 0) break; // another notifier holds this release
        cursor = last;
        const result = await sendBatch(deps, targets, payload, release.slug);
        total.sent += result.sent;
        total.failed += result.failed;
        total.removed += result.removed;
      }
    }
  } catch (err) {
    console.error('[push] notifier failed', err);
  }
  return total;
}

/** Push subscriptions of members following the film (list + notify), after `cursor`, in id order. */
function followersAfter(db: Db, filmId: number, cursor: number): Promise<Target[]> {
  return db
    .select({
      id: pushSubscriptions.id,
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
    })
    .from(pushSubscriptions)
    .innerJoin(watchlist, and(eq(watchlist.userId, pushSubscriptions.userId), eq(watchlist.filmId, filmId), eq(watchlist.notify, true)))
    .where(gt(pushSubscriptions.id, cursor))
    .orderBy(asc(pushSubscriptions.id))
    .limit(BATCH);
}

/** Sends one payload to each target (also the VIP reminder, services/payments/vip-reminders.ts); forgets gone subscriptions. */
export async function sendBatch(
  deps: Pick<AppDeps, 'db' | 'config' | 'fetch'>,
  targets: Target[],
  payload: NewEpisodePush | { type: string; title: string; body: string; url: string },
  topic: string,
): Promise<NotifyResult> {
  const keys = await vapidKeys(deps.config);
  const subject = deps.config.VAPID_SUBJECT ?? deps.config.PUBLIC_URL;
  const gone: number[] = [];
  let sent = 0;
  let failed = 0;
  for (let i = 0; i < targets.length; i += PARALLEL) {
    await Promise.all(
      targets.slice(i, i + PARALLEL).map(async (target) => {
        if (!isAllowedPushEndpoint(deps.config, target.endpoint)) {
          failed++;
          return;
        }
        try {
          // RFC 8291 aes128gcm body and RFC 8292 VAPID header; Topic lets a push service replace an
          // undelivered older message about the same film.
          const request = await buildPushPayload(
            { data: { ...payload }, options: { ttl: TTL_SECONDS, urgency: 'normal', topic: topicOf(topic) } },
            { endpoint: target.endpoint, expirationTime: null, keys: { p256dh: target.p256dh, auth: target.auth } },
            { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
          );
          const res = await deps.fetch(target.endpoint, {
            method: 'POST',
            headers: request.headers,
            body: request.body,
            redirect: 'manual',
            signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
          });
          await res.body?.cancel().catch(() => undefined);
          if (res.status === 404 || res.status === 410) gone.push(target.id);
          if (res.ok) sent++;
          else failed++;
        } catch (err) {
          failed++;
          console.warn('[push] send failed', err instanceof Error ? err.message : err);
        }
      }),
    );
  }
  // The push service says the subscription no longer exists (RFC 8030 §7.3): forget it.
  if (gone.length) await deps.db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, gone));
  return { sent, failed, removed: gone.length };
}

/** RFC 8030 Topic: at most 32 characters of the URL-safe base64 alphabet. */
function topicOf(slug: string): string {
  return slug.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32) || 'episode';
}
