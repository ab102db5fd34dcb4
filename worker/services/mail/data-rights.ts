// Mail in erasure and export (docs/decisions/1041, docs/export-format.md).
import { and, asc, eq, gte, or } from 'drizzle-orm';
import { mailOutbox } from '../../db/schema';
import type { EraseStep, ExportSection } from '../../lib/duties';

/** The export lists mail of the last 30 days (the outbox keeps sent mail about that long). */
const EXPORT_MAIL_DAYS = 30;

export const eraseMail: EraseStep = {
  name: 'mail',
  async erase(tx, member) {
    await tx.delete(mailOutbox).where(or(eq(mailOutbox.userId, member.id), eq(mailOutbox.toAddress, member.email)));
  },
};

/** What was mailed and when: the kind and the date, never the contents (a sealed link). */
export const exportMail: ExportSection = {
  key: 'mails',
  read: (db, userId, now) =>
    db
      .select({ kind: mailOutbox.kind, createdAt: mailOutbox.createdAt, status: mailOutbox.status, sentAt: mailOutbox.sentAt })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.userId, userId), gte(mailOutbox.createdAt, now - EXPORT_MAIL_DAYS * 86_400_000)))
      .orderBy(asc(mailOutbox.createdAt), asc(mailOutbox.id)),
};
