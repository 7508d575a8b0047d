import type { Locator, Page } from '@playwright/test';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';

/**
 * The Pulse page (spec 000 §2, issue 21) against the real server's store and live topics, with a
 * test:// stream running so the traffic graph has something to draw.
 */
const TEST_SOURCE = 'test://?size=320x180&bitrate=300';

/** The points a panel draws now (its data-points attribute). */
const pointsOf = async (panel: Locator): Promise<number> => Number(await panel.getAttribute('data-points'));
const panel = (page: Page, graph: string | RegExp, which: 'last hours' | 'last minute') =>
  page
    .getByRole('region', { name: graph })
    .getByRole('group', { name: new RegExp(`, ${which}$`) })
    .first();

/** Waits until the panel draws more points than it does now: data arriving live. */
async function expectGrowing(target: Locator): Promise<void> {
  await expect.poll(() => pointsOf(target), { timeout: 30_000 }).toBeGreaterThan(0);
  const before = await pointsOf(target);
  await expect.poll(() => pointsOf(target), { timeout: 30_000 }).toBeGreaterThan(before);
}

test.describe('pulse board', () => {
  test.use({ serverConfig: `${minimalConfig}stream demo {\n  url ${TEST_SOURCE};\n  static true;\n}\n` });

  test('shows the default board, live, and a custom query', async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
    await page.goto(`${server.url}/admin`);
    await page.getByRole('navigation', { name: 'main menu' }).getByRole('link', { name: 'Pulse' }).click();
    await expect(page).toHaveURL(/\/admin\/pulse$/);
    await expect(page.getByText('Collecting statistics')).toBeVisible();

    for (const title of [
      'Traffic',
      'Memory usage',
      'CPU usage',
      'Event loop utilization',
      'Active tasks (handles and requests)',
    ]) {
      await expect(page.getByRole('region', { name: title, exact: true })).toBeVisible();
      await expect
        .poll(() => pointsOf(panel(page, title, 'last hours')), { timeout: 30_000 })
        .toBeGreaterThan(0);
    }
    await expect(page.getByRole('region', { name: /^HDD I\/O usage: \S+/ }).first()).toBeVisible();
    // A partition: its path and usage percent.
    await expect(
      page.getByRole('region', { name: /^Disk space usage: \/\S* \(\d+ %\)$/ }).first(),
    ).toBeVisible();

    await expectGrowing(panel(page, 'CPU usage', 'last minute'));
    await expectGrowing(panel(page, 'Traffic', 'last minute'));

    const query = page.getByRole('textbox', { name: 'Query' });
    const show = page.getByRole('button', { name: 'show' });
    await expect(show).toBeDisabled();
    // The help lists the metrics while the field has focus; a click on one lands in the field.
    await query.click();
    const metrics = page.getByRole('group', { name: 'metrics' });
    await metrics.getByRole('button', { name: 'total_clients', exact: true }).click();
    await expect(query).toHaveValue('total_clients');
    await expect(show).toBeEnabled();
    await page.getByRole('heading', { name: 'Pulse', exact: true }).click();
    await expect(metrics).toBeHidden();

    await query.fill('max:2h-savg:cpu_usage');
    await expect(page.getByText('invalid format')).toBeVisible();
    await expect(show).toBeDisabled();

    await query.fill('max:total_memusage');
    await expect(page.getByText('invalid format')).toBeHidden();
    await show.click();
    await expect(page).toHaveURL(/\?query=max%3Atotal_memusage$/);
    await expect(page.getByRole('region', { name: 'Traffic' })).toBeHidden();
    await expectGrowing(panel(page, 'max:total_memusage', 'last minute'));
    await expect.poll(() => pointsOf(panel(page, 'max:total_memusage', 'last hours'))).toBeGreaterThan(0);

    await page.getByRole('link', { name: 'back to board' }).click();
    await expect(page).toHaveURL(/\/admin\/pulse$/);
    await expect(page.getByRole('region', { name: 'Traffic', exact: true })).toBeVisible();
  });
});
