import { chmodSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, loadConfig } from '../../worker/config';
import { localSecrets } from '../../worker/local-secrets';

const freshFile = () => join(mkdtempSync(join(tmpdir(), 'secrets-')), 'data', 'secrets.json');
const DEV_JWT = configSchema.parse({}).JWT_SECRET;

describe('npm start secrets (worker/local-secrets.ts)', () => {
  it('draws random secrets on first start, keeps them in a 0600 file and reuses them', () => {
    const file = freshFile();
    const first = localSecrets({}, file);
    expect(first.JWT_SECRET).toMatch(/^[\w-]{43}$/);
    expect(first.PARTY_SECRET).toMatch(/^[\w-]{43}$/);
    expect(first.JWT_SECRET).not.toBe(first.PARTY_SECRET);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(localSecrets({}, file)).toEqual(first);
    // Another machine (another data/) gets its own.
    expect(localSecrets({}, freshFile()).JWT_SECRET).not.toBe(first.JWT_SECRET);
    const config = loadConfig({ ...first });
    expect(config.JWT_SECRET).toBe(first.JWT_SECRET);
    expect(config.JWT_SECRET).not.toBe(DEV_JWT);
  });

  it('an environment secret wins and is never written to the file', () => {
    const file = freshFile();
    const env = { JWT_SECRET: 'set-by-the-operator-0123456789abcdef-xyz' };
    const filled = localSecrets(env, file);
    expect(filled.JWT_SECRET).toBeUndefined();
    expect(filled.PARTY_SECRET).toBeTruthy();
    expect(readFileSync(file, 'utf8')).not.toContain(env.JWT_SECRET);
    const vapid = { VAPID_PUBLIC_KEY: `B${'c'.repeat(86)}`, VAPID_PRIVATE_KEY: 'd'.repeat(43) };
    expect(localSecrets({ JWT_SECRET: 'a'.repeat(32), PARTY_SECRET: 'b'.repeat(32), ...vapid }, freshFile())).toEqual({});
  });

  it('draws a VAPID key pair for Web Push once and keeps it (subscriptions are bound to it)', () => {
    const file = freshFile();
    const first = localSecrets({}, file);
    expect(first.VAPID_PUBLIC_KEY).toMatch(/^[\w-]{87}$/);
    expect(Buffer.from(first.VAPID_PUBLIC_KEY ?? '', 'base64url')[0]).toBe(4);
    expect(first.VAPID_PRIVATE_KEY).toMatch(/^[\w-]{43}$/);
    expect(localSecrets({}, file).VAPID_PUBLIC_KEY).toBe(first.VAPID_PUBLIC_KEY);
    expect(loadConfig({ ...first }).VAPID_PUBLIC_KEY).toBe(first.VAPID_PUBLIC_KEY);
  });

  it('tightens a file left readable by others', () => {
    const file = freshFile();
    localSecrets({}, file);
    chmodSync(file, 0o644);
    localSecrets({}, file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
