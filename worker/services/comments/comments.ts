import { and, asc, count, desc, eq, gt, inArray, lte, notInArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { commentHiddenAuthors, comments, filmAliases, filmCommentCounts, films, filmSlowMode, rateLimits, users } from '../../db/schema';
import { preparedOnce } from '../../db/prepared';
import type { Session } from '../../lib/context';
import { ApiError, badRequest, notFound, tooManyRequests, unauthorized } from '../../lib/errors';
import { COMMENT_MESSAGES, type CommentDto, type CommentsSinceResponse } from '../../schemas/comments';
import { MODERATION_TEXTS } from '../../schemas/values';
import { batchWithViewer } from '../auth/viewer';
import { filmBySlugStatement, findFilmBySlug } from '../catalogue/film-lookup';
import { countHit, RATE_LIMITS } from '../rate-limit';
import { fingerprintOf } from './filter';
import { SLOW_MODE_SECONDS, SLOW_MODE_WINDOW_MS, slowModeError, slowModeStep, writeSlowMode } from './slow-mode';
import { commentFilterFor, moderationSettings, toModerationSettings } from './words';

const DAY = 24 * 60 * 60 * 1000;
/** The same text posted again within this window is held (docs/decisions/0230-comment-moderation.md). */
const DUPLICATE_WINDOW_MS = DAY;
/** A repeat by the same account is held from this many letters on; a text several accounts post, from this many. */
const DUPLICATE_MIN_LETTERS_SAME = 10;
const DUPLICATE_MIN_LETTERS_ANY = 20;

export interface CreateCommentInput {
  filmSlug: string;
  /** The verified token's session: the viewer is read in the post's first batch (services/auth/viewer.ts). */
  session: Session;
  text: string;
  parentId?: number | null;
  spoiler?: boolean;
  episode?: number;
  /** Chosen by the page per comment and sent again on a retry (docs/decisions/1003-comment-client-id.md). */
  clientId?: string;
  now: number;
  /** Internal: the post is being read again after its insert found nothing to do. */
  again?: boolean;
}

export interface CreatedComment {
  filmSlug: string;
  comment: CommentDto;
  /** Everyone may see it: it goes to the room. */
  visible: boolean;
  /** False when a retry found the comment its client id stored first (nothing stored, nothing pushed). */
  created: boolean;
  /** The parent's author, for the room's per-socket cap (always delivered to them). */
  parentAuthorId: number | null;
  /** Written by staff: never capped by the room. */
  fromStaff: boolean;
  /** A change of the film's slow mode to announce in its room (seconds, 0 = off), or null. */
  slowMode: number | null;
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

/** The film a post names (its slug, or a slug merged into it), as SQL every statement of the first batch shares. */
const postFilmId = sql`(select ${films.id} from ${films} where ${films.slug} = ${sql.placeholder('slug')} or ${films.id} = (select ${filmAliases.filmId} from ${filmAliases} where ${filmAliases.slug} = ${sql.placeholder('slug')}) limit 1)`;

/**
 * Everything a post checks, read in the viewer's own batch (one round trip with the viewer): the film, the parent
 * on the same film, the author's mute, the moderation settings, the duplicates, a retry's first comment, the film's
 * slow mode, its accepted rate and the author's last comment there. Built once per database.
 */
const postStatements = preparedOnce((db: Db) => {
  const ph = {
    viewerId: sql.placeholder('viewerId'),
    parentId: sql.placeholder('parentId'),
    fingerprint: sql.placeholder('fingerprint'),
    since: sql.placeholder('since'),
    clientId: sql.placeholder('clientId'),
    rateSince: sql.placeholder('rateSince'),
    slowSince: sql.placeholder('slowSince'),
  };
  const n = <T>(p: unknown) => p as unknown as T;
  return [
    filmBySlugStatement(db),
    db
      .select({ id: comments.id, userId: comments.userId })
      .from(comments)
      .where(and(eq(comments.id, n<number>(ph.parentId)), eq(comments.filmId, postFilmId), sql`${comments.status} <> 'removed'`))
      .limit(1)
      .prepare(),
    db
      .select({ createdAt: users.createdAt, mutedAt: users.mutedAt, mutedUntil: users.mutedUntil, muteReason: users.muteReason })
      .from(users)
      .where(eq(users.id, n<number>(ph.viewerId)))
      .prepare(),
    moderationSettings(db).prepare(),
    db
      .select({ n: count() })
      .from(comments)
      .where(
        and(
          eq(comments.fingerprint, n<string>(ph.fingerprint)),
          gt(comments.createdAt, n<number>(ph.since)),
          eq(comments.userId, n<number>(ph.viewerId)),
        ),
      )
      .prepare(),
    db
      .select({ n: count() })
      .from(comments)
      .where(and(eq(comments.fingerprint, n<string>(ph.fingerprint)), gt(comments.createdAt, n<number>(ph.since))))
      .prepare(),
    // A retry: the comment this author stored under this client id (null matches nothing).
    db
      .select({
        id: comments.id,
        parentId: comments.parentId,
        body: comments.body,
        createdAt: comments.createdAt,
        status: comments.status,
        spoiler: comments.spoiler,
        episode: comments.episode,
        removalReason: comments.removalReason,
        filmSlug: films.slug,
      })
      .from(comments)
      .innerJoin(films, eq(films.id, comments.filmId))
      .where(and(eq(comments.userId, n<number>(ph.viewerId)), eq(comments.clientId, n<string>(ph.clientId))))
      .limit(1)
      .prepare(),
    db
      .select({ manual: filmSlowMode.manual, autoUntil: filmSlowMode.autoUntil, announced: filmSlowMode.announced })
      .from(filmSlowMode)
      .where(eq(filmSlowMode.filmId, postFilmId))
      .prepare(),
    // The film's accepted rate: its comments of the last window (a few hundred index entries at most).
    db
      .select({ n: count() })
      .from(comments)
      .where(and(eq(comments.filmId, postFilmId), gt(comments.createdAt, n<number>(ph.rateSince))))
      .prepare(),
    db
      .select({ at: sql<number | null>`max(${comments.createdAt})` })
      .from(comments)
      .where(
        and(eq(comments.userId, n<number>(ph.viewerId)), gt(comments.createdAt, n<number>(ph.slowSince)), eq(comments.filmId, postFilmId)),
      )
      .prepare(),
  ] as const;
});

/**
 * Stores a comment or a reply (whose parent must be on the same film) and returns it as the wire shape, in two
 * round trips (three after a word-list change): the viewer with every check, then the rate-limit hit with the insert
 * (and the film's slow mode). A muted member is refused (403 muted, with the sentence to show). The filter
 * (filter.ts) masks listed words and may hold the comment back: then only its author sees it ("Đang chờ duyệt") until
 * a moderator approves it, and it is not pushed to the room (`visible` false). While the film's slow mode is on, a
 * member's second post within SLOW_MODE_SECONDS answers 429 slow_mode with the seconds to wait. A retry with the
 * client id of a stored comment answers that comment (`created` false).
 */
export async function createComment(db: Db, input: CreateCommentInput): Promise<CreatedComment> {
  const parentId = input.parentId ?? null;
  const since = input.now - DUPLICATE_WINDOW_MS;
  const fingerprint = fingerprintOf(input.text);
  const { viewer, results } = await batchWithViewer(db, input.session, input.now, postStatements(db), {
    slug: input.filmSlug,
    parentId: parentId ?? 0,
    fingerprint: fingerprint.key,
    since,
    clientId: input.clientId ?? null,
    rateSince: input.now - SLOW_MODE_WINDOW_MS,
    slowSince: input.now - SLOW_MODE_SECONDS * 1000,
  });
  if (!viewer) throw unauthorized();
  const [[film], parentRows, [author], settings, [sameUser], [anyone], [retried], [slowRow], [recent], [last]] = results;
  // Under a merged-away slug (an open tab, an outbox) the comment lands on the kept film, and goes to its room.
  if (!film) throw notFound('titlefilm: không tìm thấy phim');
  if (!author) throw new ApiError(401, 'unauthorized', 'Bạn cần đăng nhập');
  const staff = viewer.roles.includes('admin');
  if (retried) {
    const comment = toCommentDto({ ...retried, username: viewer.name, userId: viewer.id, hasReplies: 0 }, viewer.id);
    if (comment)
      return {
        filmSlug: retried.filmSlug,
        comment,
        visible: false,
        created: false,
        parentAuthorId: null,
        fromStaff: staff,
        slowMode: null,
      };
  }
  const filmId = film.id;
  const filmSlug = film.slug;
  if (parentId !== null && parentRows.length === 0) throw badRequest('parent_id', 'bình luận gốc không tồn tại trong phim này');
  const mute = activeMute(author, input.now);
  if (mute) throw mutedError(mute.message);

  const slow = slowModeStep(slowRow, recent?.n ?? 0, input.now);
  const slowFor = slow.active && !staff;
  if (slowFor && last?.at != null && input.now - last.at < SLOW_MODE_SECONDS * 1000)
    throw slowModeError((last.at + SLOW_MODE_SECONDS * 1000 - input.now) / 1000);

  const { newAccountDays } = toModerationSettings(settings);
  const young = input.now - author.createdAt < newAccountDays * DAY;
  const paidVip = viewer.subscriptions.length > 0;
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

  // Counting the hit and inserting the comment is one batch: one transaction, one commit (on a local file that is
  // one fsync instead of two). The insert only happens while the counter it just bumped is within the limit, while
  // slow mode (when on) finds no other comment of the member's within its seconds (two posts at once cannot both
  // pass), and once per client id. The film's slow mode rides in the same batch.
  const rule = { key: `comment:user:${viewer.id}`, ...RATE_LIMITS.commentPerUser };
  const value = <T>(v: T, column: string) => sql<T>`${v}`.as(column);
  const slowGuard = slowFor
    ? sql`not exists (select 1 from ${comments} s where s.user_id = ${viewer.id} and s.film_id = ${filmId} and s.created_at > ${input.now - SLOW_MODE_SECONDS * 1000})`
    : undefined;
  const insert = db
    .insert(comments)
    .select(
      db
        .select({
          id: sql<null>`null`.as('id'),
          filmId: value(filmId, 'film_id'),
          userId: value(viewer.id, 'user_id'),
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
          clientId: value(input.clientId ?? null, 'client_id'),
        })
        .from(rateLimits)
        .where(and(eq(rateLimits.key, rule.key), lte(rateLimits.count, rule.limit), slowGuard)),
    )
    .onConflictDoNothing()
    .returning({ id: comments.id });
  const [hits, inserted] = slow.write
    ? await db.batch([countHit(db, rule, input.now), insert, writeSlowMode(db, filmId, slow.write, input.now)])
    : await db.batch([countHit(db, rule, input.now), insert]);
  const row = inserted[0];
  if (!row) {
    if ((hits[0]?.count ?? 0) > rule.limit) throw tooManyRequests(COMMENT_MESSAGES.tooFast);
    // Refused by slow mode, or the same client id stored by a retry that ran at the same moment: asked again, the
    // first batch finds which (that retry's comment is the answer; a too-early post, the seconds to wait).
    if (!input.again) return createComment(db, { ...input, again: true });
    throw slowModeError(SLOW_MODE_SECONDS);
  }
  const comment: CommentDto = {
    ...visibleCommentDto({
      id: row.id,
      parentId,
      body: verdict.text,
      createdAt: input.now,
      username: viewer.name,
      userId: viewer.id,
      spoiler: input.spoiler === true,
      episode: input.episode ?? null,
    }),
    ...(hold ? { state: 'pending' as const } : {}),
  };
  const parentAuthorId = parentRows[0]?.userId ?? null;
  return { filmSlug, comment, visible: !hold, created: true, parentAuthorId, fromStaff: staff, slowMode: slow.announce };
}

// ---------------------------------------------------------------------------------------------------------------
// Reads

/**
 * The statement of a film's comments newer than sinceId as `viewerId` may see them, unexecuted so the film detail
 * can batch it: everyone's visible comments, the viewer's own whatever their state, and removed or hidden ones
 * (toCommentDtos keeps those as placeholders only when they have replies), less the members the viewer hid.
 */
export function filmCommentsQuery(db: Db, filmId: number | SQL, viewerId: number | SQL, sinceId: number | SQL = 0, within?: SQL) {
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
        // Within a page the thread's ids drive the read (`+` keeps SQLite off the film's index, which would walk
        // every comment of the film to test each one against the page).
        within ? sql`+${comments.filmId} = ${filmId}` : eq(comments.filmId, filmId),
        within ? undefined : gt(comments.id, sinceId),
        within,
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

/** Top-level threads a page carries at once, and per "Xem thêm bình luận" (docs/decisions/1000-bounded-comment-thread.md). */
export const THREADS_PER_PAGE = 50;

/**
 * The top-level comments `viewerId` may see a thread under, older than `before`, newest first: everyone's visible
 * ones, the viewer's own, and removed or hidden ones that keep a visible reply (their placeholders), less the
 * members the viewer hid. Walks the (film_id, parent_id, id) index from `before` down.
 */
function threadRoots(filmId: number | SQL, viewerId: number | SQL, before: number | SQL, limit: number): SQL {
  return sql`select c.id from ${comments} c
    where c.film_id = ${filmId} and c.parent_id is null and c.id < ${before}
      and (c.status = 'visible' or c.user_id = ${viewerId}
        or (c.status in ('removed', 'hidden') and exists (select 1 from ${comments} r where r.parent_id = c.id and r.status = 'visible')))
      and c.user_id not in (select h.hidden_user_id from ${commentHiddenAuthors} h where h.user_id = ${viewerId})
    order by c.id desc limit ${sql.raw(String(limit))}`;
}

/**
 * One page of a film's thread, unexecuted so the film detail can batch it: the newest THREADS_PER_PAGE top-level
 * comments older than `before` with every reply under them (replies stay with their thread, whatever their age),
 * the ids of one root more (is there an older page, and where it starts), and the film's visible count (the
 * heading's "Bình luận (N)", a row the triggers keep). Bounded whatever the thread's length: a page never carries the whole film.
 */
export function filmThreadQueries(db: Db, filmId: number | SQL, viewerId: number | SQL, before: number | SQL) {
  const inPage = sql`${comments.id} in (
    with recursive thread(id) as (
      select id from (${threadRoots(filmId, viewerId, before, THREADS_PER_PAGE)})
      union all
      select r.id from ${comments} r join thread t on r.parent_id = t.id
    )
    select id from thread)`;
  return [
    filmCommentsQuery(db, filmId, viewerId, 0, inPage),
    db.select({ id: sql<number>`id` }).from(sql`(${threadRoots(filmId, viewerId, before, THREADS_PER_PAGE + 1)})`),
    // Kept by triggers (drizzle/…_film_comment_counts_triggers.sql): one row, not a count of the whole thread.
    db.select({ n: filmCommentCounts.visible }).from(filmCommentCounts).where(eq(filmCommentCounts.filmId, filmId)),
  ] as const;
}

/** Where the next page starts (its `before`), or null when these are the oldest threads. */
const cursorOf = (roots: { id: number }[]): number | null =>
  roots.length > THREADS_PER_PAGE ? (roots[THREADS_PER_PAGE - 1]?.id ?? null) : null;

/** A page of the thread as `viewerId` sees it, from filmThreadQueries' rows. */
export function toThreadPage(
  [rows, roots, [total]]: [CommentRow[], { id: number }[], { n: number }[]],
  viewerId: number,
): { comments: CommentDto[]; cursor: number | null; total: number } {
  return { comments: toCommentDtos(rows, viewerId), cursor: cursorOf(roots), total: total?.n ?? 0 };
}

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
 * What a reconnecting page holds that was taken down meanwhile: the film's removed and hidden comments up to the
 * newest it holds (at most 500, newest first). A seek per status on comments_film_status_id, however long the thread.
 */
export function withdrawnCommentsQuery(db: Db, filmId: number | SQL, sinceId: number | SQL) {
  return (
    db
      .select({ id: comments.id, status: comments.status })
      .from(comments)
      .where(and(eq(comments.filmId, filmId), lte(comments.id, sinceId), inArray(comments.status, ['removed', 'hidden'])))
      // `+` keeps SQLite on that index rather than walking the film's ids in order for the ORDER BY.
      .orderBy(desc(sql`+${comments.id}`))
      .limit(500)
  );
}

const readParams = {
  filmId: sql.placeholder('filmId'),
  viewer: sql.placeholder('viewer'),
  since: sql.placeholder('since'),
  before: sql.placeholder('before'),
};

/**
 * The thread reads of GET …/comments, built once per database (worker/db/prepared.ts): a premiere's reconnects
 * run the catch-up by the thousand, and building its two selects was most of drizzle's share of each.
 */
const readStatements = preparedOnce((db: Db) => {
  const { filmId, viewer, since, before } = readParams as unknown as Record<keyof typeof readParams, number>;
  const [thread, roots, total] = filmThreadQueries(db, filmId, viewer, before);
  return {
    catchUp: [filmCommentsQuery(db, filmId, viewer, since).prepare(), withdrawnCommentsQuery(db, filmId, since).prepare()] as const,
    page: [thread.prepare(), roots.prepare(), total.prepare()] as const,
  };
});

/**
 * GET /api/product/{slug}/comments?since=: what a reconnecting page missed, as its viewer sees it (their own held
 * comments too), and the comments it may hold that were removed or hidden since (`withdrawn`).
 */
export async function listCommentsBySlug(
  db: Db,
  slug: string,
  who: { session: Session | null; now: number; sinceId?: number; before?: number },
): Promise<CommentsSinceResponse> {
  const film = await findFilmBySlug(db, slug);
  if (!film) throw new ApiError(404, 'not_found', 'Không tìm thấy phim');
  const statements = readStatements(db);
  const values = { filmId: film.id, viewer: who.session?.userId ?? 0 };
  if (who.before !== undefined) {
    if (who.sinceId !== undefined) throw badRequest('before', 'không dùng cùng since');
    const { viewer, results } = await batchWithViewer(db, who.session, who.now, statements.page, { ...values, before: who.before });
    const page = toThreadPage(results, viewer?.id ?? 0);
    return { data: page.comments, withdrawn: [], next_before: page.cursor, total: page.total };
  }
  const { viewer, results } = await batchWithViewer(db, who.session, who.now, statements.catchUp, { ...values, since: who.sinceId ?? 0 });
  const [rows, withdrawn] = results;
  return {
    data: toCommentDtos(rows, viewer?.id ?? 0),
    withdrawn: withdrawn.map((w) => ({ id: w.id, state: w.status === 'hidden' ? 'hidden' : 'removed' })),
  };
}
