// The comment filter's word list (admins keep it at /admin/binh-luan) and the two moderation settings, read with
// every post in one statement; the compiled filter is kept per isolate until the list's version moves.
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditLog, commentWords, settings } from '../../db/schema';
import { ApiError, badRequest, conflict, notFound } from '../../lib/errors';
import type { CommentWord, WordBody, WordCheckResponse } from '../../schemas/moderation';
import { COMMENT_NEW_ACCOUNT_DAYS_DEFAULT, COMMENT_REPORT_THRESHOLD_DEFAULT, MODERATION_TEXTS } from '../../schemas/values';
import { type Actor, auditInsert } from '../admin/audit';
import type { UndoHandler } from '../../lib/duties';
import type { FilmTx } from '../films/film-writer';
import { CommentFilter, normalise, WORD_MAX_LETTERS, WORD_MIN_LETTERS } from './filter';

const VERSION_KEY = 'commentWordsVersion';
const SETTING_KEYS = ['commentReportThreshold', 'commentNewAccountDays', VERSION_KEY];

/** The settings rows comment moderation needs, unexecuted so a caller can batch it. */
export function moderationSettings(db: Db) {
  return db.select({ key: settings.key, value: settings.value }).from(settings).where(inArray(settings.key, SETTING_KEYS));
}

export interface ModerationSettings {
  reportThreshold: number;
  newAccountDays: number;
  wordsVersion: string;
}

export function toModerationSettings(rows: { key: string; value: string }[]): ModerationSettings {
  const get = (key: string) => rows.find((r) => r.key === key)?.value;
  const int = (v: string | undefined, fallback: number) => (v !== undefined && Number.isInteger(Number(v)) ? Number(v) : fallback);
  return {
    reportThreshold: Math.max(1, int(get('commentReportThreshold'), COMMENT_REPORT_THRESHOLD_DEFAULT)),
    newAccountDays: Math.max(0, int(get('commentNewAccountDays'), COMMENT_NEW_ACCOUNT_DAYS_DEFAULT)),
    wordsVersion: get(VERSION_KEY) ?? '0',
  };
}

const compiled = new WeakMap<Db, { version: string; filter: CommentFilter }>();

/** The compiled filter of the list's current version (`rows` from moderationSettings): compiled again only after a change. */
export async function commentFilterFor(db: Db, rows?: { key: string; value: string }[]): Promise<CommentFilter> {
  const { wordsVersion } = toModerationSettings(rows ?? (await moderationSettings(db)));
  const known = compiled.get(db);
  if (known && known.version === wordsVersion) return known.filter;
  const entries = await db
    .select({ id: commentWords.id, phrase: commentWords.phrase, action: commentWords.action })
    .from(commentWords)
    .orderBy(asc(commentWords.id));
  const filter = new CommentFilter(entries);
  compiled.set(db, { version: wordsVersion, filter });
  return filter;
}

/** Raises the list's version: every isolate compiles the list again on its next post. */
function bumpVersion(db: Db | FilmTx, now: number) {
  return db
    .insert(settings)
    .values({ key: VERSION_KEY, value: '1', updatedAt: now })
    .onConflictDoUpdate({
      target: settings.key,
      set: { value: sql`cast(cast(${settings.value} as integer) + 1 as text)`, updatedAt: now },
    });
}

export async function listWords(db: Db): Promise<CommentWord[]> {
  const rows = await db
    .select({ id: commentWords.id, phrase: commentWords.phrase, action: commentWords.action, createdAt: commentWords.createdAt })
    .from(commentWords)
    .orderBy(asc(commentWords.phrase));
  return rows;
}

/** An entry the list already matches the same way (its normalised form), if any. */
async function sameEntry(db: Db | FilmTx, phrase: string) {
  const key = normalise(phrase);
  const rows = await db.select({ id: commentWords.id, phrase: commentWords.phrase }).from(commentWords);
  return rows.find((r) => normalise(r.phrase) === key);
}

