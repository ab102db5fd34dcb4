// Passkeys (WebAuthn) with @simplewebauthn/server (docs/decisions/0980): added from /account, used on
// /dang-nhap (the browser's autofill and a button). The RP ID is PUBLIC_URL's host (a loopback address maps to
// `localhost`: browsers refuse an IP address as RP ID); the expected origin is PUBLIC_URL's. Challenges are
// rows used once (deleted by the answer that claims them) and live 5 minutes; the signature counter, the
// origin, the RP ID and the user handle are checked.
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, AuthenticatorTransport, RegistrationResponseJSON } from '@simplewebauthn/server';
import { and, asc, count, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { passkeys, webauthnChallenges } from '../../db/schema';
import { ApiError, unauthorized } from '../../lib/errors';
import { fromBase64Url, toBase64Url } from '../../lib/bytes';
import { type addPasskeyBodySchema, MAX_PASSKEYS, type PasskeyDto } from '../../schemas/account';
import type { passkeyLoginBodySchema } from '../../schemas/auth';
import { PASSKEY_MESSAGES } from '../../schemas/account-texts';
import { enforceRateLimits, RATE_LIMITS } from '../rate-limit';
import { type AuthDeps, type DeviceContext, findUserById, type IssuedSession, startSession } from './accounts';
import { describeUserAgent } from './devices';
import { SITE_NAME } from '../mail/message';
import { isLoopbackHost } from '../../lib/loopback';

const CHALLENGE_TTL_MS = 5 * 60_000;

export interface RelyingParty {
  id: string;
  origins: string[];
}

/** The RP ID and the origins answers may come from; null when PUBLIC_URL is a non-loopback IP address. */
export function relyingParty(config: Pick<Config, 'PUBLIC_URL'>): RelyingParty | null {
  const url = new URL(config.PUBLIC_URL);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isLoopbackHost(host)) {
    const local = new URL(url.origin);
    local.hostname = 'localhost';
    return { id: 'localhost', origins: [...new Set([url.origin, local.origin])] };
  }
  if (/^[\d.]+$/.test(host) || host.includes(':')) return null;
  return { id: host, origins: [url.origin] };
}

function requireRp(config: Pick<Config, 'PUBLIC_URL'>): RelyingParty {
  const rp = relyingParty(config);
  if (!rp) throw new ApiError(503, 'passkey_unavailable', PASSKEY_MESSAGES.unavailable);
  return rp;
}

/** The WebAuthn user handle of an account (what the authenticator hands back on sign-in). */
const userHandle = (userId: number) => new Uint8Array(new TextEncoder().encode(`phimviet:${userId}`));

const badRequest = (code: string, message: string) => new ApiError(400, code, `response: ${message}`);

/** The challenge the browser signed, from clientDataJSON; null when it cannot be read. */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const json = new TextDecoder().decode(fromBase64Url(clientDataJSON));
    const challenge = (JSON.parse(json) as { challenge?: unknown }).challenge;
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 512 ? challenge : null;
  } catch {
    return null;
  }
}

/** Uses a challenge once: the delete that removes it is the claim (a second answer, or an expired one, finds nothing). */
async function claimChallenge(
  db: Db,
  clientDataJSON: string,
  purpose: 'register' | 'login',
  userId: number | null,
  now: number,
): Promise<string> {
  const challenge = challengeOf(clientDataJSON);
  if (!challenge) throw badRequest('passkey_challenge', PASSKEY_MESSAGES.challengeInvalid);
  const claimed = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, userId),
        gt(webauthnChallenges.expiresAt, now),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  if (claimed.length === 0) throw badRequest('passkey_challenge', PASSKEY_MESSAGES.challengeInvalid);
  return challenge;
}

function toDto(row: typeof passkeys.$inferSelect): PasskeyDto {
  return { id: row.id, name: row.name, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt, synced: row.backedUp };
}

export async function listPasskeys(db: Db, userId: number): Promise<PasskeyDto[]> {
  const rows = await db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt));
  return rows.map(toDto);
}

/** POST /api/account/passkeys/options: a registration challenge for this member (their passkeys excluded). */
export async function passkeyRegistrationOptions(deps: AuthDeps, userId: number) {
  const rp = requireRp(deps.config);
  const user = await findUserById(deps.db, userId);
  if (!user) throw unauthorized();
  const existing = await deps.db
    .select({ id: passkeys.id, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, userId));
  if (existing.length >= MAX_PASSKEYS) throw new ApiError(409, 'conflict', PASSKEY_MESSAGES.limit);
  const options = await generateRegistrationOptions({
    rpName: SITE_NAME,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.username,
    userID: userHandle(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: JSON.parse(c.transports) as AuthenticatorTransport[] })),
    // A discoverable credential, so the sign-in page can offer it without an email (autofill, the button).
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    timeout: CHALLENGE_TTL_MS,
  });
  const now = deps.now();
  await deps.db.batch([
    deps.db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now)),
    deps.db
      .insert(webauthnChallenges)
      .values({ challenge: options.challenge, purpose: 'register', userId, expiresAt: now + CHALLENGE_TTL_MS }),
  ]);
  return options;
}

