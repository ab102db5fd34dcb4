import { and, asc, count, desc, eq, gt, inArray, lte, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { commentHiddenAuthors, comments, rateLimits, users } from '../../db/schema';
import type { Session, Viewer } from '../../lib/context';
import { ApiError, badRequest, tooManyRequests } from '../../lib/errors';
import { COMMENT_MESSAGES, type CommentDto, type CommentsSinceResponse } from '../../schemas/comments';
import { MODERATION_TEXTS } from '../../schemas/values';
import { batchWithViewer } from '../auth/viewer';
import { filmBySlugOr404, findFilmBySlug } from '../catalogue/film-lookup';
import { countHit, RATE_LIMITS } from '../rate-limit';
import { fingerprintOf } from './filter';
import { commentFilterFor, moderationSettings, toModerationSettings } from './words';

const DAY = 24 * 60 * 60 * 1000;
/** The same text posted again within this window is held (docs/decisions/0230-comment-moderation.md). */
const DUPLICATE_WINDOW_MS = DAY;
/** A repeat by the same account is held from this many letters on; a text several accounts post, from this many. */
const DUPLICATE_MIN_LETTERS_SAME = 10;
const DUPLICATE_MIN_LETTERS_ANY = 20;

export interface CreateCommentInput {
  filmSlug: string;
  viewer: Pick<Viewer, 'id' | 'name' | 'roles' | 'subscriptions'>;
  text: string;
  parentId?: number | null;
  spoiler?: boolean;
  episode?: number;
  now: number;
}

/** A member's mute, if it holds at `now`, with the sentence they are shown. */
export function activeMute(
  row: { mutedAt: number | null; mutedUntil: number | null; muteReason: string | null },
  now: number,
): { until: number | null; reason: string; message: string } | null {
  if (row.mutedAt === null || (row.mutedUntil !== null && row.mutedUntil <= now)) return null;
  const reason = row.muteReason ?? '';
  return { until: row.mutedUntil, reason, message: MODERATION_TEXTS.muted(row.mutedUntil, reason) };
}

export const mutedError = (message: string) => new ApiError(403, 'muted', message);

/**
 * Stores a comment or a reply (whose parent must be on the same film) and returns it as the wire shape. A muted
 * member is refused (403 muted, with the sentence to show). The filter (filter.ts) masks listed words and may hold
 * the comment back: then only its author sees it ("Đang chờ duyệt") until a moderator approves it, and it is not
 * pushed to the room (`visible` false).
 */
export async function createComment(
  db: Db,
  input: CreateCommentInput,
): Promise<{ filmSlug: string; comment: CommentDto; visible: boolean }> {
  // Under a merged-away slug (an open tab, an outbox) the comment lands on the kept film, and goes to its room.
  const { id: filmId, slug: filmSlug } = await filmBySlugOr404(db, input.filmSlug, 'titlefilm');
  const parentId = input.parentId ?? null;
  const since = input.now - DUPLICATE_WINDOW_MS;
  const fingerprint = fingerprintOf(input.text);

  const [parentRows, [author], settings, [sameUser], [anyone]] = await db.batch([
    db
      .select({ id: comments.id })
      .from(comments)
      .where(and(eq(comments.id, parentId ?? 0), eq(comments.filmId, filmId), sql`${comments.status} <> 'removed'`))
      .limit(1),
    db
      .select({ createdAt: users.createdAt, mutedAt: users.mutedAt, mutedUntil: users.mutedUntil, muteReason: users.muteReason })
      .from(users)
      .where(eq(users.id, input.viewer.id)),
    moderationSettings(db),
    db
      .select({ n: count() })
      .from(comments)
      .where(and(eq(comments.fingerprint, fingerprint.key), gt(comments.createdAt, since), eq(comments.userId, input.viewer.id))),
    db
      .select({ n: count() })
      .from(comments)
      .where(and(eq(comments.fingerprint, fingerprint.key), gt(comments.createdAt, since))),
  ]);
  if (parentId !== null && parentRows.length === 0) throw badRequest('parent_id', 'bình luận gốc không tồn tại trong phim này');
  if (!author) throw new ApiError(401, 'unauthorized', 'Bạn cần đăng nhập');
  const mute = activeMute(author, input.now);
  if (mute) throw mutedError(mute.message);

  const { newAccountDays } = toModerationSettings(settings);
  const staff = input.viewer.roles.includes('admin');
  const young = input.now - author.createdAt < newAccountDays * DAY;
  const paidVip = input.viewer.subscriptions.length > 0;
  const filter = await commentFilterFor(db, settings);
  const verdict = filter.check(input.text, { holdContacts: !staff && (young || !paidVip) });
  let hold: 'word' | 'link' | 'phone' | 'duplicate' | null = staff ? null : verdict.hold;
  if (
    !hold &&
    !staff &&
    (((sameUser?.n ?? 0) >= 1 && fingerprint.letters >= DUPLICATE_MIN_LETTERS_SAME) ||
      ((anyone?.n ?? 0) >= 2 && fingerprint.letters >= DUPLICATE_MIN_LETTERS_ANY))
  )
    hold = 'duplicate';

  // Counting the hit and inserting the comment is one batch: one transaction, one commit (on a
  // local file that is one fsync instead of two). The insert only happens while the counter it
  // just bumped is within the limit.
  const rule = { key: `comment:user:${input.viewer.id}`, ...RATE_LIMITS.commentPerUser };
  const value = <T>(v: T, column: string) => sql<T>`${v}`.as(column);
  const [, inserted] = await db.batch([
    countHit(db, rule, input.now),
    db
      .insert(comments)
      .select(
        db
          .select({
            id: sql<null>`null`.as('id'),
            filmId: value(filmId, 'film_id'),
            userId: value(input.viewer.id, 'user_id'),
            parentId: value(parentId, 'parent_id'),
            body: value(verdict.text, 'body'),
            createdAt: value(input.now, 'created_at'),
            status: value(hold ? 'held' : 'visible', 'status'),
            holdReason: value(hold, 'hold_reason'),
            spoiler: value(input.spoiler ? 1 : 0, 'spoiler'),
            episode: value(input.episode ?? null, 'episode'),
            rawBody: value(verdict.text === input.text ? null : input.text, 'raw_body'),
            fingerprint: value(fingerprint.key, 'fingerprint'),
            openReports: value(0, 'open_reports'),
            queuedAt: value(hold ? input.now : null, 'queued_at'),
            removedAt: value(null, 'removed_at'),
            removedBy: value(null, 'removed_by'),
            removalReason: value(null, 'removal_reason'),
          })
          .from(rateLimits)
          .where(and(eq(rateLimits.key, rule.key), lte(rateLimits.count, rule.limit))),
      )
      .returning({ id: comments.id }),
  ]);
  const row = inserted[0];
  if (!row) throw tooManyRequests(COMMENT_MESSAGES.tooFast);
  const comment: CommentDto = {
    ...visibleCommentDto({
      id: row.id,
      parentId,
      body: verdict.text,
      createdAt: input.now,
      username: input.viewer.name,
      userId: input.viewer.id,
      spoiler: input.spoiler === true,
      episode: input.episode ?? null,
    }),
    ...(hold ? { state: 'pending' as const } : {}),
  };
  return { filmSlug, comment, visible: !hold };
}

// ---------------------------------------------------------------------------------------------------------------
// Reads

/**
 * The statement of a film's comments newer than sinceId as `viewerId` may see them, unexecuted so the film detail
 * can batch it: everyone's visible comments, the viewer's own whatever their state, and removed or hidden ones
 * (toCommentDtos keeps those as placeholders only when they have replies), less the members the viewer hid.
 */
export function filmCommentsQuery(db: Db, filmId: number | SQL, viewerId: number | SQL, sinceId: number | SQL = 0) {
  const replies = sql<number>`case when ${comments.status} in ('removed', 'hidden') then exists (select 1 from comments r where r.parent_id = ${comments.id} and r.status = 'visible') else 0 end`;
  return db
    .select({
      id: comments.id,
      parentId: comments.parentId,
      body: comments.body,
      createdAt: comments.createdAt,
      username: users.username,
      userId: comments.userId,
      status: comments.status,
      spoiler: comments.spoiler,
      episode: comments.episode,
      removalReason: comments.removalReason,
      hasReplies: replies,
    })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.userId))
    .where(
      and(
        eq(comments.filmId, filmId),
        gt(comments.id, sinceId),
        or(inArray(comments.status, ['visible', 'removed', 'hidden']), eq(comments.userId, viewerId)),
        notInArray(
          comments.userId,
          db.select({ id: commentHiddenAuthors.hiddenUserId }).from(commentHiddenAuthors).where(eq(commentHiddenAuthors.userId, viewerId)),
        ),
      ),
    )
    .orderBy(asc(comments.id));
}