function checkPhrase(phrase: string): void {
  const letters = normalise(phrase).length;
  if (letters < WORD_MIN_LETTERS) throw badRequest('phrase', MODERATION_TEXTS.wordTooShort);
  if (letters > WORD_MAX_LETTERS) throw badRequest('phrase', `must be at most ${WORD_MAX_LETTERS} letters`);
}

/** POST /api/admin/comment-words: an entry, matched at once by every later post (audited, undoable). */
export async function addWord(db: Db, actor: Actor, input: WordBody, now: number): Promise<CommentWord & { auditId: number }> {
  checkPhrase(input.phrase);
  return db.transaction(async (tx) => {
    if (await sameEntry(tx, input.phrase)) throw conflict(MODERATION_TEXTS.wordExists);
    const [row] = await tx
      .insert(commentWords)
      .values({ phrase: input.phrase, action: input.action, createdBy: actor.id, createdAt: now })
      .returning({ id: commentWords.id, phrase: commentWords.phrase, action: commentWords.action, createdAt: commentWords.createdAt });
    await bumpVersion(tx, now);
    const [audit] = await auditInsert(
      tx,
      actor,
      { action: 'comment_word.add', target: row!.phrase, before: null, after: { id: row!.id, phrase: row!.phrase, action: row!.action } },
      now,
    ).returning({ id: auditLog.id });
    return { ...row!, auditId: audit!.id };
  });
}

/** DELETE /api/admin/comment-words/{id} (audited, undoable). */
export async function removeWord(db: Db, actor: Actor, id: number, now: number): Promise<{ auditId: number }> {
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(commentWords).where(eq(commentWords.id, id)).returning();
    if (!row) throw notFound(MODERATION_TEXTS.wordNotFound);
    await bumpVersion(tx, now);
    const [audit] = await auditInsert(
      tx,
      actor,
      { action: 'comment_word.remove', target: row.phrase, before: { id: row.id, phrase: row.phrase, action: row.action }, after: null },
      now,
    ).returning({ id: auditLog.id });
    return { auditId: audit!.id };
  });
}

type WordRecord = { id: number; phrase: string; action: 'hold' | 'mask' };
const isWordRecord = (v: unknown): v is WordRecord =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as WordRecord).phrase === 'string' &&
  ['hold', 'mask'].includes((v as WordRecord).action);

/** Undo of an added entry: it leaves the list (409 when someone removed it since). */
export const undoWordAdd: UndoHandler = async (tx, entry, { now }) => {
  if (!isWordRecord(entry.after)) throw new ApiError(409, 'not_undoable', 'Mục nhật ký thiếu dữ liệu để hoàn tác.');
  const [row] = await tx.delete(commentWords).where(eq(commentWords.id, entry.after.id)).returning();
  if (!row) throw conflict(MODERATION_TEXTS.wordNotFound);
  await bumpVersion(tx, now);
  return { action: 'comment_word.remove', target: row.phrase, before: { id: row.id, phrase: row.phrase, action: row.action }, after: null };
};

/** Undo of a removed entry: it is back on the list (409 when the same word was added again since). */
export const undoWordRemove: UndoHandler = async (tx, entry, { actor, now }) => {
  if (!isWordRecord(entry.before)) throw new ApiError(409, 'not_undoable', 'Mục nhật ký thiếu dữ liệu để hoàn tác.');
  if (await sameEntry(tx, entry.before.phrase)) throw conflict(MODERATION_TEXTS.wordExists);
  const [row] = await tx
    .insert(commentWords)
    .values({ phrase: entry.before.phrase, action: entry.before.action, createdBy: actor.id, createdAt: now })
    .returning();
  await bumpVersion(tx, now);
  return {
    action: 'comment_word.add',
    target: row!.phrase,
    before: null,
    after: { id: row!.id, phrase: row!.phrase, action: row!.action },
  };
};

/** POST /api/admin/comment-words/check: what the filter does to a text (a new account's, without a paid VIP). */
export async function checkText(db: Db, text: string): Promise<WordCheckResponse> {
  const filter = await commentFilterFor(db);
  const verdict = filter.check(text, { holdContacts: true });
  const matched = verdict.matched.map(({ id, phrase, action }) => ({ id, phrase, action }));
  return { text: verdict.text, hold: verdict.hold, matched };
}
