// HMAC signing with WebCrypto, so the Worker and the Node host share one implementation.
import { randomBytes, timingSafeEqual, toHex } from '../../lib/bytes';

const encoder = new TextEncoder();

/** HMAC of `data` with `secret`, lowercase hex. */
export async function hmacHex(hash: 'SHA-256' | 'SHA-512', secret: string, data: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash }, false, ['sign']);
  return toHex(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(data))));
}

/** Constant-time comparison of two hex signatures; case-insensitive, as gateways may send upper-case hex. */
export function constantTimeEqual(a: string, b: string): boolean {
  return timingSafeEqual(encoder.encode(a.toLowerCase()), encoder.encode(b.toLowerCase()));
}

/** 128 random bits as 32 lowercase hex characters: an order id nobody can guess. */
export const randomOrderId = (): string => toHex(randomBytes(16));
