// Names of actors and directors as sources send them (issue 40 §1, docs/decisions/1070-people.md): placeholders
// ("", "Đang cập nhật", "Updating", "N/A" …) are no one; a person is keyed by the slug of the folded name, so
// "Trấn Thành" and "Tran Thanh" are one page (names are not identities: two spellings stay two people).
import { fold, slugify } from '../../db/fold';

export type PersonRole = 'actor' | 'director';

/** Folded, trailing dots and ellipses dropped: what sources put where they have no name. */
const PLACEHOLDERS = new Set([
  'dang cap nhat',
  'dang update',
  'chua cap nhat',
  'updating',
  'update',
  'n/a',
  'na',
  'none',
  'null',
  'undefined',
  'unknown',
  'khong ro',
  'chua ro',
  'khong co',
  'tba',
  'tbd',
  'dang xac dinh',
  'chua xac dinh',
]);

const MAX_NAME = 100;
const MAX_PEOPLE = 40;

/** True for a value that names no one: empty, punctuation only, or a placeholder in any case or accent. */
export function isPlaceholderName(name: string): boolean {
  const folded = fold(name)
    .replace(/[.…\s]+$/u, '')
    .trim();
  if (!folded || !/[\p{L}\p{N}]/u.test(folded)) return true;
  return PLACEHOLDERS.has(folded);
}

/** The person's page slug: the folded name in [a-z0-9-]; a name with no Latin letter or digit (章若楠) keeps its letters. */
export function personSlug(name: string): string {
  const ascii = slugify(name);
  if (ascii) return ascii;
  return fold(name)
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120);
}

/** Cleaned names, placeholders and repeats (by slug) dropped, in the source's order, at most 40. */
export function cleanNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of names) {
    const name = raw
      .replace(/[\u0000-\u001f\u007f]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, MAX_NAME);
    if (isPlaceholderName(name)) continue;
    const slug = personSlug(name);
    if (!slug || seen.has(slug)) continue;
    seen.add(slug);
    out.push(name);
    if (out.length >= MAX_PEOPLE) break;
  }
  return out;
}

/** films.director / films.actors ('A, B') → the people it names. */
export function namesOf(text: string | null | undefined): string[] {
  return cleanNames((text ?? '').split(','));
}
