import { fromBase64, randomBytes, timingSafeEqual, toBase64 } from '../../lib/bytes';

/**
 * Cloudflare Workers refuses PBKDF2 above 100,000 iterations in production (local workerd does not),
 * so this is both our cost and the ceiling. tests/unit/password.test.ts pins it.
 */
export const PBKDF2_ITERATIONS = 100_000;
export const PBKDF2_MAX_ITERATIONS = 100_000;
const SCHEME = 'pbkdf2-sha256';
const SALT_BYTES = 16;
const HASH_BYTES = 32;

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password.normalize('NFC')), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, HASH_BYTES * 8);
  return new Uint8Array(bits);
}

/** 'pbkdf2-sha256$100000$<salt b64>$<hash b64>': the scheme and cost travel with the hash. */
export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_MAX_ITERATIONS) {
    throw new RangeError(`PBKDF2 iterations must be 1..${PBKDF2_MAX_ITERATIONS} (the Workers cap)`);
  }
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, iterations);
  return `${SCHEME}$${iterations}$${toBase64(salt)}$${toBase64(hash)}`;
}

interface ParsedHash {
  iterations: number;
  salt: Uint8Array<ArrayBuffer>;
  hash: Uint8Array;
}

function parse(stored: string): ParsedHash | null {
  const [scheme, iterationsText, saltText, hashText, ...rest] = stored.split('$');
  if (scheme !== SCHEME || rest.length > 0 || !iterationsText || !saltText || !hashText) return null;
  const iterations = Number(iterationsText);
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_MAX_ITERATIONS) return null;
  try {
    return { iterations, salt: fromBase64(saltText), hash: fromBase64(hashText) };
  } catch {
    return null;
  }
}

/** True when `password` matches `stored`; a malformed or unknown-scheme hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.iterations);
  return timingSafeEqual(candidate, parsed.hash);
}

/** A stored hash made with fewer iterations than today's cost should be replaced after a good login. */
export function needsRehash(stored: string): boolean {
  return parse(stored)?.iterations !== PBKDF2_ITERATIONS;
}

/**
 * Equalises timing when the email is unknown or has no password: the request costs one full
 * derivation either way, so response time does not tell which emails are registered.
 */
let dummyHash: Promise<string> | null = null;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password');
  await verifyPassword(password, await dummyHash);
}
