import { createRemoteJWKSet, customFetch, jwtVerify, type JWTVerifyGetKey } from 'jose';

export const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];

export interface GoogleIdentity {
  sub: string;
  email: string;
  name: string | null;
}

export interface GoogleVerifyOptions {
  clientId: string;
  jwksUrl: string;
  fetch: typeof fetch;
  now: number;
}

// One key set per (fetch, URL), kept across requests so Google's keys are fetched once per
// isolate and refreshed by jose's own cache rules, not on every sign-in.
const keySets = new WeakMap<typeof fetch, Map<string, JWTVerifyGetKey>>();

function keySetFor(fetchImpl: typeof fetch, url: string): JWTVerifyGetKey {
  let byUrl = keySets.get(fetchImpl);
  if (!byUrl) {
    byUrl = new Map();
    keySets.set(fetchImpl, byUrl);
  }
  let keySet = byUrl.get(url);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(url), { [customFetch]: (input, init) => fetchImpl(input, init), timeoutDuration: 5000 });
    byUrl.set(url, keySet);
  }
  return keySet;
}

/** The Google account behind a Sign in with Google ID token, or null if the token is not valid for us. */
export async function verifyGoogleIdToken(idToken: string, options: GoogleVerifyOptions): Promise<GoogleIdentity | null> {
  try {
    const { payload } = await jwtVerify(idToken, keySetFor(options.fetch, options.jwksUrl), {
      algorithms: ['RS256'],
      issuer: GOOGLE_ISSUERS,
      audience: options.clientId,
      currentDate: new Date(options.now),
      requiredClaims: ['sub', 'exp', 'iat'],
      clockTolerance: 30,
    });
    const { sub, email, email_verified: emailVerified, name } = payload;
    // Google sends a boolean; very old tokens carried the string 'true'.
    if (!sub || typeof email !== 'string' || (emailVerified !== true && emailVerified !== 'true')) return null;
    return { sub, email, name: typeof name === 'string' && name.trim() ? name.trim() : null };
  } catch {
    return null;
  }
}