type CommentRow = Awaited<ReturnType<typeof filmCommentsQuery>>[number];

/** A comment as every reader sees it (the fields of a stored row, whatever its source): the one CommentDto builder. */
export function visibleCommentDto(c: {
  id: number;
  parentId: number | null;
  body: string;
  createdAt: number;
  username: string;
  userId: number;
  spoiler: boolean;
  episode: number | null;
}): CommentDto {
  return {
    id: c.id,
    parent_id: c.parentId,
    comment: c.body,
    createdAt: c.createdAt,
    users: { username: c.username },
    user_id: c.userId,
    ...(c.spoiler ? { spoiler: true as const } : {}),
    ...(c.episode !== null ? { episode: c.episode } : {}),
  };
}

/** One stored comment as `viewerId` sees it, or null when they do not (someone else's held comment, a removal without replies). */
export function toCommentDto(r: CommentRow, viewerId: number): CommentDto | null {
  const own = viewerId !== 0 && r.userId === viewerId;
  const full = visibleCommentDto(r);
  if (r.status === 'visible') return full;
  if (own) {
    if (r.status === 'removed') return { ...full, state: 'removed', removal_reason: r.removalReason ?? '' };
    return { ...full, state: 'pending' };
  }
  if (r.status === 'held' || !r.hasReplies) return null;
  // A placeholder that keeps the thread: nothing of the comment itself.
  return {
    id: r.id,
    parent_id: r.parentId,
    comment: '',
    createdAt: r.createdAt,
    users: { username: '' },
    user_id: 0,
    state: r.status === 'removed' ? 'removed' : 'hidden',
  };
}

