// The composition root of the cross-cutting duties (docs/decisions/1040-one-registry-per-duty.md): every
// feature's undo handler, erase step and export section, put in one registry per duty. createApp hands the
// registries to the routes (c.var.duties) and the scheduler's jobs take them from here. A feature joins a duty
// by exporting its handler and adding one line below; it never imports the duty's owner.
import type { Duties, EraseStep, ExportSection, UndoRegistry } from './lib/duties';
import { undoFilmMerge } from './services/films/film-merge';
import { undoFilmVip1 } from './services/admin/films';
import { undoCommentApprove, undoCommentRemove, undoMemberBan, undoMemberMute } from './services/comments/moderation';
import { undoWordAdd, undoWordRemove } from './services/comments/words';
import { eraseSignIns, exportAccount, exportDevices, exportPasskeys } from './services/auth/data-rights';
import { eraseLibrary, exportHistory, exportWatchlist } from './services/library/data-rights';
import { erasePush, exportPush } from './services/push/data-rights';
import { eraseRatings, exportRatings } from './services/ratings/data-rights';
import { eraseComments, exportComments, exportHiddenAuthors, exportReports } from './services/comments/data-rights';
import { detachMoney, exportOrders, exportSubscriptions } from './services/payments/data-rights';
import { eraseMail, exportMail } from './services/mail/data-rights';
import { eraseAdminTraces } from './services/admin/data-rights';
import { exportConsents } from './services/privacy/data-rights';

/** Every action that can be undone from the audit log, and how. */
const undo: UndoRegistry = {
  'film.vip1': undoFilmVip1,
  'film.merge': undoFilmMerge,
  // Comment moderation (docs/decisions/0230-comment-moderation.md).
  'comment.approve': undoCommentApprove,
  'comment.remove': undoCommentRemove,
  'user.mute': undoMemberMute,
  'user.ban': undoMemberBan,
  'comment_word.add': undoWordAdd,
  'comment_word.remove': undoWordRemove,
};

/**
 * What erasing a member removes or detaches, in order, inside one transaction (docs/decisions/1041); the owner
 * (services/account/erasure.ts) then deletes the users row. Money is detached, never deleted.
 */
const erase: EraseStep[] = [eraseSignIns, eraseLibrary, erasePush, eraseRatings, eraseComments, detachMoney, eraseMail, eraseAdminTraces];

/** The export file's sections, in file order (docs/export-format.md). */
const exportSections: ExportSection[] = [
  exportAccount,
  exportDevices,
  exportPasskeys,
  exportWatchlist,
  exportHistory,
  exportRatings,
  exportComments,
  exportReports,
  exportHiddenAuthors,
  exportPush,
  exportOrders,
  exportSubscriptions,
  exportMail,
  exportConsents,
];

export const duties: Duties = { undo, erase, export: exportSections };
