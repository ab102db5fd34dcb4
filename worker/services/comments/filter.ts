// The comment filter (issue 33, docs/decisions/0230-comment-moderation.md): what is held back before anyone sees
// it, and which words are masked. Matching is obscenity's RegExpMatcher over our own Vietnamese normalisation:
// every character of the comment goes through one table (diacritics folded, đ→d, digits for letters, anything that
// is not a letter or digit skipped: the spacing evasions), then runs of one letter collapse ("nhaaaa" → "nha").
// Every word-list entry is put through the same steps, so an entry matches itself and every evasion those steps
// undo, without an admin writing a pattern. Each entry compiles to a plain literal (no quantifier, no alternation):
// a search is linear in the comment's length, whatever the admins type (tests/unit/comment-filter.test.ts fuzzes it,
// bench/comment-filter.ts measures it).
import {
  type BlacklistedTerm,
  collapseDuplicatesTransformer,
  createSimpleTransformer,
  type MatchPayload,
  RegExpMatcher,
  SyntaxKind,
} from 'obscenity';
import { fold } from '../../db/fold';

export type WordAction = 'hold' | 'mask';
export interface WordEntry {
  id: number;
  phrase: string;
  action: WordAction;
}

// ---------------------------------------------------------------------------------------------------------------
// One character at a time

const COMBINING = /^[\u0300-\u036f]$/;
/** Digits and signs written for letters (the usual leetspeak of Vietnamese comments). */
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };
/** Combining marks of Vietnamese: the five tones and the three vowel-quality marks. */
const TONES = new Set([0x300, 0x301, 0x303, 0x309, 0x323]);
const QUALITIES = new Set([0x302, 0x306, 0x31b]);

/** code point → its folded letter or digit (a code point), or 0 for "skip": built once for the BMP's first 0x2000 and Latin Extended Additional. */
const TABLE = new Map<number, number>();
function folded(cp: number): number {
  const hit = TABLE.get(cp);
  if (hit !== undefined) return hit;
  const ch = String.fromCodePoint(cp);
  let out = 0;
  if (ch === 'đ' || ch === 'Đ') out = 0x64;
  else if (LEET[ch]) out = LEET[ch]!.charCodeAt(0);
  else {
    const base = ch.normalize('NFD').charAt(0).toLowerCase();
    if (/^[a-z0-9]$/.test(base)) out = base.charCodeAt(0);
  }
  if (TABLE.size < 20_000) TABLE.set(cp, out);
  return out;
}

/** The letter or digit a code point stands for after folding and leetspeak, or undefined when it is skipped. */
export function foldChar(cp: number): number | undefined {
  // ASCII fast path.
  if (cp >= 0x61 && cp <= 0x7a) return cp;
  if (cp >= 0x41 && cp <= 0x5a) return cp + 32;
  const out = folded(cp);
  return out === 0 ? undefined : out;
}

const TRANSFORMERS = [createSimpleTransformer(foldChar), collapseDuplicatesTransformer({ defaultThreshold: 1 })];

/** What an entry or a text becomes before matching: "Nhà  Cááái" → "nhacai". */
export function normalise(text: string): string {
  let out = '';
  let last = -1;
  for (const ch of text) {
    const f = foldChar(ch.codePointAt(0)!);
    if (f === undefined || f === last) continue;
    out += String.fromCharCode(f);
    last = f;
  }
  return out;
}

interface Marks {
  /** Vowel-quality letters in order (â ă ê ô ơ ư as 'a^', …), đ excluded: đ/d is an evasion we forgive. */
  quality: string[];
  /** Tone marks in order. */
  tones: number[];
  /** Any diacritic or đ: the writer is using Vietnamese marks here. */
  marked: boolean;
}

function marksOf(chars: string[]): Marks {
  const quality: string[] = [];
  const tones: number[] = [];
  let marked = false;
  for (const ch of chars) {
    if (ch === 'đ' || ch === 'Đ') {
      marked = true;
      continue;
    }
    const nfd = ch.normalize('NFD');
    for (let i = 1; i < nfd.length; i++) {
      const m = nfd.charCodeAt(i);
      if (TONES.has(m)) {
        tones.push(m);
        marked = true;
      } else if (QUALITIES.has(m)) {
        quality.push(`${nfd.charAt(0).toLowerCase()}${m}`);
        marked = true;
      }
    }
  }
  return { quality, tones, marked };
}