export const toCommentDtos = (rows: CommentRow[], viewerId: number): CommentDto[] =>
  rows.map((r) => toCommentDto(r, viewerId)).filter((c): c is CommentDto => c !== null);

/**
 * GET /api/product/{slug}/comments?since=: what a reconnecting page missed, as its viewer sees it (their own held
 * comments too), and the comments it may hold that were removed or hidden since (`withdrawn`).
 */
export async function listCommentsBySlug(
  db: Db,
  slug: string,
  who: { session: Session | null; now: number; sinceId?: number },
): Promise<CommentsSinceResponse> {
  const film = await findFilmBySlug(db, slug);
  if (!film) throw new ApiError(404, 'not_found', 'Không tìm thấy phim');
  const sinceId = who.sinceId ?? 0;
  const viewerId = who.session?.userId ?? 0;
  const { viewer, results } = await batchWithViewer(
    db,
    who.session,
    who.now,
    [
      filmCommentsQuery(db, film.id, viewerId, sinceId).prepare(),
      db
        .select({ id: comments.id, status: comments.status })
        .from(comments)
        .where(and(eq(comments.filmId, film.id), lte(comments.id, sinceId), inArray(comments.status, ['removed', 'hidden'])))
        .orderBy(desc(comments.id))
        .limit(500)
        .prepare(),
    ] as const,
    {},
  );
  const [rows, withdrawn] = results;
  return {
    data: toCommentDtos(rows, viewer?.id ?? 0),
    withdrawn: withdrawn.map((w) => ({ id: w.id, state: w.status === 'hidden' ? 'hidden' : 'removed' })),
  };
}
