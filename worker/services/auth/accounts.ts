import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { users, type User } from '../../db/schema';
import type { AppDeps } from '../../lib/context';
import { ApiError, badRequest, conflict, unauthorized } from '../../lib/errors';
import { enforceRateLimits, RATE_LIMITS } from '../rate-limit';
import { type AccessTokenClaims, signAccessToken } from './access-token';
import { verifyGoogleIdToken } from './google';
import { burnPasswordCheck, hashPassword, needsRehash, verifyPassword } from './password';
import { issueRefreshToken, revokeAllForUser, revokeFamilyOfToken, rotateRefreshToken } from './refresh-tokens';
import { newLink, voidLinks } from './email-links';
import { outboxInsert, outboxRow } from '../mail/outbox';
import { activeSubscriptions, withPlans } from '../payments/orders';
import { splitList } from './viewer';
import { consentForNewAccount } from '../privacy/consent';
import { CONSENT_FIELD, CONSENT_TEXTS } from '../../schemas/privacy';
import type { AccountDto, ChangePasswordInput } from '../../schemas/account';
import { MODERATION_TEXTS } from '../../schemas/values';
import {
  AUTH_MESSAGES,
  type LoginInput,
  type LoginResponse,
  RECOVERY_MESSAGES,
  type RefreshResponse,
  type RegisterInput,
} from '../../schemas/auth';

export type AuthDeps = Pick<AppDeps, 'db' | 'config' | 'now' | 'fetch'>;

const {
  loginFailed: LOGIN_FAILED,
  emailTaken: EMAIL_TAKEN,
  sessionExpired: SESSION_EXPIRED,
  googleLoginFailed: GOOGLE_FAILED,
  tooManyLogins: TOO_MANY_LOGINS,
  tooManySignups: TOO_MANY_SIGNUPS,
} = AUTH_MESSAGES;

export function toAccountDto(user: User): AccountDto {
  return {
    id: user.id,
    email: user.email,
    name: user.username,
    roles: splitList(user.roles),
    permissions: splitList(user.permissions),
    hasPassword: user.passwordHash !== null,
    googleLinked: user.googleSub !== null,
    emailVerified: user.emailVerifiedAt !== null,
    createdAt: user.createdAt,
    deletion:
      user.deletionDueAt === null
        ? null
        : {
            requestedAt: user.deletionRequestedAt ?? user.deletionDueAt,
            dueAt: user.deletionDueAt,
            comments: user.deletionComments ?? 'anonymise',
          },
  };
}

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return user;
}

export async function findUserById(db: Db, id: number): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

/** A session as the services issue it: the refresh token is always there; the route decides where it goes. */
export type IssuedSession = LoginResponse & { refreshToken: string };
export type RotatedSession = RefreshResponse & { refreshToken: string };

/** A banned member is refused every sign-in (password, Google, a passkey, any later way) with the reason (issue 33). */
export function assertNotBanned(user: Pick<User, 'bannedAt' | 'banReason'>): void {
  if (user.bannedAt !== null) throw new ApiError(403, 'banned', MODERATION_TEXTS.banned(user.banReason ?? ''));
}

/** The device a session is started or renewed on: its User-Agent (the account's device list). */
export interface DeviceContext {
  userAgent?: string;
}

/**
 * Access token + a new refresh-token family (a device): the login response. Every sign-in ends here, so a ban is
 * checked here.
 */
export async function startSession(deps: AuthDeps, user: User, device: DeviceContext = {}): Promise<IssuedSession> {
  assertNotBanned(user);
  const now = deps.now();
  const familyId = crypto.randomUUID();
  const claims = accessClaims(user, familyId);
  const [token, refreshToken] = await Promise.all([
    signAccessToken(deps.config, claims, now),
    issueRefreshToken(deps.db, user.id, now, familyId, { userAgent: device.userAgent ?? '', signedInAt: now }),
  ]);
  return {
    token,
    refreshToken,
    id: user.id,
    name: user.username,
    email: user.email,
    roles: claims.roles,
    // What the API will apply (admin-granted ∪ active subscriptions); the token itself carries only the
    // granted ones, and the API never trusts a token's permissions anyway (it reads the viewer per request).
    permissions: withPlans(claims.permissions, await activeSubscriptions(deps.db, user.id, now)),
  };
}

/** What an access token says about its user and device: the same at sign-in and at every refresh. */
function accessClaims(user: User, familyId: string): AccessTokenClaims {
  return {
    sub: String(user.id),
    email: user.email,
    name: user.username,
    roles: splitList(user.roles),
    permissions: splitList(user.permissions),
    epoch: user.sessionEpoch,
    sid: familyId,
  };
}

