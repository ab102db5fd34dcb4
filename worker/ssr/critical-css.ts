// The stylesheet a rendered page carries inline: only the rules its markup can use (docs/decisions/0009, "Later").
// The whole sheet (43 KB, 10 KB compressed) made every first page larger than the first round trip of a new
// connection (TCP's initial window, about 14 KB): the page's bytes came in two round trips instead of one, and the
// poster waited for the second. The app links the whole sheet as it starts (web/src/main.tsx), before anything it
// renders can need a rule the page did not carry.
//
// The table is made once at build time from the built sheet (web/stylesheet-table.ts, postcss); here it is
// only filtered, so a page's selection costs a scan of its class attributes and a pass over ~600 rules.
import type { SheetPiece } from '../schemas/stylesheet';

const CLASS_ATTRIBUTE = /\sclass="([^"]*)"/g;

/** Every class name in the markup's class attributes. */
export function classesIn(html: string): Set<string> {
  const classes = new Set<string>();
  for (const match of html.matchAll(CLASS_ATTRIBUTE)) {
    for (const name of match[1]!.split(/\s+/)) if (name) classes.add(name);
  }
  return classes;
}

/** The sheet's rules that markup with these classes can use, in the sheet's order. */
export function criticalCss(pieces: readonly SheetPiece[], classes: ReadonlySet<string>): string {
  let css = '';
  for (const piece of pieces) {
    if ('open' in piece) {
      const inner = criticalCss(piece.pieces, classes);
      if (inner) css += `${piece.open}{${inner}}`;
    } else if (!piece.any || piece.any.some((needs) => needs.every((name) => classes.has(name)))) {
      css += piece.css;
    }
  }
  return css;
}
