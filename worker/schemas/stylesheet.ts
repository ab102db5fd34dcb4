// The app's stylesheet in pieces: made by the server renderer's build (web/stylesheet-table.ts), filtered by the host
// for each rendered page (worker/ssr/critical-css.ts), and the <style> that carries it inline.

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

/**
 * The app's stylesheet inline in a page, named by the address it would have had (web/vite-plugins.ts inlineCss; the
 * app links that address as it starts, web/src/main.tsx). `critical`: only the page's own rules (worker/ssr/render.ts).
 */
export function inlineStylesheet(href: string, css: string, options: { critical?: boolean } = {}): string {
  return `<style data-href="${href}"${options.critical ? ' data-critical' : ''}>${css}</style>`;
}

/** The whole sheet inline, as the build writes it: its address, then its text. */
export const INLINE_STYLESHEET = /<style data-href="([^"]+)">([\s\S]*?)<\/style>/;
