import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';

export const TEST_GOOGLE_CLIENT_ID = 'test-client.apps.googleusercontent.com';
export const TEST_JWKS_URL = 'https://jwks.test.invalid/oauth2/v3/certs';

/**
 * A stand-in for Google: an RSA key pair, its JWKS served by a fetch stand-in (no network), and a
 * signer for ID tokens. `otherKey` signs tokens whose key is not in the JWKS.
 */
export async function createGoogleStandIn() {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const other = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key-1', alg: 'RS256', use: 'sig' };
  const fetchedUrls: string[] = [];

  const fetch = (async (input: RequestInfo | URL) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    fetchedUrls.push(url);
    if (url !== TEST_JWKS_URL) return new Response('not found', { status: 404 });
    return Response.json({ keys: [jwk] });
  }) as typeof globalThis.fetch;

  async function sign(
    claims: JWTPayload & { email?: string; email_verified?: boolean | string; name?: string } = {},
    options: { nowSeconds?: number; ttlSeconds?: number; key?: 'good' | 'other'; kid?: string } = {},
  ): Promise<string> {
    const iat = options.nowSeconds ?? Math.floor(Date.now() / 1000);
    return new SignJWT({
      iss: 'https://accounts.google.com',
      aud: TEST_GOOGLE_CLIENT_ID,
      sub: '1122334455',
      email: 'google.user@gmail.com',
      email_verified: true,
      name: 'Người dùng Google',
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'test-key-1', typ: 'JWT' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + (options.ttlSeconds ?? 3600))
      .sign(options.key === 'other' ? other.privateKey : privateKey);
  }

  return { fetch, sign, fetchedUrls, jwk };
}
