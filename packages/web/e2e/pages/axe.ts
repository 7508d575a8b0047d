import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The WCAG 2.0/2.1 level A and AA rules: what the console promises (issue 17). */
const WCAG_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** What fails a page: an operator with low vision or a keyboard is blocked, not merely slowed. */
const FAILING_IMPACTS = new Set(['serious', 'critical']);

/**
 * Runs axe-core over the page as it stands and fails on any serious or critical WCAG 2 A/AA
 * violation, each printed with its rule id, the elements it names and axe's summary of the fix,
 * so the failure message alone says what to change.
 */
export async function expectNoSeriousViolations(page: Page, what = page.url()): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_AA_TAGS).analyze();
  const failing = results.violations.filter((v) => FAILING_IMPACTS.has(v.impact ?? ''));
  const report = failing.flatMap((v) =>
    v.nodes.map(
      (node) =>
        `${v.id} (${v.impact}) at ${node.target.join(' ')}: ${node.failureSummary?.replaceAll('\n', ' ') ?? v.help}`,
    ),
  );
  expect(report, `serious or critical accessibility violations on ${what}`).toEqual([]);
}
