/**
 * Control, format and lone surrogate characters: a NUL ends FTS5's query parser mid-phrase
 * ("unterminated string", a 500), and none of them is searchable text. fold() turns them into spaces, so
 * every folded string (stored search text, FTS phrases, LIKE patterns) is free of them.
 */
const NON_TEXT = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;

/**
 * Folds Vietnamese text for search: NFD, strip combining marks, đ→d, lower case, collapse spaces.
 * FTS5's remove_diacritics does not fold đ/Đ, so the app folds both stored text and queries itself.
 * "Đất Rừng Phương Nam" → "dat rung phuong nam".
 */
export function fold(text: string): string {
  return text
    .replace(NON_TEXT, ' ')
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[đĐ]/g, 'd')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** ASCII slug from any title: "Đất Rừng Phương Nam" → "dat-rung-phuong-nam". */
export function slugify(text: string): string {
  return fold(text)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 120);
}
