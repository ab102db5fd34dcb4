// The VAPID key pair (RFC 8292) the server signs Web Push requests with. Production sets it as secrets;
// `npm start` draws it into data/ on first run (worker/local-secrets.ts); a test or dev process without
// one gets a pair of its own, made once per process.
import type { Config } from '../../config';
import { ApiError } from '../../lib/errors';

export interface VapidKeys {
  /** The uncompressed P-256 point, base64url: what browsers take as applicationServerKey. */
  publicKey: string;
  /** The private scalar `d`, base64url. */
  privateKey: string;
}

const toB64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

let processKeys: Promise<VapidKeys> | undefined;

async function generateKeys(): Promise<VapidKeys> {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const { d } = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey;
  const raw = new Uint8Array((await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer);
  return { publicKey: toB64url(raw), privateKey: d ?? '' };
}

/** The configured key pair; outside production a per-process one when none is configured; else 503. */
export async function vapidKeys(config: Pick<Config, 'APP_ENV' | 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY'>): Promise<VapidKeys> {
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) {
    return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY };
  }
  if (config.APP_ENV === 'production') throw new ApiError(503, 'push_unavailable', 'Thông báo đẩy chưa được cấu hình (VAPID_PUBLIC_KEY)');
  processKeys ??= generateKeys();
  return processKeys;
}
