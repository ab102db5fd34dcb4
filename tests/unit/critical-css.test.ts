// A rendered page carries only the stylesheet's rules its markup can use (worker/ssr/critical-css.ts), cut at
// build time (web/stylesheet-table.ts) and chosen per page by the host (worker/ssr/render.ts).
import { describe, expect, it } from 'vitest';
import { classesIn, criticalCss } from '../../worker/ssr/critical-css';
import { renderShell, type SsrEntry } from '../../worker/ssr/render';
import { classesNeeded, stylesheetPieces } from '../../web/stylesheet-table';

// Minified as the build writes it: a rule list, an element rule, a media block, keyframes, :not() and attributes.
const SHEET =
  ':root{--red:#e50914}body{margin:0}.card,.tile .title{color:red}.card .badge{top:0}.btn:not(.btn-ghost){border:0}' +
  '[data-state=open].menu{display:block}.nav a.active{font-weight:700}@media (width>=40rem){.card{width:50%}.footer{padding:0}}' +
  '@keyframes spin{to{transform:rotate(1turn)}}.footer{color:gray}';

describe('the stylesheet cut into pieces', () => {
  it('a selector needs each of its classes; attributes and :not() add none', () => {
    expect(classesNeeded('.card .badge')).toEqual(['card', 'badge']);
    expect(classesNeeded('.btn:not(.btn-ghost)')).toEqual(['btn']);
    expect(classesNeeded('[data-x=".a"].menu')).toEqual(['menu']);
    expect(classesNeeded('.nav a.active:hover')).toEqual(['nav', 'active']);
    expect(classesNeeded('body > main')).toEqual([]);
  });

  it('with every class in the page, the pieces make the sheet again, in its order', () => {
    const every = new Set(['card', 'tile', 'title', 'badge', 'btn', 'menu', 'nav', 'active', 'footer']);
    expect(criticalCss(stylesheetPieces(SHEET), every)).toBe(SHEET);
  });

  it('a page keeps the rules its classes can match, element rules and keyframes, and no empty block', () => {
    const pieces = stylesheetPieces(SHEET);
    expect(criticalCss(pieces, new Set(['tile', 'title']))).toBe(
      ':root{--red:#e50914}body{margin:0}.card,.tile .title{color:red}@keyframes spin{to{transform:rotate(1turn)}}',
    );
    expect(criticalCss(pieces, new Set(['card', 'btn']))).toBe(
      ':root{--red:#e50914}body{margin:0}.card,.tile .title{color:red}.btn:not(.btn-ghost){border:0}@media (width>=40rem){.card{width:50%}}@keyframes spin{to{transform:rotate(1turn)}}',
    );
  });

  it('reads the class names of the markup', () => {
    expect([...classesIn('<div class="a  b"><svg class="c"></svg><p data-class="x">class="y"</p></div>')]).toEqual(['a', 'b', 'c']);
  });
});

describe('the host puts the page’s rules in the page', () => {
  const SHELL = `<!doctype html><html lang="vi"><head><script src="/assets/boot-abc.js" async></script><title>PhimViet</title><style data-href="/assets/index-abc.css">${SHEET}</style><link rel="manifest" href="/manifest.webmanifest"></head><body><div id="root"></div><!--/app--><footer class="footer"></footer></body></html>`;
  const entry = (href: string): SsrEntry => ({
    renderPage: async () => ({ html: '<article class="card"><span class="badge"></span></article>', state: { queries: [] } }),
    stylesheet: { href, pieces: stylesheetPieces(SHEET) },
  });
  const render = (e: SsrEntry, path = '/phim-bo') =>
    renderShell(
      SHELL,
      new URL(`http://localhost${path}`),
      async () => e,
      () => new Response('{}'),
      'https://phimviet.example',
    );

  it('a rendered page: the rules of its markup and of the shell around it, marked as a part, the rest of the head kept', async () => {
    const { html, rendered } = await render(entry('/assets/index-abc.css'));
    expect(rendered).toBe(true);
    const style = /<style data-href="\/assets\/index-abc\.css" data-critical>([^<]*)<\/style><link rel="manifest"/.exec(html);
    expect(style?.[1]).toBe(
      ':root{--red:#e50914}body{margin:0}.card,.tile .title{color:red}.card .badge{top:0}@media (width>=40rem){.card{width:50%}.footer{padding:0}}@keyframes spin{to{transform:rotate(1turn)}}.footer{color:gray}',
    );
  });

  it('a table of another build, or a page the host does not render, keeps the whole sheet', async () => {
    expect((await render(entry('/assets/index-old.css'))).html).toContain(`<style data-href="/assets/index-abc.css">${SHEET}</style>`);
    expect((await render(entry('/assets/index-abc.css'), '/logo.png')).html).toBe(SHELL);
  });
});
