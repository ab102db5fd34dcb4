import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** The rules axe-core runs: WCAG 2.0/2.1 A and AA, and its best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  nodes: { target: string; html: string; summary: string }[];
}

/**
 * Runs axe-core on what the page shows now and returns its serious and critical violations. The page's
 * Content-Security-Policy forbids inline scripts: open it with `bypassCSP: true` so axe can be added.
 */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: axe.source });
  return page.evaluate(async (tags) => {
    const run = (window as unknown as { axe: typeof axe }).axe.run;
    const result = await run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        rule: v.id,
        impact: v.impact ?? '',
        help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.join(' '), html: n.html.slice(0, 200), summary: n.failureSummary ?? '' })),
      }));
  }, AXE_TAGS);
}
