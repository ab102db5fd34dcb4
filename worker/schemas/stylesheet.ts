// The app's stylesheet in pieces: made by the server renderer's build (web/stylesheet-table.ts), filtered by the host
// for each rendered page (worker/ssr/critical-css.ts). Pure types.

/**
 * One piece of the sheet, in its order: a rule with the class names each of its selectors needs (kept when one
 * selector's classes are all in the page; no `any` means always kept: element and attribute selectors, keyframes,
 * font faces), or a block (@media, @supports) around pieces, kept with those of its pieces that are kept.
 */
export type SheetPiece = { css: string; any?: string[][] } | { open: string; pieces: SheetPiece[] };

/** The built sheet's address (the inline <style>'s data-href) and its pieces. */
export interface StylesheetTable {
  href: string;
  pieces: SheetPiece[];
}
