// What members do about other members' comments (issue 33): report one ("Báo cáo", one report per member per
// comment; enough distinct reports hide it until a moderator decides), hide everything one member writes ("Ẩn bình
// luận của người này"), and the live room's member token, which carries a mute to the room.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import { commentHiddenAuthors, commentReports, comments, films, users } from '../../db/schema';
import type { Session, Viewer } from '../../lib/context';
import { ApiError, badRequest, conflict, notFound } from '../../lib/errors';
import type { CommentRoomAccess, HiddenAuthor, ReportBody, ReportResponse } from '../../schemas/moderation';
import { MODERATION_TEXTS } from '../../schemas/values';
import { signCommentToken } from '../../../party/comment-token';
import { batchAsMember } from '../auth/viewer';
import { filmBySlugStatement } from '../catalogue/film-lookup';
import { enforceRateLimits, RATE_LIMITS } from '../rate-limit';
import { activeMute } from './comments';
import { bumpCatalogueVersion } from './visibility';
import type { RoomPush } from '../../../party/messages';
import { moderationSettings, toModerationSettings } from './words';

/**
 * POST /api/comments/{id}/report: a member's report of a comment they can see. A comment that reaches the threshold
 * of distinct open reports (admin settings) is hidden at once and enters the queue; its room drops it (`push`).
 */
export async function reportComment(
  db: Db,
  viewer: Pick<Viewer, 'id'>,
  commentId: number,
  input: ReportBody,
  now: number,
): Promise<ReportResponse & { push: { slug: string; message: RoomPush } | null }> {
  await enforceRateLimits(
    db,
    [{ key: `comment-report:user:${viewer.id}`, ...RATE_LIMITS.commentReportPerUser }],
    now,
    MODERATION_TEXTS.tooManyReports,
  );
  const [[comment], settingRows] = await db.batch([
    db
      .select({ id: comments.id, userId: comments.userId, status: comments.status, slug: films.slug })
      .from(comments)
      .innerJoin(films, eq(films.id, comments.filmId))
      .where(eq(comments.id, commentId)),
    moderationSettings(db),
  ]);
  // Only what the reporter can see can be reported: another member's held comment does not exist for them.
  if (comment?.status !== 'visible') throw notFound(MODERATION_TEXTS.commentNotFound);
  if (comment.userId === viewer.id) throw new ApiError(403, 'self_report', MODERATION_TEXTS.selfReport);
  const { reportThreshold } = toModerationSettings(settingRows);
  const open = sql<number>`(select count(*) from ${commentReports} where ${commentReports.commentId} = ${commentId} and ${commentReports.resolvedAt} is null)`;
  let updated: { status: string }[];
  try {
    [, updated] = await db.batch([
      db.insert(commentReports).values({ commentId, userId: viewer.id, reason: input.reason, note: input.note ?? '', createdAt: now }),
      db
        .update(comments)
        .set({
          openReports: open,
          queuedAt: sql`coalesce(${comments.queuedAt}, ${now})`,
          status: sql`case when ${comments.status} = 'visible' and ${open} >= ${reportThreshold} then 'hidden' else ${comments.status} end`,
        })
        .where(eq(comments.id, commentId))
        .returning({ status: comments.status }),
      // A comment the reports hid leaves every public page: their cached copies are keyed by the catalogue version.
      bumpCatalogueVersionIf(db, commentId),
    ]);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(MODERATION_TEXTS.alreadyReported);
    throw err;
  }
  const hidden = updated[0]?.status === 'hidden';
  return {
    message: MODERATION_TEXTS.reported,
    hidden,
    push: hidden ? { slug: comment.slug, message: { type: 'withdraw', id: commentId, state: 'hidden', authorId: comment.userId } } : null,
  };
}

/** Raises the catalogue version when the comment is hidden now (run after the update in the same batch). */
function bumpCatalogueVersionIf(db: Db, commentId: number) {
  return bumpCatalogueVersion(
    db,
    sql`exists (select 1 from ${comments} where ${comments.id} = ${commentId} and ${comments.status} = 'hidden')`,
  );
}

// ---- "Ẩn bình luận của người này" -------------------------------------------------------------------------------

export async function listHiddenAuthors(db: Db, userId: number): Promise<HiddenAuthor[]> {
  return db
    .select({ id: users.id, username: users.username, hiddenAt: commentHiddenAuthors.createdAt })
    .from(commentHiddenAuthors)
    .innerJoin(users, eq(users.id, commentHiddenAuthors.hiddenUserId))
    .where(eq(commentHiddenAuthors.userId, userId))
    .orderBy(asc(users.username));
}

/** PUT /api/me/hidden-authors/{id}: idempotent; the other member is not told. */
export async function hideAuthor(db: Db, userId: number, hiddenUserId: number, now: number): Promise<void> {
  if (hiddenUserId === userId) throw badRequest('id', MODERATION_TEXTS.hideSelf);
  const [target] = await db.select({ id: users.id }).from(users).where(eq(users.id, hiddenUserId));
  if (!target) throw notFound('Không tìm thấy thành viên');
  await db.insert(commentHiddenAuthors).values({ userId, hiddenUserId, createdAt: now }).onConflictDoNothing();
}

export async function unhideAuthor(db: Db, userId: number, hiddenUserId: number): Promise<void> {
  await db
    .delete(commentHiddenAuthors)
    .where(and(eq(commentHiddenAuthors.userId, userId), eq(commentHiddenAuthors.hiddenUserId, hiddenUserId)));
}

// ---- the live room's member token -------------------------------------------------------------------------------

/**
 * GET /api/product/{slug}/comments/token: who this socket is, for the film's room. A muted member still gets one,
 * carrying the mute: the room refuses the socket with the reason, and the page shows it instead of the form.
 */
export async function commentRoomAccess(
  deps: { config: Pick<Config, 'PARTY_SECRET'>; now: () => number },
  db: Db,
  session: Session,
  slug: string,
): Promise<CommentRoomAccess> {
  const now = deps.now();
  // Asked on every (re)connect: the member, the film, the mute and the hidden authors in one round trip.
  const {
    viewer,
    results: [[film], [member], hidden],
  } = await batchAsMember(
    db,
    session,
    now,
    [
      filmBySlugStatement(db),
      db
        .select({ mutedAt: users.mutedAt, mutedUntil: users.mutedUntil, muteReason: users.muteReason })
        .from(users)
        .where(eq(users.id, session.userId))
        .prepare(),
      db
        .select({ id: commentHiddenAuthors.hiddenUserId })
        .from(commentHiddenAuthors)
        .where(eq(commentHiddenAuthors.userId, session.userId))
        .prepare(),
    ] as const,
    { slug },
  );
  if (!film) throw notFound('Không tìm thấy phim');
  const mute = member ? activeMute(member, now) : null;
  const { token, expiresAt } = await signCommentToken(
    deps.config.PARTY_SECRET,
    { userId: viewer.id, room: film.slug, ...(mute ? { refused: mute.message } : {}) },
    now,
  );
  return { token, expiresAt, mute, hiddenAuthors: hidden.map((h) => h.id) };
}
