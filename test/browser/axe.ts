import fs from 'node:fs';
import type { Page } from 'playwright-core';

const axeSource = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface Violation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's WCAG 2 A/AA rules on the page as it is now; returns the serious and critical violations. */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  // Evaluated through the DevTools protocol, as @axe-core/playwright injects it: a <script> tag would be refused by the
  // console's Content-Security-Policy (script-src 'self'), which is the point of the policy.
  await page.evaluate(axeSource);
  const violations = await page.evaluate<Violation[]>(`
    axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }).then((r) =>
      r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) })),
    )
  `);
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
