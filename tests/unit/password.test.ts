import { pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { timingSafeEqual } from '../../worker/lib/bytes';
import { hashPassword, needsRehash, PBKDF2_ITERATIONS, verifyPassword } from '../../worker/services/auth/password';

describe('password hashing (PBKDF2-HMAC-SHA256 via WebCrypto)', () => {
  it('uses exactly 100,000 iterations: the Cloudflare Workers cap, which local workerd does not enforce', async () => {
    expect(PBKDF2_ITERATIONS).toBe(100_000);
    const stored = await hashPassword('mật khẩu rất dài');
    expect(stored.split('$')[1]).toBe('100000');
  });

  it('stores a versioned string with a 16-byte salt and a 32-byte hash, and really derives with 100,000 iterations', async () => {
    const stored = await hashPassword('correct horse battery');
    const [scheme, iterations, salt, hash] = stored.split('$');
    expect(scheme).toBe('pbkdf2-sha256');
    expect(Buffer.from(salt!, 'base64')).toHaveLength(16);
    expect(Buffer.from(hash!, 'base64')).toHaveLength(32);
    // An independent derivation (Node's OpenSSL) with the same salt and 100,000 iterations gives the same bytes.
    const expected = pbkdf2Sync('correct horse battery', Buffer.from(salt!, 'base64'), Number(iterations), 32, 'sha256');
    expect(Buffer.from(hash!, 'base64').equals(expected)).toBe(true);
  });

  it('refuses to hash above the Workers cap instead of producing hashes the edge cannot check', async () => {
    await expect(hashPassword('x'.repeat(10), 100_001)).rejects.toThrow(/100000/);
  });

  it('verifies the right password and rejects a wrong one', async () => {
    const stored = await hashPassword('mat-khau-dung');
    expect(await verifyPassword('mat-khau-dung', stored)).toBe(true);
    expect(await verifyPassword('mat-khau-sai', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('salts every hash, so one password never gives the same string twice', async () => {
    expect(await hashPassword('same-password')).not.toBe(await hashPassword('same-password'));
  });

  it('treats Unicode forms of the same Vietnamese text as the same password (NFC)', async () => {
    const composed = 'Mật khẩu'.normalize('NFC');
    const decomposed = composed.normalize('NFD');
    expect(decomposed).not.toBe(composed);
    expect(await verifyPassword(decomposed, await hashPassword(composed))).toBe(true);
  });

  it('never matches a malformed, tampered or unknown-scheme hash', async () => {
    const stored = await hashPassword('mat-khau-dung');
    const [scheme, iterations, salt, hash] = stored.split('$');
    const flipped = Buffer.from(hash!, 'base64');
    flipped[0]! ^= 1;
    for (const bad of [
      `${scheme}$${iterations}$${salt}$${flipped.toString('base64')}`,
      `bcrypt$${iterations}$${salt}$${hash}`,
      `${scheme}$200000$${salt}$${hash}`,
      `${scheme}$abc$${salt}$${hash}`,
      `${scheme}$${iterations}$${salt}`,
      '',
      'plain-text-password',
    ]) {
      expect(await verifyPassword('mat-khau-dung', bad)).toBe(false);
    }
  });

  it('asks for a rehash only when the stored cost differs from today', async () => {
    expect(needsRehash(await hashPassword('a-password'))).toBe(false);
    expect(needsRehash(await hashPassword('a-password', 1000))).toBe(true);
  });

  it('compares byte strings without regard to where they differ, and by length', () => {
    expect(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true);
    expect(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false);
    expect(timingSafeEqual(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3, 0]))).toBe(false);
    expect(timingSafeEqual(new Uint8Array([]), new Uint8Array([0]))).toBe(false);
  });
});