const sameList = <T>(a: T[], b: T[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The characters of a text with their combining marks attached (a text may arrive decomposed). */
function clusters(text: string, start: number, end: number): { ch: string; at: number }[] {
  const out: { ch: string; at: number }[] = [];
  let i = start;
  while (i <= end && i < text.length) {
    const cp = text.codePointAt(i)!;
    const size = cp > 0xffff ? 2 : 1;
    const ch = String.fromCodePoint(cp);
    if (COMBINING.test(ch) && out.length > 0) out[out.length - 1]!.ch += ch;
    else out.push({ ch, at: i });
    i += size;
  }
  // Marks right after the span belong to its last letter.
  while (i < text.length && COMBINING.test(text.charAt(i)) && out.length > 0) {
    out[out.length - 1]!.ch += text.charAt(i);
    i++;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// The compiled word list

interface Term {
  entry: WordEntry;
  pattern: string;
  /** Short entries (≤ 4 letters once normalised) also end a word: "lon" is not in "long" (every entry starts one). */
  wholeWord: boolean;
  /** Per normalised letter of the entry: the entry's own letters (with marks) that produced it. */
  letters: string[][];
}

/** The shortest and longest an entry may be once normalised. */
export const WORD_MIN_LETTERS = 2;
export const WORD_MAX_LETTERS = 60;

/** An entry's letters grouped by the normalised letter they produce (collapsed runs share one). */
function entryLetters(phrase: string): string[][] {
  const groups: string[][] = [];
  let last = -1;
  for (const { ch } of clusters(phrase.normalize('NFC'), 0, phrase.length)) {
    const f = foldChar(ch.codePointAt(0)!);
    if (f === undefined) continue;
    // A collapsed run is read by its last letter, as a written one is (accepts()).
    if (f === last) groups[groups.length - 1] = [ch];
    else groups.push([ch]);
    last = f;
  }
  return groups;
}

export interface FilterVerdict {
  /** The text readers see: masked words starred. */
  text: string;
  /** Why it is held back (the first reason found), or null. */
  hold: 'word' | 'link' | 'phone' | null;
  /** The entries that matched, each once, holds and masks alike. */
  matched: WordEntry[];
}

export interface CheckOptions {
  /** Links and phone numbers hold the comment (a young account, or one without a paid VIP). */
  holdContacts: boolean;
}

export class CommentFilter {
  private readonly terms: Term[];
  private readonly matcher: RegExpMatcher | null;

  constructor(entries: readonly WordEntry[]) {
    this.terms = [];
    const seen = new Set<string>();
    for (const entry of entries) {
      const pattern = normalise(entry.phrase);
      if (pattern.length < WORD_MIN_LETTERS || pattern.length > WORD_MAX_LETTERS || seen.has(pattern)) continue;
      seen.add(pattern);
      this.terms.push({ entry, pattern, wholeWord: pattern.length <= 4, letters: entryLetters(entry.phrase) });
    }
    const blacklistedTerms: BlacklistedTerm[] = this.terms.map((term, id) => ({
      id,
      pattern: {
        nodes: [{ kind: SyntaxKind.Literal, chars: [...term.pattern].map((c) => c.charCodeAt(0)) }],
        requireWordBoundaryAtStart: false,
        requireWordBoundaryAtEnd: false,
      },
    }));
    this.matcher = blacklistedTerms.length ? new RegExpMatcher({ blacklistedTerms, blacklistMatcherTransformers: TRANSFORMERS }) : null;
  }

  /** The regular expressions the matcher runs, for the linear-time check (every one a plain literal). */
  get patterns(): string[] {
    return this.terms.map((t) => t.pattern);
  }

  /** The word-list entries found in a text, each with where it is (UTF-16 indices, end inclusive). */
  find(text: string): { entry: WordEntry; start: number; end: number }[] {
    if (!this.matcher) return [];
    const found: { entry: WordEntry; start: number; end: number }[] = [];
    for (const match of this.matcher.getAllMatches(text)) {
      const term = this.terms[match.termId]!;
      const start = this.accepts(text, term, match);
      if (start >= 0) found.push({ entry: term.entry, start, end: match.endIndex });
    }
    return found;
  }

  /**
   * Where the entry starts when a match in the folded text is a match of the entry, else -1. It is one unless the writer's own marks say it is another word: a
   * run of letters written with Vietnamese marks must carry the entry's (its tones and vowel qualities, đ/d
   * forgiven); a run written without any mark may be any of them. "các" is not "cặc", "đi" is not "đĩ", but "cac",
   * "c4c" and "c ặ c" are. Short entries also need a word boundary on both sides.
   */
  private accepts(text: string, term: Term, match: MatchPayload): number {
    // Walk the span again the way the transformers did, tying each written letter to the entry letter it matched.
    // Runs of one letter collapse, across spaces too ("ọ ơi" reads "oi"): a letter is taken as written by the last
    // character that made it, so a repeat, or the end of the word before, does not stand for it.
    const byLetter: { ch: string; run: number; from: number }[] = [];
    let index = -1;
    let last = -1;
    let run = 0;
    let inRun = false;
    for (const { ch, at } of clusters(text, match.startIndex, match.endIndex)) {
      const f = foldChar(ch.codePointAt(0)!);
      if (f === undefined) {
        if (inRun) run++;
        inRun = false;
        continue;
      }
      if (f !== last) {
        index++;
        last = f;
      }
      const previous = byLetter[index];
      byLetter[index] = { ch, run, from: previous && previous.run === run ? previous.from : at };
      inRun = true;
    }
    // Where the written entry starts: its first letter's run, not the word before that ended with the same letter.
    const start = byLetter[0]?.from ?? match.startIndex;
    // Every entry starts a word: with the spaces skipped, "anh à, cái kết" reads "anhacaiket", which holds
    // "nhacai" from the middle of "anh". Short entries also end one: "lon" is not in "long".
    const first = term.pattern.charCodeAt(0);
    if (letterAt(text, start - 1, -1, first)) return -1;
    if (term.wholeWord && letterAt(text, match.endIndex + 1, 1, term.pattern.charCodeAt(term.pattern.length - 1))) return -1;
    const runs = new Map<number, { text: string[]; entry: string[] }>();
    byLetter.forEach((letter, i) => {
      const r = runs.get(letter.run) ?? { text: [], entry: [] };
      r.text.push(letter.ch);
      r.entry.push(...(term.letters[i] ?? []));
      runs.set(letter.run, r);
    });
    for (const r of runs.values()) {
      // Digits written for letters ("đ0") say the writer is hiding the word: no mark of theirs to go by.
      if (r.text.some((ch) => LEET[ch] !== undefined)) continue;
      const written = marksOf(r.text);
      if (!written.marked) continue;
      const expected = marksOf(r.entry);
      if (!expected.marked) continue;
      if (!sameList(written.quality, expected.quality)) return -1;
      // Vowel marks written but no tone at all: the writer dropped the tones ("cá cươc"), not a level-tone word.
      // Without either ("đi" against "đĩ"), the missing tone is the writer's word.
      const tonesDropped = written.tones.length === 0 && written.quality.length > 0;
      if (!tonesDropped && !sameList(written.tones, expected.tones)) return -1;
    }
    return start;
  }

  /** What happens to a comment: masked words starred, and whether (and why) it is held back. */
  check(text: string, options: CheckOptions): FilterVerdict {
    const found = this.find(text);
    let hold: FilterVerdict['hold'] = found.some((f) => f.entry.action === 'hold') ? 'word' : null;
    if (!hold && options.holdContacts) hold = hasLink(text) ? 'link' : hasPhoneNumber(text) ? 'phone' : null;
    const masks = found.filter((f) => f.entry.action === 'mask');
    return {
      text: masks.length ? maskSpans(text, masks) : text,
      hold,
      matched: [...new Map(found.map((f) => [f.entry.id, f.entry])).values()],
    };
  }
}

/**
 * Whether a letter or digit stands next to a match (step -1: before it; +1: after it, past the repeats of its last
 * letter, "lonnn"). Combining marks are skipped.
 */
function letterAt(text: string, at: number, step: 1 | -1, repeatOf?: number): boolean {
  let i = at;
  while (i >= 0 && i < text.length) {
    const code = text.charCodeAt(i);
    if (code >= 0x300 && code <= 0x36f) {
      i += step;
      continue;
    }
    // A surrogate pair: read the whole code point.
    const low = code >= 0xdc00 && code <= 0xdfff;
    const cp = step === -1 && low && i > 0 ? text.codePointAt(i - 1)! : text.codePointAt(i)!;
    const f = foldChar(cp);
    if (f !== undefined && f === repeatOf) {
      i += step * (cp > 0xffff ? 2 : 1);
      continue;
    }
    return f !== undefined;
  }
  return false;
}

/** Every non-space character of each span becomes '*'. */
function maskSpans(text: string, spans: { start: number; end: number }[]): string {
  const chars = text.split('');
  for (const { start, end } of spans) {
    for (let i = start; i <= end && i < chars.length; i++) if (!/\s/.test(chars[i]!)) chars[i] = '*';
    // Combining marks of the last letter go with it.
    for (let i = end + 1; i < chars.length && /[\u0300-\u036f]/.test(chars[i]!); i++) chars[i] = '';
  }
  return chars.join('');
}

// ---------------------------------------------------------------------------------------------------------------
// Links and phone numbers (held for young accounts and accounts without a paid VIP)

const TLDS =
  'com|net|org|vn|info|io|co|xyz|top|club|bet|me|tv|link|site|online|live|app|cc|biz|pro|vip|win|fun|shop|store|asia|ly|gg|tk|ml|ga|cf|us|uk|to|ws|pw|in|ru|cn|one|icu|fit|bar|casino|games|group|today|life|world|click|buzz';
/** Endings that are no Vietnamese word once folded ("cơm" folds to "com" and "nét" to "net", but not after " . "). */
const SPACED_TLDS = 'com|net|org|vn|xyz|top|club|bet|info|io|biz|casino|online|site|cc';
const DOT = String.raw`(?:\.|\(\.\)|\[\.\]|\(dot\)|\[dot\])`;
/**
 * Every quantifier bounded and nothing nested: each start position costs a constant, so a search is linear.
 * Written for the folded text (no diacritics, lower case): "nhacai.com", "abc(.)net", "nhacai . com", "abc dot vn",
 * "abc chấm com". A dot with a space on one side only is a sentence's end ("Phim hay. Có thể…"), not a domain.
 */
const LINK_PATTERNS = [
  /https?:\/\//,
  /(?<![a-z0-9])www\s{0,2}\./,
  new RegExp(`[a-z0-9]${DOT}(?:${TLDS})(?![a-z0-9])`),
  new RegExp(`[a-z0-9]\\s{1,2}(?:${DOT}|dot|cham)\\s{1,2}(?:${SPACED_TLDS})(?![a-z0-9])`),
];

/** A link, a bare domain or one written around the filter ("abc . com", "abc chấm com"). */
export function hasLink(text: string): boolean {
  // fold() also turns zero-width and control characters into spaces and collapses runs of spaces.
  const folded = fold(text);
  return LINK_PATTERNS.some((re) => re.test(folded));
}

const PHONE_SEPARATORS = new Set([' ', '.', '-', '–', '—', '(', ')', '/', '_', '\u00a0', '·']);

/**
 * A Vietnamese phone number however it is spaced: 0 then 9–10 digits, or 84 / +84 then 9–10 digits, with up to two
 * separators (space, dot, dash, brackets) between digits. One pass over the text.
 */
export function hasPhoneNumber(text: string): boolean {
  let digits = '';
  /** Where each group of digits began in `digits` (a number may start at any group: "số 1 0912 345 678"). */
  let starts: number[] = [];
  let gap = 0;
  for (const ch of text) {
    if (ch >= '0' && ch <= '9') {
      if (gap > 0 || digits === '') starts.push(digits.length);
      if (starts.length > 6) starts = starts.slice(-6);
      digits += ch;
      gap = 0;
      if (starts.some((s) => isPhone(digits.slice(s)))) return true;
      continue;
    }
    if (digits && PHONE_SEPARATORS.has(ch) && gap < 2) {
      gap++;
      continue;
    }
    digits = '';
    starts = [];
    gap = 0;
  }
  return false;
}

const isPhone = (d: string) => (d.startsWith('0') && d.length === 10) || (d.startsWith('84') && d.length === 11);

// ---------------------------------------------------------------------------------------------------------------
// The same text again and again

/** The normalised text's key (FNV-1a, 2 × 32 bits): the same comment however it is spaced, cased or marked. */
export function fingerprintOf(text: string): { key: string; letters: number } {
  const n = normalise(text);
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < n.length; i++) {
    const c = n.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x811c9dc5) >>> 0;
  }
  return { key: `${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}`, letters: n.length };
}
