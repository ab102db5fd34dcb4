// Comment moderation (issue 33, docs/decisions/0230-comment-moderation.md): the queue of held and reported comments
// at /admin/binh-luan, and what a moderator does with one (approve, remove with a reason the author sees, mute the
// author, ban the account). Admins moderate every thread; a VIP2 uploader the threads of the films they added, and
// mutes for a day or a week at most; bans are admins'. Every action is audited with its author and reason, in the
// same transaction as the change, and has an undo (audit-undo.ts). What the rooms must hear is returned as pushes
// for the route to send after its answer.
import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, min, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditLog, commentReports, comments, films, refreshTokens, users } from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { ApiError, conflict, forbidden, notFound } from '../../lib/errors';
import type {
  ModerationActionResponse,
  ModerationItem,
  ModerationQueueQuery,
  ModerationQueueResponse,
  MuteBody,
} from '../../schemas/moderation';
import { MODERATION_PAGE_SIZE } from '../../schemas/moderation';
import { type CommentReportReason, MODERATION_TEXTS, type MuteDuration, UPLOADER_MUTE_DURATIONS } from '../../schemas/values';
import type { RoomPush } from '../../../party/messages';
import { auditInsert } from '../admin/audit';
import type { AfterUndo, UndoHandler } from '../../lib/duties';
import type { FilmTx } from '../films/film-writer';
import { splitList } from '../auth/viewer';
import { activeMute, visibleCommentDto } from './comments';
import { pushAll } from './room-push';
import { bumpCatalogueVersion } from './visibility';

export type Moderator = Pick<Viewer, 'id' | 'email' | 'roles' | 'permissions'>;
export interface RoomMessage {
  slug: string;
  message: RoomPush;
}
export type ActionResult = ModerationActionResponse & { pushes: RoomMessage[] };

const DAY = 24 * 60 * 60 * 1000;
const MUTE_MS: Record<Exclude<MuteDuration, 'forever'>, number> = { '1d': DAY, '7d': 7 * DAY, '30d': 30 * DAY };
/** A muted or banned member's open pages are most likely of films they commented on lately: their rooms are told. */
const REFUSE_ROOMS_WINDOW_MS = 30 * DAY;
const REFUSE_ROOMS_MAX = 20;

const isAdmin = (m: Pick<Viewer, 'roles'>) => m.roles.includes('admin');

/** The films a VIP2 uploader moderates (theirs); no condition for an admin. */
const scopeOf = (m: Pick<Moderator, 'id' | 'roles'>): SQL | undefined => (isAdmin(m) ? undefined : eq(films.createdBy, m.id));

// ---------------------------------------------------------------------------------------------------------------
// The queue

