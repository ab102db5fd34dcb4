import { jwtVerify, SignJWT } from 'jose';
import type { Config } from '../../config';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
export const TOKEN_ISSUER = 'phimviet-api';
export const TOKEN_AUDIENCE = 'phimviet-web';
/** The only algorithm accepted: 'none', RS256 (key confusion) and others are refused by jose. */
const ALGORITHM = 'HS256';

export interface AccessTokenClaims {
  /** User id. */
  sub: string;
  email: string;
  name: string;
  roles: string[];
  permissions: string[];
  /** users.sessionEpoch at issue; a bumped epoch retires every older token at once. */
  epoch: number;
  /** The refresh-token family (device) it belongs to: signing that device out retires the token at once. */
  sid?: string;
}

const secretKey = (config: Pick<Config, 'JWT_SECRET'>) => new TextEncoder().encode(config.JWT_SECRET);

export async function signAccessToken(config: Pick<Config, 'JWT_SECRET'>, claims: AccessTokenClaims, now: number): Promise<string> {
  const iat = Math.floor(now / 1000);
  const { sub, ...rest } = claims;
  return new SignJWT(rest)
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(sub)
    .setIssuer(TOKEN_ISSUER)
    .setAudience(TOKEN_AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
    .sign(secretKey(config));
}

const stringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The claims of a valid token, or null for anything else (bad signature, algorithm, issuer, audience, expiry, shape). */
export async function verifyAccessToken(config: Pick<Config, 'JWT_SECRET'>, token: string, now: number): Promise<AccessTokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secretKey(config), {
      algorithms: [ALGORITHM],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
      currentDate: new Date(now),
      requiredClaims: ['sub', 'iat', 'exp'],
      clockTolerance: 5,
    });
    const { sub, email, name, roles, permissions, epoch, sid } = payload;
    if (!sub || !/^\d+$/.test(sub) || typeof email !== 'string' || typeof name !== 'string') return null;
    if (!stringArray(roles) || !stringArray(permissions) || typeof epoch !== 'number') return null;
    if (sid !== undefined && typeof sid !== 'string') return null;
    return { sub, email, name, roles, permissions, epoch, ...(sid ? { sid } : {}) };
  } catch {
    return null;
  }
}
