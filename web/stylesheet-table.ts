// Build time only (vite-plugins.ts appStylesheetTable): the built stylesheet cut into the pieces
// worker/ssr/critical-css.ts filters for each rendered page. postcss parses it; nothing here runs on a host.
import postcss, { type ChildNode } from 'postcss';
import type { SheetPiece } from '../worker/schemas/stylesheet';

/** Blocks whose rules apply as if they were at the top level, when their condition holds. */
const CONDITIONAL = new Set(['media', 'supports', 'container', 'layer']);

/**
 * The class names a selector needs, all of them, for it to match anything. Attribute selectors and the insides of
 * :not(), :is(), :where() and :has() are left out: a selector that may match without them is kept, never dropped.
 */
export function classesNeeded(selector: string): string[] {
  const bare = selector.replace(/\[[^\]]*\]/g, '').replace(/:(?:not|is|where|has)\((?:[^()]|\([^()]*\))*\)/g, '');
  return [...new Set(Array.from(bare.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g), (match) => match[1]!))];
}

function piece(node: ChildNode): SheetPiece | null {
  if (node.type === 'comment') return null;
  if (node.type === 'rule') {
    const any = node.selectors.map(classesNeeded);
    return any.some((needs) => needs.length === 0) ? { css: node.toString() } : { css: node.toString(), any };
  }
  if (node.type === 'atrule' && node.nodes && CONDITIONAL.has(node.name)) {
    return { open: `@${node.name} ${node.params}`, pieces: pieces(node.nodes) };
  }
  return { css: node.toString() };
}

function pieces(nodes: ChildNode[]): SheetPiece[] {
  return nodes.map(piece).filter((p) => p !== null);
}

/** The sheet's pieces, in its order (worker/schemas/stylesheet.ts SheetPiece). */
export function stylesheetPieces(css: string): SheetPiece[] {
  return pieces(postcss.parse(css).nodes);
}