export async function registerUser(deps: AuthDeps, input: RegisterInput & { ip: string }): Promise<AccountDto> {
  const { db } = deps;
  await enforceRateLimits(
    db,
    [
      { key: `register:ip:${input.ip}`, ...RATE_LIMITS.registerPerIp },
      { key: `register:email:${input.email}`, ...RATE_LIMITS.registerPerEmail },
    ],
    deps.now(),
    TOO_MANY_SIGNUPS,
  );
  if (await findUserByEmail(db, input.email)) throw conflict(EMAIL_TAKEN);
  const passwordHash = await hashPassword(input.password);
  const now = deps.now();
  let user: User;
  try {
    const email = input.email.toLowerCase();
    // The account and its consent record (the ticked box: policy version and time) commit together.
    [[user]] = (await db.batch([
      db.insert(users).values({ email, username: input.name, passwordHash, createdAt: now, updatedAt: now }).returning(),
      consentForNewAccount(db, email, 'sign_up', now),
    ])) as [[User], unknown];
  } catch (err) {
    // Two sign-ups with one email at once: the unique index decides, the loser gets the same 409.
    if (isUniqueViolation(err)) throw conflict(EMAIL_TAKEN);
    throw err;
  }
  // The address typed at sign-up is checked by a link mailed to it (nothing else waits for it).
  await db.batch(await verificationStatements(deps, user, now));
  return toAccountDto(user);
}

/** The statements that void older verification links, store a new one and put its mail in the outbox. */
export async function verificationStatements(
  deps: Pick<AuthDeps, 'db' | 'config'>,
  user: Pick<User, 'id' | 'email' | 'username'>,
  now: number,
) {
  const link = await newLink(deps.db, { userId: user.id, purpose: 'verify_email', email: user.email, now });
  const mail = await outboxRow(
    deps.config,
    { kind: 'verify_email', to: user.email, userId: user.id, params: { name: user.username, token: link.token } },
    now,
  );
  return [...link.statements, outboxInsert(deps.db, [mail])] as const;
}

/** The "Mật khẩu của bạn đã được thay đổi" notice and the voiding of pending reset links, for a password change's batch. */
export async function passwordChangedStatements(
  deps: Pick<AuthDeps, 'db' | 'config'>,
  user: Pick<User, 'id' | 'email' | 'username'>,
  now: number,
) {
  const mail = await outboxRow(
    deps.config,
    { kind: 'password_changed', to: user.email, userId: user.id, params: { name: user.username } },
    now,
  );
  return [voidLinks(deps.db, user.id, ['password_reset'], now), outboxInsert(deps.db, [mail])] as const;
}

export async function login(deps: AuthDeps, input: LoginInput & { ip: string } & DeviceContext): Promise<IssuedSession> {
  return input.kind === 'google' ? loginWithGoogle(deps, input) : loginWithPassword(deps, input);
}

async function loginWithPassword(
  deps: AuthDeps,
  input: { email: string; password: string; ip: string } & DeviceContext,
): Promise<IssuedSession> {
  const { db } = deps;
  await enforceRateLimits(
    db,
    [
      { key: `login:ip:${input.ip}`, ...RATE_LIMITS.loginPerIp },
      { key: `login:email:${input.email}`, ...RATE_LIMITS.loginPerEmail },
    ],
    deps.now(),
    TOO_MANY_LOGINS,
  );
  const user = await findUserByEmail(db, input.email);
  if (!user?.passwordHash) {
    await burnPasswordCheck(input.password);
    throw unauthorized(LOGIN_FAILED);
  }
  if (!(await verifyPassword(input.password, user.passwordHash))) throw unauthorized(LOGIN_FAILED);
  if (needsRehash(user.passwordHash)) {
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(input.password), updatedAt: deps.now() })
      .where(eq(users.id, user.id));
  }
  return startSession(deps, user, input);
}

/**
 * Signs in by Google account: the linked user, else the user with that (Google-verified) email, which
 * gets linked, else a new password-less account.
 */
