import type { HistorySession } from '@sluice/api';
import { expect, type Page } from '@playwright/test';
import { freePort, type RunningServer } from '../../server/test/harness.js';
import { rtmpPublisher } from '../../server/test/media-helpers.js';
import { minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';

/** Plays the stream's MPEG-TS until `bytes` arrived, then hangs up: one closed session in the log. */
async function playAndClose(
  server: RunningServer,
  token: string,
  bytes: number,
  name = 'demo',
): Promise<void> {
  // Aborting closes the connection at once; cancelling the body alone may leave the socket open a while.
  const player = new AbortController();
  const response = await fetch(`${server.url}/${name}/mpegts?token=${token}`, { signal: player.signal });
  expect(response.ok).toBe(true);
  const reader = response.body!.getReader();
  let received = 0;
  while (received < bytes) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.length;
  }
  player.abort();
  expect(received).toBeGreaterThanOrEqual(bytes);
}

/**
 * A session ends, and is logged, once its client has been quiet for session_idle_seconds (one
 * session spans a player's many requests): 2 s here rather than the default 20 s it would wait out.
 */
const SESSION_IDLE = 'session_idle_seconds 2;\n';

async function loggedSessions(server: RunningServer, media = 'demo'): Promise<HistorySession[]> {
  const response = await server.api(`/flussonic/api/history?media=${encodeURIComponent(media)}`);
  return response.ok ? ((await response.json()) as { sessions: HistorySession[] }).sessions : [];
}

const bytesColumn = (page: Page) =>
  page.getByRole('table', { name: 'history sessions' }).getByRole('row').locator('td:nth-child(6)');

/** Whether a Bytes column as shown ("0 B", "20.6 KB", "1.2 MB") runs from least to most. */
function isAscending(texts: string[]): boolean {
  const units = ['B', 'KB', 'MB', 'GB'];
  const bytes = texts.map((t) => {
    const [value, unit] = t.split(' ');
    return Number(value) * 1024 ** units.indexOf(unit ?? 'B');
  });
  return bytes.length > 0 && bytes.every((b, i) => i === 0 || bytes[i - 1]! <= b);
}

test.describe('history tab', () => {
  test.use({
    serverConfig:
      `${minimalConfig}${SESSION_IDLE}session_log logs/sessions;\ngeoip_overrides {\n  127.0.0.1 FR;\n}\n` +
      `stream demo {\n  url test://?size=160x90&bitrate=100;\n  static true;\n}\n`,
  });

  test('shows the sessions of real clients after they closed, sorted, as a report, with the graph', async ({
    page,
    server,
  }) => {
    test.setTimeout(120_000);
    await expect
      .poll(async () => (await fetch(`${server.url}/demo/mpegts`, { method: 'HEAD' })).status, {
        timeout: 30_000,
      })
      .toBe(200);
    await playAndClose(server, 'small', 20_000);
    await playAndClose(server, 'large', 200_000);
    // Once the later players' sessions are in the log, so is the earlier probe's: the log stays as it is.
    await expect
      .poll(async () =>
        (await loggedSessions(server))
          .map((s) => s.token)
          .filter((t) => t !== null)
          .sort(),
      )
      .toEqual(['large', 'small']);
    const logged = await loggedSessions(server);

    await new ConsoleShell(page, server.url).rememberLogin();
    await page.goto(`${server.url}/admin/standalone/demo/history`);
    const sessions = page.getByRole('table', { name: 'history sessions' });
    await expect(sessions.getByRole('row', { name: /history session/ })).toHaveCount(logged.length);
    for (const session of logged)
      await expect(page.getByLabel(`history session ${session.id}`)).toBeVisible();
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
    // The header turns before the sorted answer is shown: wait for the rows themselves.
    await expect.poll(async () => isAscending(await bytesColumn(page).allInnerTexts())).toBe(true);
    const ascending = await bytesColumn(page).allInnerTexts();
    expect(ascending).toHaveLength(logged.length);
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
    await expect(reportRow.getByRole('cell').last()).toHaveText(String(logged.length));
    await expect(sessions).toHaveCount(0);

    // One link speaks of sessions at a time: back to the sessions, then hide them.
    await expect(page.getByRole('link', { name: 'Hide sessions' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Show sessions' }).click();
    await expect(page).toHaveURL(/report=false/);
    await expect(report).toHaveCount(0);
    await page.getByRole('link', { name: 'Hide sessions' }).click();
    await expect(page).toHaveURL(/sessions=false/);
    await expect(sessions).toHaveCount(0);
    await page.getByRole('link', { name: 'Hide graph' }).click();
    await expect(page).toHaveURL(/pulse=false/);
    await expect(page.getByLabel('history graph')).toHaveCount(0);

    // The flags live in the URL: a reload keeps them.
    await page.reload();
    await expect(page.getByRole('link', { name: 'Show graph' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Show sessions' })).toHaveCount(1);
  });
});

let rtmpPort = 0;
test.describe('location history tab', () => {
  test.beforeAll(async () => {
    rtmpPort = await freePort();
  });
  test.use({
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies destructured.
    serverConfig: async ({}, use) =>
      use(
        `${minimalConfig}${SESSION_IDLE}rtmp ${rtmpPort};\nsession_log logs/sessions;\n` +
          `stream demo {\n  url test://?size=160x90&bitrate=100;\n  static true;\n}\nlive live {\n}\n`,
      ),
  });

  test('lists the sessions of the streams published into the location, not of others', async ({
    page,
    server,
  }) => {
    const publisher = rtmpPublisher(`rtmp://127.0.0.1:${rtmpPort}/live/cam`);
    try {
      await expect
        .poll(async () => (await fetch(`${server.url}/live/cam/mpegts`, { method: 'HEAD' })).status, {
          timeout: 30_000,
        })
        .toBe(200);
      await playAndClose(server, 'cam-viewer', 20_000, 'live/cam');
      await expect
        .poll(async () => (await fetch(`${server.url}/demo/mpegts`, { method: 'HEAD' })).status, {
          timeout: 30_000,
        })
        .toBe(200);
      await playAndClose(server, 'demo-viewer', 20_000);
      const logged = async (media: string, token: string) =>
        (await loggedSessions(server, media)).some((s) => s.token === token);
      await expect.poll(() => logged('live/cam', 'cam-viewer')).toBe(true);
      await expect.poll(() => logged('demo', 'demo-viewer')).toBe(true);
    } finally {
      await publisher.stop();
    }
    const camSessions = await loggedSessions(server, 'live/cam');

    await new ConsoleShell(page, server.url).rememberLogin();
    await page.goto(`${server.url}/admin/location/live`);
    await page
      .getByRole('navigation', { name: 'location tabs' })
      .getByRole('link', { name: 'History' })
      .click();
    const rows = page
      .getByRole('table', { name: 'history sessions' })
      .getByRole('row', { name: /history session/ });
    await expect(rows).toHaveCount(camSessions.length);
    // The pulse is per stream: a location has no graph.
    await expect(page.getByLabel('history graph')).toHaveCount(0);
    for (const session of camSessions)
      await expect(page.getByLabel(`history session ${session.id}`)).toBeVisible();

    await page.getByRole('link', { name: 'Show report' }).click();
    const report = page.getByRole('table', { name: 'history report' }).getByRole('row', { name: /^report / });
    // The report comes with its own history call: read its counts once it has drawn them.
    const total = async () =>
      (await report.locator('td:last-child').allInnerTexts()).map(Number).reduce((a, b) => a + b, 0);
    await expect.poll(total).toBe(camSessions.length);
  });
});
