import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../server/test/harness.js';
import { rtmpPublisher, streamStats } from '../../server/test/media-helpers.js';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { DvrTab } from './pages/dvr-tab.js';
import { expectPlaying } from './pages/stream-page.js';

const root = mkdtempSync(join(tmpdir(), 'sluice-e2e-dvr-published-'));
let rtmpPort = 0;

test.beforeAll(async () => {
  rtmpPort = await freePort();
});
test.afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});
test.use({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies destructured.
  serverConfig: async ({}, use) =>
    use(`${minimalConfig}rtmp ${rtmpPort};\nlive live {\n  dvr ${root} 1d;\n}\n`),
});

test('a published stream of a location with dvr gets its dvr sub-page: the timeline and the archive player', async ({
  page,
  server,
}) => {
  await new ConsoleShell(page, server.url).rememberLogin();
  await page.goto(`${server.url}/admin/published/live%2Fcam`);
  const tabs = page.getByRole('navigation', { name: 'published tabs' });
  const publisher = rtmpPublisher(`rtmp://127.0.0.1:${rtmpPort}/live/cam`);
  try {
    await expect(tabs).toBeVisible({ timeout: 30_000 });
    // Recorded under the location's root: the DVR sub-page appears once the stats have dvr_info.
    const dvrLink = tabs.getByRole('link', { name: 'DVR', exact: true });
    await expect(dvrLink).toBeVisible({ timeout: 60_000 });
    // A few seconds of archive, so a player started on it has something to play through.
    await expect
      .poll(async () => (await streamStats(server, 'live/cam', 'live')).dvr_info?.duration ?? 0, {
        timeout: 60_000,
      })
      .toBeGreaterThanOrEqual(6);
    await dvrLink.click();
    await expect(page).toHaveURL(/\/admin\/published\/live%2Fcam\/dvr$/);

    const tab = new DvrTab(page);
    const archive = tab.timeline.locator('rect[data-kind="archive"]');
    await expect(archive).toHaveCount(1);
    const playlist = page.waitForRequest(/\/live\/cam\/archive-\d+-\d+\.m3u8\?token=/);
    await archive.click({ position: { x: 1, y: 5 } });
    await playlist;
    await expectPlaying(tab.player);
  } finally {
    await publisher.stop();
  }
});
