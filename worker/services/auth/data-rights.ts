// The account's part in erasure and export (docs/decisions/1041, docs/export-format.md): sign-in methods,
// devices, passkeys, mailed links and the rate-limit counters that name the member. The users row itself is
// removed by the erasure's owner after every step.
import { and, asc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { emailTokens, passkeys, rateLimits, refreshTokens, users, webauthnChallenges } from '../../db/schema';
import type { EraseStep, ExportSection } from '../../lib/duties';
import { splitList } from './viewer';

export const eraseSignIns: EraseStep = {
  name: 'sign-ins',
  async erase(tx, member) {
    await tx.delete(refreshTokens).where(eq(refreshTokens.userId, member.id));
    await tx.delete(emailTokens).where(or(eq(emailTokens.userId, member.id), eq(emailTokens.email, member.email)));
    await tx.delete(passkeys).where(eq(passkeys.userId, member.id));
    await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, member.id));
    // Counters keyed by the address ('login:email:…', 'forgot:email:…') or by the member ('comment:user:12').
    await tx
      .delete(rateLimits)
      .where(
        or(
          sql`lower(${rateLimits.key}) like ${`%:email:${member.email.toLowerCase()}`}`,
          sql`${rateLimits.key} like ${`%:user:${member.id}`}`,
        ),
      );
  },
};

/** The account and how the member signs in; never a hash, token or key. */
export const exportAccount: ExportSection = {
  key: 'account',
  async read(db, userId) {
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (!user) return null;
    return {
      id: user.id,
      email: user.email,
      name: user.username,
      emailVerified: user.emailVerifiedAt !== null,
      roles: splitList(user.roles),
      permissions: splitList(user.permissions),
      createdAt: user.createdAt,
      signInMethods: { password: user.passwordHash !== null, google: user.googleSub !== null },
      muted: user.mutedAt === null ? null : { since: user.mutedAt, until: user.mutedUntil, reason: user.muteReason },
      deletion: user.deletionDueAt === null ? null : { requestedAt: user.deletionRequestedAt, dueAt: user.deletionDueAt },
    };
  },
};

/** Signed-in devices: the browser and when it signed in and was last active. */
export const exportDevices: ExportSection = {
  key: 'devices',
  async read(db, userId, now) {
    return db
      .select({
        userAgent: refreshTokens.userAgent,
        signedInAt: sql<number>`min(${refreshTokens.signedInAt})`,
        lastActiveAt: sql<number>`max(${refreshTokens.createdAt})`,
      })
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt), gt(refreshTokens.expiresAt, now)))
      .groupBy(refreshTokens.familyId, refreshTokens.userAgent)
      .orderBy(asc(sql`min(${refreshTokens.signedInAt})`));
  },
};

/** Passkeys: names and dates, never the credential id or public key. */
export const exportPasskeys: ExportSection = {
  key: 'passkeys',
  read: (db, userId) =>
    db
      .select({
        name: passkeys.name,
        createdAt: passkeys.createdAt,
        lastUsedAt: passkeys.lastUsedAt,
        syncedBetweenDevices: passkeys.backedUp,
      })
      .from(passkeys)
      .where(eq(passkeys.userId, userId))
      .orderBy(asc(passkeys.createdAt), asc(passkeys.name)),
};
