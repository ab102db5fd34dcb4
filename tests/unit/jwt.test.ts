import { generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../worker/config';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  signAccessToken,
  TOKEN_AUDIENCE,
  TOKEN_ISSUER,
  verifyAccessToken,
  type AccessTokenClaims,
} from '../../worker/services/auth/access-token';

const config = loadConfig({ APP_ENV: 'test' });
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const claims: AccessTokenClaims = { sub: '42', email: 'an@example.com', name: 'An', roles: ['user'], permissions: ['VIP1'], epoch: 3 };
const secret = new TextEncoder().encode(config.JWT_SECRET);
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function forged(alg: string) {
  const iat = Math.floor(NOW / 1000);
  return new SignJWT({ email: claims.email, name: claims.name, roles: ['admin'], permissions: [], epoch: 3 })
    .setProtectedHeader({ alg })
    .setSubject('42')
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + 900);
}

describe('access tokens (jose, HS256 pinned)', () => {
  it('round-trips the claims the API needs and lives 15 minutes', async () => {
    const token = await signAccessToken(config, claims, NOW);
    expect(await verifyAccessToken(config, token, NOW)).toEqual(claims);
    const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(payload.exp - payload.iat).toBe(ACCESS_TOKEN_TTL_SECONDS);
    expect(ACCESS_TOKEN_TTL_SECONDS).toBe(15 * 60);
    expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).alg).toBe('HS256');
  });

  it('is refused once expired, and accepted just before', async () => {
    const token = await signAccessToken(config, claims, NOW);
    expect(await verifyAccessToken(config, token, NOW + 14 * 60_000)).not.toBeNull();
    expect(await verifyAccessToken(config, token, NOW + 16 * 60_000)).toBeNull();
  });

  it("refuses alg 'none'", async () => {
    const iat = Math.floor(NOW / 1000);
    const token = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ ...claims, iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, iat, exp: iat + 900 })}.`;
    expect(await verifyAccessToken(config, token, NOW)).toBeNull();
  });

  it('refuses another HMAC algorithm (HS512) even with the right secret', async () => {
    expect(await verifyAccessToken(config, await forged('HS512').sign(secret), NOW)).toBeNull();
  });

  it('refuses an RS256 token (no algorithm switching)', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    expect(await verifyAccessToken(config, await forged('RS256').sign(privateKey), NOW)).toBeNull();
  });

  it('refuses a token signed with another key', async () => {
    const other = new TextEncoder().encode('another-secret-that-is-long-enough-000000');
    expect(await verifyAccessToken(config, await forged('HS256').sign(other), NOW)).toBeNull();
    expect(await verifyAccessToken(config, await forged('HS256').sign(secret), NOW)).not.toBeNull();
  });

  it('refuses the wrong audience or issuer', async () => {
    expect(await verifyAccessToken(config, await forged('HS256').setAudience('someone-else').sign(secret), NOW)).toBeNull();
    expect(await verifyAccessToken(config, await forged('HS256').setIssuer('someone-else').sign(secret), NOW)).toBeNull();
  });

  it('refuses a tampered payload', async () => {
    const [header, , signature] = (await signAccessToken(config, claims, NOW)).split('.');
    const iat = Math.floor(NOW / 1000);
    const payload = b64url({ ...claims, roles: ['admin'], iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, iat, exp: iat + 900 });
    expect(await verifyAccessToken(config, `${header}.${payload}.${signature}`, NOW)).toBeNull();
  });

  it('refuses tokens missing the claims it relies on', async () => {
    const iat = Math.floor(NOW / 1000);
    const noEpoch = await new SignJWT({ email: 'a@b.c', name: 'A', roles: [], permissions: [] })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 60)
      .sign(secret);
    expect(await verifyAccessToken(config, noEpoch, NOW)).toBeNull();
    expect(await verifyAccessToken(config, 'not-a-jwt', NOW)).toBeNull();
  });
});