/** GET /api/admin/comments: held and reported comments of the threads the moderator looks after. */
export async function moderationQueue(
  db: Db,
  moderator: Moderator,
  query: ModerationQueueQuery,
  now: number,
): Promise<ModerationQueueResponse> {
  const scope = scopeOf(moderator);
  const inQueue = and(isNotNull(comments.queuedAt), scope);
  const where = and(
    inQueue,
    query.filter === 'held' ? eq(comments.status, 'held') : query.filter === 'reported' ? gt(comments.openReports, 0) : undefined,
  );
  const author = sql`${comments.userId}`;
  const [rows, [total], [summary]] = await db.batch([
    db
      .select({
        id: comments.id,
        body: comments.body,
        rawBody: comments.rawBody,
        status: comments.status,
        holdReason: comments.holdReason,
        spoiler: comments.spoiler,
        episode: comments.episode,
        parentId: comments.parentId,
        createdAt: comments.createdAt,
        queuedAt: comments.queuedAt,
        openReports: comments.openReports,
        slug: films.slug,
        title: films.title,
        authorId: users.id,
        username: users.username,
        email: users.email,
        authorCreatedAt: users.createdAt,
        mutedAt: users.mutedAt,
        mutedUntil: users.mutedUntil,
        muteReason: users.muteReason,
        bannedAt: users.bannedAt,
        banReason: users.banReason,
        comments: sql<number>`(select count(*) from comments h where h.user_id = ${author})`,
        removed: sql<number>`(select count(*) from comments h where h.user_id = ${author} and h.status = 'removed')`,
        reportsAgainst: sql<number>`(select count(*) from comment_reports r join comments h on h.id = r.comment_id where h.user_id = ${author})`,
      })
      .from(comments)
      .innerJoin(films, eq(films.id, comments.filmId))
      .innerJoin(users, eq(users.id, comments.userId))
      .where(where)
      .orderBy(...(query.sort === 'reports' ? [desc(comments.openReports), asc(comments.queuedAt)] : [desc(comments.id)]))
      .limit(MODERATION_PAGE_SIZE)
      .offset((query.page - 1) * MODERATION_PAGE_SIZE),
    db.select({ n: count() }).from(comments).innerJoin(films, eq(films.id, comments.filmId)).where(where),
    queueSummaryQuery(db, moderator),
  ]);
  const ids = rows.map((r) => r.id);
  const reports = ids.length
    ? await db
        .select({ commentId: commentReports.commentId, reason: commentReports.reason, note: commentReports.note })
        .from(commentReports)
        .where(and(inArray(commentReports.commentId, ids), isNull(commentReports.resolvedAt)))
        .orderBy(asc(commentReports.id))
    : [];
  const data: ModerationItem[] = rows.map((r) => {
    const mine = reports.filter((x) => x.commentId === r.id);
    const byReason: Partial<Record<CommentReportReason, number>> = {};
    for (const x of mine) byReason[x.reason as CommentReportReason] = (byReason[x.reason as CommentReportReason] ?? 0) + 1;
    const mute = activeMute(r, now);
    return {
      id: r.id,
      text: r.body,
      rawText: r.rawBody,
      status: r.status === 'removed' ? 'hidden' : r.status,
      holdReason: (r.holdReason as ModerationItem['holdReason']) ?? null,
      spoiler: r.spoiler,
      film: { slug: r.slug, title: r.title },
      episode: r.episode,
      parentId: r.parentId,
      createdAt: r.createdAt,
      queuedAt: r.queuedAt ?? r.createdAt,
      author: {
        id: r.authorId,
        username: r.username,
        email: r.email,
        createdAt: r.authorCreatedAt,
        history: { comments: Number(r.comments), removed: Number(r.removed), reportsAgainst: Number(r.reportsAgainst) },
        mute: mute ? { until: mute.until, reason: mute.reason } : null,
        banned: r.bannedAt !== null ? { at: r.bannedAt, reason: r.banReason ?? '' } : null,
      },
      reports: { count: r.openReports, byReason, notes: mine.map((x) => x.note).filter(Boolean) },
    };
  });
  const totalItems = total?.n ?? 0;
  return {
    data,
    pagination: {
      page: query.page,
      pageSize: MODERATION_PAGE_SIZE,
      totalItems,
      totalPages: Math.max(1, Math.ceil(totalItems / MODERATION_PAGE_SIZE)),
    },
    summary: { open: summary?.n ?? 0, oldestAt: summary?.oldest ?? null },
  };
}

/** The size of the queue the moderator looks after and its oldest item's time, unexecuted (for a batch). */
function queueSummaryQuery(db: Db, moderator: Pick<Moderator, 'id' | 'roles'>) {
  return db
    .select({ n: count(), oldest: min(comments.queuedAt) })
    .from(comments)
    .innerJoin(films, eq(films.id, comments.filmId))
    .where(and(isNotNull(comments.queuedAt), scopeOf(moderator)));
}

/** The queue's size and its oldest item's age, for the dashboard (in the moderator's scope). */
export async function moderationSummary(
  db: Db,
  moderator: Pick<Moderator, 'id' | 'roles'>,
): Promise<{ open: number; oldestAt: number | null }> {
  const [row] = await queueSummaryQuery(db, moderator);
  return { open: row?.n ?? 0, oldestAt: row?.oldest ?? null };
}

// ---------------------------------------------------------------------------------------------------------------
// Decisions on a comment

