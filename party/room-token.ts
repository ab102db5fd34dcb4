// Short-lived identities the API signs for the rooms (HS256 with PARTY_SECRET, the secret the API and the rooms
// already share): the watch parties' join tokens (watch-token.ts) and the comment rooms' member tokens
// (comment-token.ts). Each kind has its own audience, so one is never accepted for the other, and none is ever an
// access token (the app's JWT_SECRET never leaves the API).
import { type JWTPayload, jwtVerify, SignJWT } from 'jose';

const ALGORITHM = 'HS256';
const ISSUER = 'phimviet-api';
const key = (secret: string) => new TextEncoder().encode(secret);

export async function signRoomToken(
  secret: string,
  input: { audience: string; sub: string; ttlSeconds: number; claims: Record<string, unknown> },
  now: number,
): Promise<{ token: string; expiresAt: number }> {
  const iat = Math.floor(now / 1000);
  const exp = iat + input.ttlSeconds;
  const token = await new SignJWT(input.claims)
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(input.sub)
    .setIssuer(ISSUER)
    .setAudience(input.audience)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(key(secret));
  return { token, expiresAt: exp * 1000 };
}

/** The payload of a valid token of `audience`, or null (bad signature, algorithm, audience, expiry or no subject). */
export async function verifyRoomToken(secret: unknown, token: string | null, audience: string, now: number): Promise<JWTPayload | null> {
  if (typeof secret !== 'string' || secret.length === 0 || !token || token.length > 2048) return null;
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience,
      currentDate: new Date(now),
      requiredClaims: ['sub', 'iat', 'exp'],
      clockTolerance: 5,
    });
    return typeof payload.sub === 'string' ? payload : null;
  } catch {
    return null;
  }
}

/** The token in a socket URL's query (`?token=`), or null. */
export function tokenOf(url: string): string | null {
  try {
    return new URL(url).searchParams.get('token');
  } catch {
    return null;
  }
}
