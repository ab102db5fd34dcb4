// Browsers' Web Push subscriptions. The server POSTs to whatever endpoint a subscription names, so the
// endpoint's origin must be a known push service (or one the operator lists in PUSH_ENDPOINT_ORIGINS):
// anything else would make the server a request forwarder (SSRF).
import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { pushSubscriptions } from '../../db/schema';
import { badRequest } from '../../lib/errors';
import { LIBRARY_TEXTS, type PushSubscriptionInput } from '../../schemas/library';
import { enforceRateLimits, RATE_LIMITS } from '../rate-limit';

/** Host suffixes of the browsers' push services: FCM (Chrome, Edge on Android), Mozilla, Apple, Windows (WNS). */
const KNOWN_PUSH_HOSTS = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  '.push.services.mozilla.com',
  '.push.apple.com',
  '.notify.windows.com',
];

/** True when the endpoint is https on a known push service, or its origin is listed in PUSH_ENDPOINT_ORIGINS. */
export function isAllowedPushEndpoint(config: Pick<Config, 'PUSH_ENDPOINT_ORIGINS'>, endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (config.PUSH_ENDPOINT_ORIGINS.some((origin) => origin.replace(/\/+$/, '') === url.origin)) return true;
  if (url.protocol !== 'https:' || url.port) return false;
  const host = url.hostname.toLowerCase();
  return KNOWN_PUSH_HOSTS.some((known) => (known.startsWith('.') ? host.endsWith(known) : host === known));
}

/**
 * POST /api/me/push-subscriptions: stores the subscription for the member. The same endpoint registered
 * again (a browser re-subscribing, or another member signing in on it) is updated in place.
 */
export async function saveSubscription(
  deps: { db: Db; config: Pick<Config, 'PUSH_ENDPOINT_ORIGINS'> },
  input: { userId: number; subscription: PushSubscriptionInput; now: number },
) {
  const { endpoint, keys } = input.subscription;
  if (!isAllowedPushEndpoint(deps.config, endpoint)) throw badRequest('endpoint', LIBRARY_TEXTS.badPushOrigin);
  await enforceRateLimits(deps.db, [{ key: `push-subscribe:user:${input.userId}`, ...RATE_LIMITS.pushSubscribePerUser }], input.now);
  const [row] = await deps.db
    .insert(pushSubscriptions)
    .values({ userId: input.userId, endpoint, p256dh: keys.p256dh, auth: keys.auth, createdAt: input.now })
    .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: { userId: input.userId, p256dh: keys.p256dh, auth: keys.auth } })
    .returning({ id: pushSubscriptions.id });
  return { id: row?.id ?? 0, endpoint };
}

/** DELETE /api/me/push-subscriptions { endpoint }: idempotent; only the member's own subscription. */
export async function deleteSubscription(db: Db, input: { userId: number; endpoint: string }) {
  await db.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, input.userId), eq(pushSubscriptions.endpoint, input.endpoint)));
  return { endpoint: input.endpoint, removed: true };
}
