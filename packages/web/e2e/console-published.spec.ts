import { freePort } from '../../server/test/harness.js';
import { rtmpPublisher } from '../../server/test/media-helpers.js';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { expectPlaying } from './pages/stream-page.js';

let rtmpPort = 0;
test.beforeAll(async () => {
  rtmpPort = await freePort();
});
test.use({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies destructured.
  serverConfig: async ({}, use) => use(`${minimalConfig}rtmp ${rtmpPort};\nlive live {\n}\n`),
});

test('the location Input tab shows the full publish URL, and publishing to it is the published stream', async ({
  page,
  server,
}) => {
  await new ConsoleShell(page, server.url).rememberLogin();
  await page.goto(`${server.url}/admin/location/live/input`);
  const publishUrl = page.getByLabel('RTMP publish url');
  await expect(publishUrl).toHaveValue(`rtmp://127.0.0.1:${rtmpPort}/live/{NAME}`);

  // The URL as shown, with {NAME} replaced, is one the server takes.
  const url = (await publishUrl.inputValue()).replace('{NAME}', 'cam');
  const publisher = rtmpPublisher(url);
  try {
    await page.goto(`${server.url}/admin/published/live%2Fcam`);
    const tabs = page.getByRole('navigation', { name: 'published tabs' });
    await expect(tabs).toBeVisible({ timeout: 30_000 });

    // The overview: status, publisher, bitrate, tracks and a player, not only the name.
    const status = page.getByRole('table', { name: 'stream status' });
    await expect(status.getByRole('row', { name: 'Status' })).toContainText('Online');
    await expect(status.getByRole('row', { name: 'Publisher' })).toContainText('127.0.0.1');
    await expect(status.getByRole('row', { name: 'Bitrate' })).toContainText(/\d+(\.\d)? (kbit|Mbit)\/s/);
    const tracks = page.getByLabel('media info');
    await expect(tracks).toContainText('h264');
    await expect(tracks).toContainText('aac');
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expectPlaying(page.getByLabel('player'));
  } finally {
    // The player keeps loading segments: leave it for a page without one before everything stops.
    await page.goto(`${server.url}/admin/location/live`);
    await publisher.stop();
  }
});