/** POST /api/account/passkeys: checks the authenticator's answer against this member's challenge, keeps the passkey. */
export async function addPasskey(
  deps: AuthDeps,
  userId: number,
  input: z.infer<typeof addPasskeyBodySchema>,
  device: DeviceContext,
): Promise<PasskeyDto> {
  const rp = requireRp(deps.config);
  const now = deps.now();
  const challenge = await claimChallenge(deps.db, input.response.response.clientDataJSON, 'register', userId, now);
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch {
    throw badRequest('passkey_invalid', PASSKEY_MESSAGES.verifyFailed);
  }
  if (!verification.verified) throw badRequest('passkey_invalid', PASSKEY_MESSAGES.verifyFailed);
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  const [{ n } = { n: 0 }] = await deps.db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  if (n >= MAX_PASSKEYS) throw new ApiError(409, 'conflict', PASSKEY_MESSAGES.limit);
  const described = describeUserAgent(device.userAgent ?? '');
  const name = input.name ?? `${described.browser.replace(/ \d+$/, '')} trên ${described.os.replace(/ [\d.]+$/, '')}`;
  try {
    const [row] = await deps.db
      .insert(passkeys)
      .values({
        id: credential.id,
        userId,
        publicKey: toBase64Url(credential.publicKey),
        counter: credential.counter,
        transports: JSON.stringify(credential.transports ?? input.response.response.transports ?? []),
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
        name,
        createdAt: now,
      })
      .returning();
    return toDto(row!);
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(409, 'conflict', PASSKEY_MESSAGES.alreadyAdded);
    throw err;
  }
}

/** DELETE /api/account/passkeys/{id}: a removed passkey signs nobody in any more. */
export async function removePasskey(db: Db, userId: number, id: string): Promise<void> {
  const removed = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  if (removed.length === 0) throw new ApiError(404, 'not_found', PASSKEY_MESSAGES.notFound);
}

/** POST /api/auth/passkey/options: a sign-in challenge for any discoverable passkey of this site. */
export async function passkeyLoginOptions(deps: AuthDeps, ip: string) {
  const rp = requireRp(deps.config);
  const now = deps.now();
  await enforceRateLimits(deps.db, [{ key: `passkey:ip:${ip}`, ...RATE_LIMITS.passkeyPerIp }], now, PASSKEY_MESSAGES.tooMany);
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'preferred', timeout: CHALLENGE_TTL_MS });
  await deps.db.batch([
    deps.db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now)),
    deps.db
      .insert(webauthnChallenges)
      .values({ challenge: options.challenge, purpose: 'login', userId: null, expiresAt: now + CHALLENGE_TTL_MS }),
  ]);
  return options;
}

/** POST /api/auth/passkey/login: the signed challenge → a session, as a password sign-in gives. */
export async function loginWithPasskey(
  deps: AuthDeps,
  input: z.infer<typeof passkeyLoginBodySchema> & { ip: string } & DeviceContext,
): Promise<IssuedSession> {
  const rp = requireRp(deps.config);
  const { db } = deps;
  const now = deps.now();
  await enforceRateLimits(db, [{ key: `passkey:ip:${input.ip}`, ...RATE_LIMITS.passkeyPerIp }], now, PASSKEY_MESSAGES.tooMany);
  const answer = input.response;
  const challenge = await claimChallenge(db, answer.response.clientDataJSON, 'login', null, now);
  const [stored] = await db.select().from(passkeys).where(eq(passkeys.id, answer.id)).limit(1);
  if (!stored) throw badRequest('passkey_unknown', PASSKEY_MESSAGES.unknownPasskey);
  if (answer.response.userHandle !== undefined && answer.response.userHandle !== toBase64Url(userHandle(stored.userId)))
    throw badRequest('passkey_wrong_user', PASSKEY_MESSAGES.wrongUser);
  let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verification = await verifyAuthenticationResponse({
      response: answer as AuthenticationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      credential: {
        id: stored.id,
        publicKey: fromBase64Url(stored.publicKey),
        counter: stored.counter,
        transports: JSON.parse(stored.transports) as AuthenticatorTransport[],
      },
      requireUserVerification: false,
    });
  } catch {
    throw badRequest('passkey_invalid', PASSKEY_MESSAGES.verifyFailed);
  }
  if (!verification.verified) throw badRequest('passkey_invalid', PASSKEY_MESSAGES.verifyFailed);
  // The counter moves forward only (a cloned authenticator replaying an old count was refused above); a
  // concurrent sign-in with the same passkey must not move it back.
  const used = await db
    .update(passkeys)
    .set({
      counter: verification.authenticationInfo.newCounter,
      lastUsedAt: now,
      backedUp: verification.authenticationInfo.credentialBackedUp,
    })
    .where(and(eq(passkeys.id, stored.id), or(eq(passkeys.counter, stored.counter), eq(passkeys.counter, 0))))
    .returning({ userId: passkeys.userId });
  if (used.length === 0) throw badRequest('passkey_invalid', PASSKEY_MESSAGES.verifyFailed);
  const user = await findUserById(db, stored.userId);
  if (!user) throw badRequest('passkey_unknown', PASSKEY_MESSAGES.unknownPasskey);
  return startSession(deps, user, input);
}