async function commentForModeration(db: Db | FilmTx, moderator: Moderator | null, commentId: number) {
  const [row] = await db
    .select({
      id: comments.id,
      userId: comments.userId,
      status: comments.status,
      queuedAt: comments.queuedAt,
      openReports: comments.openReports,
      spoiler: comments.spoiler,
      parentId: comments.parentId,
      body: comments.body,
      createdAt: comments.createdAt,
      episode: comments.episode,
      slug: films.slug,
      filmOwner: films.createdBy,
      username: users.username,
    })
    .from(comments)
    .innerJoin(films, eq(films.id, comments.filmId))
    .innerJoin(users, eq(users.id, comments.userId))
    .where(eq(comments.id, commentId));
  if (!row) throw notFound(MODERATION_TEXTS.commentNotFound);
  if (moderator && !isAdmin(moderator) && row.filmOwner !== moderator.id) throw forbidden(MODERATION_TEXTS.notYourThread);
  return row;
}
type ModeratedComment = Awaited<ReturnType<typeof commentForModeration>>;

interface DecisionRecord {
  status: 'visible' | 'held' | 'hidden' | 'removed';
  queuedAt: number | null;
  openReports: number;
  spoiler: boolean;
  /** The reports this decision resolved: an undo opens them again. */
  reportIds: number[];
}

/** Resolves the comment's open reports in `tx`; answers their ids. */
async function resolveReports(tx: FilmTx, commentId: number, now: number): Promise<number[]> {
  const resolved = await tx
    .update(commentReports)
    .set({ resolvedAt: now })
    .where(and(eq(commentReports.commentId, commentId), isNull(commentReports.resolvedAt)))
    .returning({ id: commentReports.id });
  return resolved.map((r) => r.id);
}

/** The comment's state is still the one read (two moderators deciding at once: the second gets 409). */
const unchanged = (row: ModeratedComment) =>
  and(
    eq(comments.id, row.id),
    eq(comments.status, row.status),
    row.queuedAt === null ? isNull(comments.queuedAt) : eq(comments.queuedAt, row.queuedAt),
  );

/**
 * One decision on a comment, in one transaction: the change (only while the comment is as it was read, else 409),
 * its reports resolved, the public version bumped when readers see something new, and the audit entry with what
 * the undo needs. Answers the audit entry's id.
 */
async function decide(
  db: Db,
  moderator: Moderator,
  row: ModeratedComment,
  decision: {
    set: Partial<typeof comments.$inferInsert>;
    action: 'comment.approve' | 'comment.remove';
    after: Record<string, unknown>;
    changesWhatReadersSee: boolean;
  },
  now: number,
): Promise<number> {
  return db.transaction(async (tx) => {
    const changed = await tx.update(comments).set(decision.set).where(unchanged(row)).returning({ id: comments.id });
    if (!changed.length) throw conflict(MODERATION_TEXTS.alreadyDecided);
    const reportIds = await resolveReports(tx, row.id, now);
    if (decision.changesWhatReadersSee) await bumpCatalogueVersion(tx);
    const before: DecisionRecord = {
      status: row.status,
      queuedAt: row.queuedAt,
      openReports: row.openReports,
      spoiler: row.spoiler,
      reportIds,
    };
    const [audit] = await auditInsert(
      tx,
      moderator,
      { action: decision.action, target: row.id, before, after: { ...decision.after, film: row.slug } },
      now,
    ).returning({ id: auditLog.id });
    return audit!.id;
  });
}

/**
 * POST /api/admin/comments/{id}/approve: the comment stays (or becomes) visible to all; its reports are cleared.
 * `spoiler` marks it as a spoiler at the same time (a spoiler report upheld without a removal).
 */
