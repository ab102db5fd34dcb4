// Join tokens of the watch parties: signed by the API (worker/services/watch-party), verified by the room
// (party/watch.ts, in onBeforeConnect at the edge and again in onConnect). HS256 with the secret the API and
// the rooms already share (PARTY_SECRET), its own audience: the app's JWT_SECRET never leaves the API, and a
// party token is never accepted as an access token nor the reverse (docs/decisions/0970-watch-parties.md).
import { jwtVerify, SignJWT } from 'jose';
import { WATCH_TOKEN_AUDIENCE, WATCH_TOKEN_ISSUER, WATCH_TOKEN_TTL_SECONDS, type WatchTokenClaims } from './watch-messages';

const ALGORITHM = 'HS256';
const key = (secret: string) => new TextEncoder().encode(secret);

export async function signWatchToken(secret: string, claims: WatchTokenClaims, now: number): Promise<{ token: string; expiresAt: number }> {
  const iat = Math.floor(now / 1000);
  const exp = iat + WATCH_TOKEN_TTL_SECONDS;
  const token = await new SignJWT({ name: claims.name, party: claims.party, signedIn: claims.signedIn })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuer(WATCH_TOKEN_ISSUER)
    .setAudience(WATCH_TOKEN_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(key(secret));
  return { token, expiresAt: exp * 1000 };
}

/** The claims of a valid token for `party`, or null (bad signature, algorithm, audience, expiry, party or shape). */
export async function verifyWatchToken(
  secret: unknown,
  token: string | null,
  party: string,
  now: number,
): Promise<WatchTokenClaims | null> {
  if (typeof secret !== 'string' || secret.length === 0 || !token || token.length > 2048) return null;
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: [ALGORITHM],
      issuer: WATCH_TOKEN_ISSUER,
      audience: WATCH_TOKEN_AUDIENCE,
      currentDate: new Date(now),
      requiredClaims: ['sub', 'iat', 'exp'],
      clockTolerance: 5,
    });
    const { sub, name, party: forParty, signedIn } = payload;
    if (typeof sub !== 'string' || !/^[ug]:[A-Za-z0-9_-]{1,40}$/.test(sub)) return null;
    if (typeof name !== 'string' || name.length === 0 || name.length > 100) return null;
    if (forParty !== party || typeof signedIn !== 'boolean') return null;
    return { sub, name, party, signedIn };
  } catch {
    return null;
  }
}
