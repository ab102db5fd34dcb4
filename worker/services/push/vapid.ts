// The VAPID key pair (RFC 8292) the server signs Web Push requests with. Production sets it as secrets;
// `npm start` draws it into data/ on first run (worker/local-secrets.ts); a test or dev process without
// one gets a pair of its own, made once per process.
import type { Config } from '../../config';
import { ApiError } from '../../lib/errors';

export interface VapidKeys {
  /** The uncompressed P-256 point, base64url: what browsers take as applicationServerKey. */
  publicKey: string;
  privateJWK: JsonWebKey;
}

const fromB64url = (s: string) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
const toB64url = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** The JWK of a VAPID pair given as the public point and the private scalar, both base64url. */
export function vapidJwk(publicKey: string, privateKey: string): JsonWebKey {
  const point = fromB64url(publicKey);
  return { kty: 'EC', crv: 'P-256', x: toB64url(point.slice(1, 33)), y: toB64url(point.slice(33, 65)), d: privateKey, ext: true };
}

let processKeys: Promise<VapidKeys> | undefined;

async function generateKeys(): Promise<VapidKeys> {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const privateJWK = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey;
  const raw = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer);
  return { publicKey: toB64url(raw), privateJWK };
}

/** The configured key pair; outside production a per-process one when none is configured; else 503. */
export async function vapidKeys(config: Pick<Config, 'APP_ENV' | 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY'>): Promise<VapidKeys> {
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) {
    return { publicKey: config.VAPID_PUBLIC_KEY, privateJWK: vapidJwk(config.VAPID_PUBLIC_KEY, config.VAPID_PRIVATE_KEY) };
  }
  if (config.APP_ENV === 'production') throw new ApiError(503, 'push_unavailable', 'Thông báo đẩy chưa được cấu hình (VAPID_PUBLIC_KEY)');
  processKeys ??= generateKeys();
  return processKeys;
}