export async function approveComment(
  db: Db,
  moderator: Moderator,
  commentId: number,
  input: { reason?: string; spoiler?: boolean },
  now: number,
): Promise<ActionResult> {
  const row = await commentForModeration(db, moderator, commentId);
  if (row.status === 'removed' || (row.status === 'visible' && row.queuedAt === null && !input.spoiler))
    throw conflict(MODERATION_TEXTS.alreadyDecided);
  const spoiler = input.spoiler === true || row.spoiler;
  const changesWhatReadersSee = row.status !== 'visible' || spoiler !== row.spoiler;
  const auditId = await decide(
    db,
    moderator,
    row,
    {
      set: { status: 'visible', queuedAt: null, openReports: 0, spoiler },
      action: 'comment.approve',
      after: { status: 'visible', spoiler, reason: input.reason ?? null },
      changesWhatReadersSee,
    },
    now,
  );
  const pushes: RoomMessage[] = changesWhatReadersSee
    ? [{ slug: row.slug, message: { type: 'comment', comment: visibleCommentDto({ ...row, spoiler }) } }]
    : [];
  return { message: MODERATION_TEXTS.approved, auditId, pushes };
}

/**
 * POST /api/admin/comments/{id}/remove: taken down for everyone, with a reason its author sees. Every open page
 * drops it (or keeps "Bình luận đã bị gỡ" over its replies) through the room.
 */
export async function removeComment(
  db: Db,
  moderator: Moderator,
  commentId: number,
  input: { reason: string },
  now: number,
): Promise<ActionResult> {
  const row = await commentForModeration(db, moderator, commentId);
  if (row.status === 'removed') throw conflict(MODERATION_TEXTS.alreadyDecided);
  const auditId = await decide(
    db,
    moderator,
    row,
    {
      set: { status: 'removed', queuedAt: null, openReports: 0, removedAt: now, removedBy: moderator.id, removalReason: input.reason },
      action: 'comment.remove',
      after: { status: 'removed', reason: input.reason },
      changesWhatReadersSee: true,
    },
    now,
  );
  return {
    message: MODERATION_TEXTS.removedOk,
    auditId,
    pushes: [{ slug: row.slug, message: { type: 'withdraw', id: row.id, state: 'removed', authorId: row.userId, reason: input.reason } }],
  };
}

const isDecisionRecord = (v: unknown): v is DecisionRecord =>
  typeof v === 'object' &&
  v !== null &&
  ['visible', 'held', 'hidden', 'removed'].includes((v as DecisionRecord).status) &&
  Array.isArray((v as DecisionRecord).reportIds);

const notUndoable = () => new ApiError(409, 'not_undoable', 'Mục nhật ký thiếu dữ liệu để hoàn tác.');
const changedSince = () => conflict('Bình luận đã được xử lý lại sau thao tác này; không thể hoàn tác.');

/** Puts a decided comment back as the entry's before recorded it, its reports open again. */
async function restoreDecision(tx: FilmTx, commentId: number, expected: 'visible' | 'removed', before: DecisionRecord, entryAt: number) {
  const restored = await tx
    .update(comments)
    .set({
      status: before.status,
      queuedAt: before.queuedAt,
      openReports: before.openReports,
      spoiler: before.spoiler,
      ...(expected === 'removed' ? { removedAt: null, removedBy: null, removalReason: null } : {}),
    })
    .where(and(eq(comments.id, commentId), eq(comments.status, expected)))
    .returning({ id: comments.id });
  if (!restored.length) throw changedSince();
  if (before.reportIds.length)
    await tx
      .update(commentReports)
      .set({ resolvedAt: null })
      .where(and(inArray(commentReports.id, before.reportIds), eq(commentReports.resolvedAt, entryAt)));
  await bumpCatalogueVersion(tx);
}

const pushLater =
  (messages: RoomMessage[]): AfterUndo =>
  (deps) =>
    pushAll(deps, messages);

