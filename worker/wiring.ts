// The composition root of the cross-cutting duties (docs/decisions/1040-one-registry-per-duty.md): every
// feature's undo handler, erase step and export section, put in one registry per duty. createApp hands the
// registries to the routes (c.var.duties) and the scheduler's jobs take them from here. A feature joins a duty
// by exporting its handler and adding one line below; it never imports the duty's owner.
import type { Duties, UndoRegistry } from './lib/duties';
import { undoFilmMerge } from './services/films/film-merge';
import { undoFilmVip1 } from './services/admin/films';
import { undoCommentApprove, undoCommentRemove, undoMemberBan, undoMemberMute } from './services/comments/moderation';
import { undoWordAdd, undoWordRemove } from './services/comments/words';

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

export const duties: Duties = { undo, erase: [], export: [] };
