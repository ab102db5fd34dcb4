// One Web Push request (RFC 8030) and what its answer means for the subscription. The body is RFC 8291 aes128gcm
// and the Authorization header RFC 8292 VAPID, both from @block65/webcrypto-web-push (WebCrypto: Workers and Node),
// used through its lower-level exports rather than buildPushPayload (docs/decisions/1030):
// - the VAPID token is signed once per push-service origin and reused until an hour before its exp (the library
//   signs exp = now + 12 h; RFC 8292 allows ≤ 24 h), instead of a JWK import and an ES256 signature per message;
// - the body is not padded: buildPushPayload pads every message to the 4,096 B the protocol lets a push service
//   cap a body at; encryptNotification's `pad: false` sends the plaintext plus the one delimiter octet RFC 8188 needs.
import { encryptNotification, vapidHeaders } from '@block65/webcrypto-web-push';
import type { AppDeps } from '../../lib/context';
import { isAllowedPushEndpoint } from './subscriptions';
import type { VapidKeys } from './vapid';

export interface Target {
  id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

export interface PushMessage {
  data: unknown;
  /** RFC 8030 Topic: a later message with the same topic replaces an undelivered one. */
  topic: string;
  ttlSeconds: number;
  urgency?: 'very-low' | 'low' | 'normal' | 'high';
}

/** sent (2xx); gone (404/410: forget the subscription); retry (429, 5xx, timeout, network); refused (anything else). */
export type SendOutcome = { kind: 'sent' } | { kind: 'gone' } | { kind: 'retry'; afterMs?: number } | { kind: 'refused'; reason: string };

const SEND_TIMEOUT_MS = 5000;
/** The library signs exp = now + 12 h; a token is reused until an hour before that. */
const VAPID_REUSE_MS = 11 * 60 * 60 * 1000;
/** A Retry-After further away than this is held to it (the chunk is tried again then). */
const MAX_RETRY_AFTER_MS = 10 * 60 * 1000;

const tokens = new Map<string, { header: Promise<string>; until: number }>();

/** The `Authorization: vapid t=…, k=…` header for the endpoint's push service, signed once per origin and kept. */
export function vapidAuthorization(keys: VapidKeys, subject: string, endpoint: string, now = Date.now()): Promise<string> {
  const origin = new URL(endpoint).origin;
  const key = `${keys.publicKey} ${subject} ${origin}`;
  const kept = tokens.get(key);
  if (kept && kept.until > now) return kept.header;
  if (tokens.size > 100) tokens.clear(); // a handful of push services in practice
  const header = vapidHeaders(
    { endpoint: origin, expirationTime: null, keys: { p256dh: '', auth: '' } },
    { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
  ).then((signed) => signed.headers.authorization);
  tokens.set(key, { header, until: now + VAPID_REUSE_MS });
  header.catch(() => tokens.delete(key));
  return header;
}

/** How many VAPID tokens this process holds (one per push service origin and key pair). */
export function vapidTokensKept(): number {
  return tokens.size;
}

/** RFC 9110 Retry-After: delay-seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - now;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** RFC 8030 Topic: at most 32 characters of the URL-safe base64 alphabet. */
export function topicOf(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32) || 'episode';
}

/** Encrypts and POSTs one message; never throws. */
export async function sendPush(
  deps: Pick<AppDeps, 'config' | 'fetch'>,
  vapid: { keys: VapidKeys; subject: string },
  target: Target,
  message: PushMessage,
): Promise<SendOutcome> {
  if (!isAllowedPushEndpoint(deps.config, target.endpoint)) return { kind: 'refused', reason: 'endpoint not allowed' };
  let body: Uint8Array<ArrayBuffer>;
  let authorization: string;
  try {
    const subscription = { endpoint: target.endpoint, expirationTime: null, keys: { p256dh: target.p256dh, auth: target.auth } };
    [authorization, body] = await Promise.all([
      vapidAuthorization(vapid.keys, vapid.subject, target.endpoint),
      encryptNotification(subscription, new TextEncoder().encode(JSON.stringify(message.data)), { pad: false }),
    ]);
  } catch (err) {
    // A malformed key or an endpoint the library refuses (not https): sending again cannot help.
    return { kind: 'refused', reason: err instanceof Error ? err.message : String(err) };
  }
  try {
    const res = await deps.fetch(target.endpoint, {
      method: 'POST',
      headers: {
        authorization,
        ttl: String(message.ttlSeconds),
        urgency: message.urgency ?? 'normal',
        topic: message.topic,
        'content-encoding': 'aes128gcm',
        'content-type': 'application/octet-stream',
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    await res.body?.cancel().catch(() => undefined);
    if (res.ok) return { kind: 'sent' };
    // The push service says the subscription no longer exists (RFC 8030 §7.3).
    if (res.status === 404 || res.status === 410) return { kind: 'gone' };
    if (res.status === 429 || res.status >= 500)
      return { kind: 'retry', afterMs: retryAfterMs(res.headers.get('retry-after'), Date.now()) };
    return { kind: 'refused', reason: `HTTP ${res.status}` };
  } catch {
    // Timeout or network: the message may or may not have arrived; a resend carries the same Topic.
    return { kind: 'retry' };
  }
}
