// Consent to the privacy policy, kept as a record (docs/decisions/1050): every acceptance adds a row with the
// policy's version, the time and how it was given, so a later version or a withdrawal never rewrites the proof.
import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { consentRecords, users } from '../../db/schema';
import { conflict } from '../../lib/errors';
import { CONSENT_TEXTS, type ConsentStatus, PRIVACY_POLICY_VERSION } from '../../schemas/privacy';

export type ConsentMethod = (typeof consentRecords.$inferInsert)['method'];

/**
 * The consent row of the account with this (lower-case) email, as a statement to batch with the insert that
 * creates the account: both commit together or neither does.
 */
export function consentForNewAccount(db: Db, email: string, method: ConsentMethod, now: number) {
  return db.insert(consentRecords).select(
    db
      .select({
        id: sql<null>`null`.as('id'),
        userId: users.id,
        policyVersion: sql<string>`${PRIVACY_POLICY_VERSION}`.as('policy_version'),
        acceptedAt: sql<number>`${now}`.as('accepted_at'),
        method: sql<ConsentMethod>`${method}`.as('method'),
      })
      .from(users)
      .where(eq(users.email, email)),
  );
}

export async function consentStatus(db: Db, userId: number): Promise<ConsentStatus> {
  const [latest] = await db
    .select({ version: consentRecords.policyVersion, acceptedAt: consentRecords.acceptedAt })
    .from(consentRecords)
    .where(eq(consentRecords.userId, userId))
    .orderBy(desc(consentRecords.acceptedAt), desc(consentRecords.id))
    .limit(1);
  return {
    currentVersion: PRIVACY_POLICY_VERSION,
    acceptedVersion: latest?.version ?? null,
    acceptedAt: latest?.acceptedAt ?? null,
    needed: latest?.version !== PRIVACY_POLICY_VERSION,
  };
}

/**
 * The member accepted the version they were shown (the prompt after a new version). Accepting the current
 * version again adds nothing; a version that is no longer current is refused (the page shows the new one).
 */
export async function acceptConsent(db: Db, userId: number, version: string, now: number): Promise<ConsentStatus> {
  if (version !== PRIVACY_POLICY_VERSION) throw conflict(CONSENT_TEXTS.staleVersion);
  const status = await consentStatus(db, userId);
  if (!status.needed) return status;
  await db.insert(consentRecords).values({ userId, policyVersion: version, acceptedAt: now, method: 'prompt' });
  return { ...status, acceptedVersion: version, acceptedAt: now, needed: false };
}
