// The consent feature's part of "Tải dữ liệu của tôi" (docs/export-format.md): every consent the member gave, with
// the policy version, when and how. Its rows go with the account (the foreign key cascades on erasure).
import { asc, eq } from 'drizzle-orm';
import { consentRecords } from '../../db/schema';
import type { ExportSection } from '../../lib/duties';

export const exportConsents: ExportSection = {
  key: 'consents',
  read: (db, userId) =>
    db
      .select({ policyVersion: consentRecords.policyVersion, acceptedAt: consentRecords.acceptedAt, method: consentRecords.method })
      .from(consentRecords)
      .where(eq(consentRecords.userId, userId))
      .orderBy(asc(consentRecords.acceptedAt), asc(consentRecords.id)),
};