async function loginWithGoogle(
  deps: AuthDeps,
  input: { googleToken: string; acceptPrivacy?: boolean; ip: string } & DeviceContext,
): Promise<IssuedSession> {
  const { db, config } = deps;
  if (!config.GOOGLE_CLIENT_ID) throw badRequest('googleToken', 'Google sign-in is not configured on this server');
  await enforceRateLimits(db, [{ key: `login:ip:${input.ip}`, ...RATE_LIMITS.loginPerIp }], deps.now(), TOO_MANY_LOGINS);
  const identity = await verifyGoogleIdToken(input.googleToken, {
    clientId: config.GOOGLE_CLIENT_ID,
    jwksUrl: config.GOOGLE_JWKS_URL,
    fetch: deps.fetch,
    now: deps.now(),
  });
  if (!identity) throw unauthorized(GOOGLE_FAILED);
  const email = identity.email.toLowerCase();
  const now = deps.now();

  const [bySub] = await db.select().from(users).where(eq(users.googleSub, identity.sub)).limit(1);
  if (bySub) return startSession(deps, bySub, input);

  const byEmail = await findUserByEmail(db, email);
  if (byEmail) {
    if (byEmail.googleSub && byEmail.googleSub !== identity.sub)
      throw new ApiError(409, 'conflict', 'Email này đã được liên kết với một tài khoản Google khác.');
    // Google has verified this address: it counts as verified here too.
    const [linked] = await db
      .update(users)
      .set({ googleSub: identity.sub, emailVerifiedAt: byEmail.emailVerifiedAt ?? now, updatedAt: now })
      .where(eq(users.id, byEmail.id))
      .returning();
    return startSession(deps, linked!, input);
  }

  // A first Google sign-in creates an account: only with the privacy policy accepted (the web asks, then sends again).
  if (!input.acceptPrivacy) throw badRequest(CONSENT_FIELD, CONSENT_TEXTS.required);
  try {
    const [[created]] = await db.batch([
      db
        .insert(users)
        .values({
          email,
          // A Google name goes into mail later: one line, no control characters.
          username:
            (identity.name ?? email.split('@')[0]!)
              .replace(/[\u0000-\u001f\u007f]+/g, ' ')
              .trim()
              .slice(0, 60) || email.split('@')[0]!,
          googleSub: identity.sub,
          passwordHash: null,
          emailVerifiedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
      consentForNewAccount(db, email, 'google_sign_up', now),
    ]);
    return startSession(deps, created!, input);
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // A concurrent first sign-in created it a moment ago.
    const [again] = await db.select().from(users).where(eq(users.googleSub, identity.sub)).limit(1);
    if (!again) throw err;
    return startSession(deps, again, input);
  }
}

/** Rotates the refresh token; a replayed one has already revoked its family inside rotate. */
export async function refreshSession(deps: AuthDeps, refreshToken: string, device: DeviceContext = {}): Promise<RotatedSession> {
  const rotated = await rotateRefreshToken(deps.db, refreshToken, deps.now(), device.userAgent);
  if (!rotated.ok) throw unauthorized(SESSION_EXPIRED);
  const user = await findUserById(deps.db, rotated.userId);
  if (!user) throw unauthorized(SESSION_EXPIRED);
  if (user.bannedAt !== null) {
    // Banning revoked every family already; a token that slipped through ends here.
    await revokeAllForUser(deps.db, user.id, deps.now());
    throw unauthorized(SESSION_EXPIRED);
  }
  const tokennew = await signAccessToken(deps.config, accessClaims(user, rotated.familyId), deps.now());
  return { tokennew, refreshToken: rotated.token };
}

export async function logout(deps: AuthDeps, refreshToken: string): Promise<void> {
  await revokeFamilyOfToken(deps.db, refreshToken, deps.now());
}

export async function getAccount(db: Db, userId: number): Promise<AccountDto> {
  const user = await findUserById(db, userId);
  if (!user) throw unauthorized(SESSION_EXPIRED);
  return toAccountDto(user);
}

/** Retires every session of the user: refresh tokens revoked, access tokens refused by epoch. */
export async function logoutEverywhere(deps: AuthDeps, userId: number): Promise<User> {
  const now = deps.now();
  const [user] = await deps.db
    .update(users)
    .set({ sessionEpoch: sql`${users.sessionEpoch} + 1`, updatedAt: now })
    .where(eq(users.id, userId))
    .returning();
  if (!user) throw unauthorized(SESSION_EXPIRED);
  await revokeAllForUser(deps.db, userId, now);
  return user;
}

/**
 * Changes the password, signs out every other session (a thief holding a session loses it) and
 * returns a fresh session for the caller so this device stays signed in.
 */
export async function changePassword(
  deps: AuthDeps,
  userId: number,
  input: ChangePasswordInput,
  device: DeviceContext = {},
): Promise<IssuedSession> {
  const user = await findUserById(deps.db, userId);
  if (!user) throw unauthorized(SESSION_EXPIRED);
  if (user.passwordHash) {
    await enforceRateLimits(deps.db, [{ key: `password:user:${userId}`, ...RATE_LIMITS.loginPerEmail }], deps.now(), TOO_MANY_LOGINS);
    if (!input.currentPassword) throw badRequest('currentPassword', 'is required');
    if (!(await verifyPassword(input.currentPassword, user.passwordHash)))
      throw badRequest('currentPassword', RECOVERY_MESSAGES.wrongPassword);
  }
  const passwordHash = await hashPassword(input.newPassword);
  const now = deps.now();
  // The password and the session epoch (every other access token stops) in one write, as a reset does.
  const [[updated]] = await deps.db.batch([
    deps.db
      .update(users)
      .set({ passwordHash, sessionEpoch: sql`${users.sessionEpoch} + 1`, updatedAt: now })
      .where(eq(users.id, userId))
      .returning(),
    ...(await passwordChangedStatements(deps, user, now)),
  ]);
  if (!updated) throw unauthorized(SESSION_EXPIRED);
  await revokeAllForUser(deps.db, userId, now);
  return startSession(deps, updated, device);
}
