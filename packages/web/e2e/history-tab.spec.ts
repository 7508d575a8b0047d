import type { HistorySession } from '@sluice/api';
import { expect, type Page } from '@playwright/test';
import type { RunningServer } from '../../server/test/harness.js';
import { minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';

/** Plays the stream's MPEG-TS until `bytes` arrived, then hangs up: one closed session in the log. */
async function playAndClose(server: RunningServer, token: string, bytes: number): Promise<void> {
  const response = await fetch(`${server.url}/demo/mpegts?token=${token}`);
  expect(response.ok).toBe(true);
  const reader = response.body!.getReader();
  let received = 0;
  while (received < bytes) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.length;
  }
  await reader.cancel();
  expect(received).toBeGreaterThanOrEqual(bytes);
}

async function loggedSessions(server: RunningServer): Promise<HistorySession[]> {
  const response = await server.api('/flussonic/api/history?media=demo');
  return response.ok ? ((await response.json()) as { sessions: HistorySession[] }).sessions : [];
}

const bytesColumn = (page: Page) =>
  page.getByRole('table', { name: 'history sessions' }).getByRole('row').locator('td:nth-child(6)');

test.describe('history tab', () => {
  test.use({
    serverConfig:
      `${minimalConfig}session_log logs/sessions;\ngeoip_overrides {\n  127.0.0.1 FR;\n}\n` +
      `stream demo {\n  url test://?size=160x90&bitrate=100;\n  static true;\n}\n`,
  });

  test('shows the sessions of real clients after they closed, sorted, as a report, with the graph', async ({
    page,
    server,
  }) => {
    await expect
      .poll(async () => (await fetch(`${server.url}/demo/mpegts`, { method: 'HEAD' })).status, {
        timeout: 30_000,
      })
      .toBe(200);
    await playAndClose(server, 'small', 20_000);
    await playAndClose(server, 'large', 200_000);
    await expect
      .poll(async () => (await loggedSessions(server)).length, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(2);

    await new ConsoleShell(page, server.url).rememberLogin();
    await page.goto(`${server.url}/admin/standalone/demo/history`);
    const sessions = page.getByRole('table', { name: 'history sessions' });
    await expect(sessions.getByRole('row', { name: /history session/ })).toHaveCount(
      (await loggedSessions(server)).length,
    );
    const row = sessions.getByRole('row', { name: /history session/ }).first();
    await expect(row.getByRole('cell', { name: 'mpegts', exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: '127.0.0.1', exact: true })).toBeVisible();
    await expect(row.getByRole('cell', { name: 'FR', exact: true })).toBeVisible();
    await expect(page.getByLabel('history graph')).toBeVisible();
    expect((await page.getByLabel('history graph').boundingBox())?.height).toBeGreaterThanOrEqual(400);

    // Bytes: none → asc → desc → none, each a new call sorted by bytes_sent.
    const sortBytes = page.getByRole('button', { name: 'sort by Bytes' });
    const header = page.getByRole('columnheader', { name: /Bytes/ });
    let call = page.waitForRequest(/history\?.*sort=bytes_sent&sort_dir=asc/);
    await sortBytes.click();
    await call;
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    const ascending = await bytesColumn(page).allInnerTexts();
    call = page.waitForRequest(/history\?.*sort=bytes_sent&sort_dir=desc/);
    await sortBytes.click();
    await call;
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(() => bytesColumn(page).allInnerTexts()).toEqual([...ascending].reverse());
    call = page.waitForRequest((r) => r.url().includes('/history?') && !r.url().includes('sort='));
    await sortBytes.click();
    await call;
    await expect(header).toHaveAttribute('aria-sort', 'none');

    // The report: one row for MPEG-TS from France with both sessions.
    await page.getByRole('link', { name: 'Show report' }).click();
    await expect(page).toHaveURL(/report=true/);
    const report = page.getByRole('table', { name: 'history report' });
    const reportRow = report.getByRole('row', { name: 'report mpegts FR' });
    await expect(reportRow.getByRole('cell').last()).toHaveText(
      String((await loggedSessions(server)).length),
    );
    await expect(sessions).toHaveCount(0);

    await page.getByRole('link', { name: 'Hide sessions' }).click();
    await expect(page).toHaveURL(/sessions=false/);
    await expect(report).toHaveCount(0);
    await page.getByRole('link', { name: 'Hide graph' }).click();
    await expect(page).toHaveURL(/pulse=false/);
    await expect(page.getByLabel('history graph')).toHaveCount(0);

    // The flags live in the URL: a reload keeps them.
    await page.reload();
    await expect(page.getByRole('link', { name: 'Show graph' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Show sessions' })).toHaveCount(2);
  });
});