/** Undo of an approval: the comment is held or hidden again, its reports open; pages that show it drop it. */
export const undoCommentApprove: UndoHandler = async (tx, entry, { afterCommit }) => {
  if (!isDecisionRecord(entry.before)) throw notUndoable();
  const row = await commentForModeration(tx, null, Number(entry.target)).catch(() => {
    throw changedSince();
  });
  await restoreDecision(tx, row.id, 'visible', entry.before, entry.createdAt);
  if (entry.before.status !== 'visible')
    afterCommit(pushLater([{ slug: row.slug, message: { type: 'withdraw', id: row.id, state: 'hidden', authorId: row.userId } }]));
  else if (entry.before.spoiler !== row.spoiler)
    afterCommit(
      pushLater([{ slug: row.slug, message: { type: 'comment', comment: visibleCommentDto({ ...row, spoiler: entry.before.spoiler }) } }]),
    );
  return { action: 'comment.approve', target: entry.target, before: { status: 'visible' }, after: { status: entry.before.status } };
};

/** Undo of a removal: the comment is back as it was (visible, held or hidden); pages put a visible one back. */
export const undoCommentRemove: UndoHandler = async (tx, entry, { afterCommit }) => {
  if (!isDecisionRecord(entry.before)) throw notUndoable();
  const row = await commentForModeration(tx, null, Number(entry.target)).catch(() => {
    throw changedSince();
  });
  await restoreDecision(tx, row.id, 'removed', entry.before, entry.createdAt);
  if (entry.before.status === 'visible')
    afterCommit(
      pushLater([{ slug: row.slug, message: { type: 'comment', comment: visibleCommentDto({ ...row, spoiler: entry.before.spoiler }) } }]),
    );
  return { action: 'comment.remove', target: entry.target, before: { status: 'removed' }, after: { status: entry.before.status } };
};

// ---------------------------------------------------------------------------------------------------------------
// Members

interface MuteRecord {
  mutedAt: number | null;
  mutedUntil: number | null;
  muteReason: string | null;
}

async function memberForModeration(db: Db | FilmTx, userId: number) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      roles: users.roles,
      mutedAt: users.mutedAt,
      mutedUntil: users.mutedUntil,
      muteReason: users.muteReason,
      bannedAt: users.bannedAt,
      banReason: users.banReason,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw notFound('Không tìm thấy thành viên');
  return row;
}

/** The rooms a member most likely has open: the films they commented on lately (and the one acted on). */
async function roomsOf(db: Db, userId: number, now: number, also?: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ slug: films.slug })
    .from(comments)
    .innerJoin(films, eq(films.id, comments.filmId))
    .where(and(eq(comments.userId, userId), gt(comments.createdAt, now - REFUSE_ROOMS_WINDOW_MS)))
    .limit(REFUSE_ROOMS_MAX);
  return [...new Set([...(also ? [also] : []), ...rows.map((r) => r.slug)])];
}

const isStaff = (roles: string) => splitList(roles).includes('admin');

/**
 * POST /api/admin/users/{id}/mute: the member cannot comment until `until` (for good: null) and is told why. A VIP2
 * uploader mutes only the author of a comment in their own thread (`commentId`), for 1 or 7 days. Open pages of the
 * member's recent threads have their socket refused with the reason at once.
 */
export async function muteMember(db: Db, moderator: Moderator, userId: number, input: MuteBody, now: number): Promise<ActionResult> {
  let slug: string | undefined;
  if (input.commentId !== undefined || !isAdmin(moderator)) {
    if (input.commentId === undefined) throw forbidden(MODERATION_TEXTS.notYourThread);
    const row = await commentForModeration(db, moderator, input.commentId);
    if (row.userId !== userId) throw forbidden(MODERATION_TEXTS.notYourThread);
    slug = row.slug;
  }
  if (!isAdmin(moderator) && !UPLOADER_MUTE_DURATIONS.includes(input.duration)) throw forbidden(MODERATION_TEXTS.uploaderMuteLimit);
  const member = await memberForModeration(db, userId);
  if (isStaff(member.roles)) throw forbidden(MODERATION_TEXTS.cannotModerateStaff);
  const until = input.duration === 'forever' ? null : now + MUTE_MS[input.duration];
  const before: MuteRecord = { mutedAt: member.mutedAt, mutedUntil: member.mutedUntil, muteReason: member.muteReason };
  const after = { mutedAt: now, mutedUntil: until, muteReason: input.reason };
  const [, [audit]] = await db.batch([
    db.update(users).set(after).where(eq(users.id, userId)),
    auditInsert(
      db,
      moderator,
      { action: 'user.mute', target: userId, before, after: { ...after, duration: input.duration, commentId: input.commentId ?? null } },
      now,
    ).returning({ id: auditLog.id }),
  ]);
  const message = MODERATION_TEXTS.muted(until, input.reason);
  const rooms = await roomsOf(db, userId, now, slug);
  return {
    message: MODERATION_TEXTS.mutedOk,
    auditId: audit!.id,
    pushes: rooms.map((s) => ({ slug: s, message: { type: 'refuse', userId, message } })),
  };
}

