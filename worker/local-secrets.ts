// Node host only: secrets for a machine nobody configured. A secret written in the repository would let
// anyone who has read it forge tokens for any laptop running the demo on a LAN, so the first start
// draws random ones and keeps them beside the database (docs/decisions/0601-local-secrets.md).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the Node host keeps the secrets it drew (beside the default database); `npm run backup` seals it. */
export const LOCAL_SECRETS_FILE = resolve(dirname(fileURLToPath(import.meta.url)), '../data/secrets.json');

const NAMES = ['JWT_SECRET', 'PARTY_SECRET', 'VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'] as const;
type SecretName = (typeof NAMES)[number];

/**
 * The secrets the environment leaves unset, read from `file` (created with mode 0600 on first use, with
 * 32 random bytes per secret). Values the environment sets always win and are never written.
 */
export function localSecrets(env: Record<string, string | undefined>, file: string): Partial<Record<SecretName, string>> {
  // The VAPID pair is one secret: the environment sets both or neither.
  const missing = NAMES.filter((name) => !env[name] && !(name.startsWith('VAPID_') && (env.VAPID_PUBLIC_KEY || env.VAPID_PRIVATE_KEY)));
  if (missing.length === 0) return {};
  let stored: Partial<Record<SecretName, string>> = {};
  if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8')) as typeof stored;
  let changed = false;
  for (const name of missing) {
    if (name.startsWith('VAPID_')) continue;
    if (typeof stored[name] === 'string' && stored[name].length >= 32) continue;
    stored[name] = randomBytes(32).toString('base64url');
    changed = true;
  }
  if (missing.includes('VAPID_PUBLIC_KEY') && !(stored.VAPID_PUBLIC_KEY?.length === 87 && stored.VAPID_PRIVATE_KEY?.length === 43)) {
    Object.assign(stored, vapidKeyPair());
    changed = true;
  }
  if (changed) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  }
  // An older file may have been created with a wider mode: the secrets are for this user alone.
  chmodSync(file, 0o600);
  return Object.fromEntries(missing.map((name) => [name, stored[name]]));
}

/** A Web Push VAPID key pair (RFC 8292): the uncompressed P-256 public point and the private scalar, base64url. */
export function vapidKeyPair(): { VAPID_PUBLIC_KEY: string; VAPID_PRIVATE_KEY: string } {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = privateKey.export({ format: 'jwk' });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x ?? '', 'base64url'), Buffer.from(jwk.y ?? '', 'base64url')]);
  return { VAPID_PUBLIC_KEY: point.toString('base64url'), VAPID_PRIVATE_KEY: jwk.d ?? '' };
}
