// Join tokens of the watch parties: signed by the API (worker/services/watch-party), verified by the room
// (party/watch.ts, in onBeforeConnect at the edge and again in onConnect). HS256 with the secret the API and
// the rooms already share (PARTY_SECRET), its own audience: the app's JWT_SECRET never leaves the API, and a
// party token is never accepted as an access token nor the reverse (docs/decisions/0970-watch-parties.md).
import { signRoomToken, verifyRoomToken } from './room-token';
import { WATCH_TOKEN_AUDIENCE, WATCH_TOKEN_TTL_SECONDS, type WatchTokenClaims } from './watch-messages';

export async function signWatchToken(secret: string, claims: WatchTokenClaims, now: number): Promise<{ token: string; expiresAt: number }> {
  return signRoomToken(
    secret,
    {
      audience: WATCH_TOKEN_AUDIENCE,
      sub: claims.sub,
      ttlSeconds: WATCH_TOKEN_TTL_SECONDS,
      claims: { name: claims.name, party: claims.party, signedIn: claims.signedIn },
    },
    now,
  );
}

/** The claims of a valid token for `party`, or null (bad signature, algorithm, audience, expiry, party or shape). */
export async function verifyWatchToken(
  secret: unknown,
  token: string | null,
  party: string,
  now: number,
): Promise<WatchTokenClaims | null> {
  const payload = await verifyRoomToken(secret, token, WATCH_TOKEN_AUDIENCE, now);
  if (!payload) return null;
  const { sub, name, party: forParty, signedIn } = payload;
  if (typeof sub !== 'string' || !/^[ug]:[A-Za-z0-9_-]{1,40}$/.test(sub)) return null;
  if (typeof name !== 'string' || name.length === 0 || name.length > 100) return null;
  if (forParty !== party || typeof signedIn !== 'boolean') return null;
  return { sub, name, party, signedIn };
}
