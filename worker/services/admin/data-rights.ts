// The back office's part in erasure (docs/decisions/1041): audit entries about the member (roles, VIP grants,
// mutes, bans, password resets) go; entries the member wrote as an admin stay with their address removed (the
// actor id is set null by the foreign key). Error reports and authorship columns lose the member the same way.
import { and, eq, like } from 'drizzle-orm';
import { auditLog, deletedFilms, errorReports } from '../../db/schema';
import type { EraseStep } from '../../lib/duties';

export const eraseAdminTraces: EraseStep = {
  name: 'admin-traces',
  async erase(tx, member) {
    await tx.delete(auditLog).where(and(like(auditLog.action, 'user.%'), eq(auditLog.target, String(member.id))));
    await tx.update(auditLog).set({ actorEmail: '' }).where(eq(auditLog.actorEmail, member.email));
    await tx.update(deletedFilms).set({ deletedByEmail: '' }).where(eq(deletedFilms.deletedByEmail, member.email));
    await tx.update(errorReports).set({ userId: null }).where(eq(errorReports.userId, member.id));
  },
};
