// HMAC signing with WebCrypto, so the Worker and the Node host share one implementation.

const encoder = new TextEncoder();

function toHex(buffer: ArrayBuffer): string {
  let out = '';
  for (const byte of new Uint8Array(buffer)) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** HMAC of `data` with `secret`, lowercase hex. */
export async function hmacHex(hash: 'SHA-256' | 'SHA-512', secret: string, data: string): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash }, false, ['sign']);
  return toHex(await crypto.subtle.sign('HMAC', key, encoder.encode(data)));
}

/**
 * Compares two hex signatures without an early exit, so the time taken does not reveal how many leading
 * characters of a forged signature were right. Case-insensitive: gateways may send upper-case hex.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let diff = x.length ^ y.length;
  const length = Math.max(x.length, y.length);
  for (let i = 0; i < length; i++) diff |= (x.charCodeAt(i) || 0) ^ (y.charCodeAt(i) || 0);
  return diff === 0;
}

/** 128 random bits as 32 lowercase hex characters: an order id nobody can guess. */
export function randomOrderId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}
