// Slow mode of a film's comments ("Chế độ chậm", issue 38, docs/decisions/1002-comment-slow-mode.md): when the
// film's accepted comments over the last 10 s pass 10 a second, each member may post once per SLOW_MODE_SECONDS
// there until the rate falls. The state is one row per film (film_slow_mode) read in the post's first batch and
// written in its second: no round trip of its own.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditLog, films, filmSlowMode } from '../../db/schema';
import type { Viewer } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import type { SlowModeResponse, SlowModeSetting } from '../../schemas/moderation';
import { COMMENT_MESSAGES, MODERATION_TEXTS } from '../../schemas/values';
import { auditInsert } from '../admin/audit';

/** One post per member per this many seconds in a film while slow mode is on. */
export const SLOW_MODE_SECONDS = 10;
/** The window the film's accepted rate is averaged over, and the rate (comments a second) that switches it on. */
export const SLOW_MODE_WINDOW_MS = 10_000;
export const SLOW_MODE_RATE = 10;
/** How long the automatic mode stays on after the rate was last above SLOW_MODE_RATE. */
export const SLOW_MODE_HOLD_MS = 30_000;

export interface SlowModeRow {
  manual: 'on' | 'off' | null;
  autoUntil: number;
  announced: number;
}

const NONE: SlowModeRow = { manual: null, autoUntil: 0, announced: 0 };

/** On at `now`: a moderator's 'on', or the automatic mode unless a moderator turned it off. */
export const slowModeOn = (row: SlowModeRow, now: number) => row.manual === 'on' || (row.manual !== 'off' && row.autoUntil > now);

export const slowModeError = (seconds: number) =>
  new ApiError(429, 'slow_mode', COMMENT_MESSAGES.slowMode(seconds), Math.max(1, Math.ceil(seconds)));

export interface SlowModeStep {
  /** On for this post (a member's second post within SLOW_MODE_SECONDS is refused). */
  active: boolean;
  /** The row to write in the post's write batch, or null when nothing changes. */
  write: SlowModeRow | null;
  /** What to tell the film's room (seconds, 0 = off), or null when it already knows. */
  announce: number | null;
}

/**
 * What a post does to the film's slow mode, from the row and the film's accepted comments in the last
 * SLOW_MODE_WINDOW_MS (both read in the post's first batch). The post itself counts: the one that crosses the rate
 * switches it on, so it is on within the post that crosses, and announced once.
 */
export function slowModeStep(found: SlowModeRow | undefined, recent: number, now: number): SlowModeStep {
  const row = found ?? NONE;
  const active = slowModeOn(row, now);
  const hot = ((recent + 1) * 1000) / SLOW_MODE_WINDOW_MS > SLOW_MODE_RATE;
  const next: SlowModeRow = { ...row, autoUntil: hot ? now + SLOW_MODE_HOLD_MS : row.autoUntil };
  const seconds = slowModeOn(next, now) ? SLOW_MODE_SECONDS : 0;
  const announce = seconds !== row.announced ? seconds : null;
  next.announced = seconds;
  return { active, write: hot || announce !== null ? next : null, announce };
}

/** The write of a step's row (in the post's write batch). */
export function writeSlowMode(db: Db, filmId: number, row: SlowModeRow, now: number) {
  return db
    .insert(filmSlowMode)
    .values({ filmId, manual: row.manual, autoUntil: row.autoUntil, announced: row.announced, updatedAt: now })
    .onConflictDoUpdate({
      target: filmSlowMode.filmId,
      // A moderator's switch made meanwhile stays: only the automatic part and what was announced move.
      set: {
        autoUntil: sql`max(${filmSlowMode.autoUntil}, excluded.auto_until)`,
        announced: sql`excluded.announced`,
        updatedAt: now,
      },
    });
}

/**
 * GET /api/admin/comments/slow-mode/{slug}: a film's slow mode as the moderation page shows it. An admin sees every
 * film; a VIP2 uploader their own (others are not found for them).
 */
export async function readSlowMode(db: Db, moderator: Pick<Viewer, 'id' | 'roles'>, slug: string, now: number): Promise<SlowModeResponse> {
  const film = await moderatedFilm(db, moderator, slug);
  return toResponse(film.slug, film.row ?? NONE, now);
}

async function moderatedFilm(db: Db, moderator: Pick<Viewer, 'id' | 'roles'>, slug: string) {
  const [film] = await db
    .select({
      id: films.id,
      slug: films.slug,
      createdBy: films.createdBy,
      manual: filmSlowMode.manual,
      autoUntil: filmSlowMode.autoUntil,
      announced: filmSlowMode.announced,
    })
    .from(films)
    .leftJoin(filmSlowMode, eq(filmSlowMode.filmId, films.id))
    .where(eq(films.slug, slug))
    .limit(1);
  if (!film || (!moderator.roles.includes('admin') && film.createdBy !== moderator.id)) throw notFound('Không tìm thấy phim');
  const row: SlowModeRow | null =
    film.autoUntil === null ? null : { manual: film.manual, autoUntil: film.autoUntil, announced: film.announced ?? 0 };
  return { id: film.id, slug: film.slug, row };
}

const toResponse = (slug: string, row: SlowModeRow, now: number): SlowModeResponse => ({
  slug,
  mode: row.manual ?? 'auto',
  on: slowModeOn(row, now),
  seconds: SLOW_MODE_SECONDS,
});

/**
 * PUT /api/admin/comments/slow-mode/{slug}: a moderator turns the film's slow mode on or off, or gives it back to the
 * rate ('auto'); audited. Answers the room's announcement when what the room was told changes.
 */
export async function setSlowMode(
  db: Db,
  moderator: Pick<Viewer, 'id' | 'email' | 'roles'>,
  slug: string,
  mode: SlowModeSetting,
  now: number,
): Promise<SlowModeResponse & { announce: number | null }> {
  const film = await moderatedFilm(db, moderator, slug);
  const before = film.row ?? NONE;
  const manual = mode === 'auto' ? null : mode;
  const next: SlowModeRow = { ...before, manual };
  const seconds = slowModeOn(next, now) ? SLOW_MODE_SECONDS : 0;
  const announce = seconds !== before.announced ? seconds : null;
  next.announced = seconds;
  const [, [audit]] = await db.batch([
    db
      .insert(filmSlowMode)
      .values({ filmId: film.id, manual, autoUntil: next.autoUntil, announced: seconds, updatedAt: now })
      .onConflictDoUpdate({ target: filmSlowMode.filmId, set: { manual, announced: seconds, updatedAt: now } }),
    auditInsert(
      db,
      moderator,
      { action: 'comment.slow_mode', target: film.slug, before: { mode: before.manual ?? 'auto' }, after: { mode } },
      now,
    ).returning({ id: auditLog.id }),
  ]);
  return { ...toResponse(film.slug, next, now), message: MODERATION_TEXTS.slowModeSaved, auditId: audit!.id, announce };
}