/** Undo of a mute: the member's mute is what it was before (409 when another mute or undo changed it since). */
export const undoMemberMute: UndoHandler = async (tx, entry) => {
  const before = entry.before as MuteRecord | null;
  const after = entry.after as MuteRecord | null;
  if (!before || !after || typeof after.mutedAt !== 'number') throw notUndoable();
  const userId = Number(entry.target);
  const restored = await tx
    .update(users)
    .set({ mutedAt: before.mutedAt ?? null, mutedUntil: before.mutedUntil ?? null, muteReason: before.muteReason ?? null })
    .where(and(eq(users.id, userId), eq(users.mutedAt, after.mutedAt)))
    .returning({ id: users.id });
  if (!restored.length) throw conflict('Thành viên đã được xử lý lại sau thao tác này; không thể hoàn tác.');
  return {
    action: 'user.mute',
    target: entry.target,
    before: { mutedAt: after.mutedAt, mutedUntil: after.mutedUntil, muteReason: after.muteReason },
    after: before,
  };
};

/**
 * POST /api/admin/users/{id}/ban (admins): the member cannot sign in again (403 with the reason), every session
 * ends at once (the session epoch: access tokens refused; refresh tokens revoked), open pages are refused.
 */
export async function banMember(
  db: Db,
  moderator: Moderator,
  userId: number,
  input: { reason: string; commentId?: number },
  now: number,
): Promise<ActionResult> {
  if (!isAdmin(moderator)) throw forbidden();
  const member = await memberForModeration(db, userId);
  if (isStaff(member.roles)) throw forbidden(MODERATION_TEXTS.cannotModerateStaff);
  if (member.bannedAt !== null) throw conflict('Tài khoản này đã bị khóa.');
  const [, , [audit]] = await db.batch([
    db
      .update(users)
      .set({ bannedAt: now, banReason: input.reason, sessionEpoch: sql`${users.sessionEpoch} + 1`, updatedAt: now })
      .where(eq(users.id, userId)),
    db
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt))),
    auditInsert(
      db,
      moderator,
      {
        action: 'user.ban',
        target: userId,
        before: { bannedAt: null, banReason: null },
        after: { bannedAt: now, banReason: input.reason, commentId: input.commentId ?? null },
      },
      now,
    ).returning({ id: auditLog.id }),
  ]);
  const rooms = await roomsOf(db, userId, now);
  const message = MODERATION_TEXTS.banned(input.reason);
  return {
    message: MODERATION_TEXTS.bannedOk,
    auditId: audit!.id,
    pushes: rooms.map((s) => ({ slug: s, message: { type: 'refuse', userId, message } })),
  };
}

/** Undo of a ban: the member may sign in again (their old sessions stay ended). */
export const undoMemberBan: UndoHandler = async (tx, entry, { now }) => {
  const after = entry.after as { bannedAt?: unknown } | null;
  if (!after || typeof after.bannedAt !== 'number') throw notUndoable();
  const lifted = await tx
    .update(users)
    .set({ bannedAt: null, banReason: null, updatedAt: now })
    .where(and(eq(users.id, Number(entry.target)), eq(users.bannedAt, after.bannedAt)))
    .returning({ id: users.id });
  if (!lifted.length) throw conflict('Tài khoản không còn bị khóa như lúc đó; không thể hoàn tác.');
  return { action: 'user.ban', target: entry.target, before: entry.after, after: { bannedAt: null, banReason: null } };
};
