import { freePort } from '../../server/test/harness.js';
import { rtmpPublisher } from '../../server/test/media-helpers.js';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';

let rtmpPort = 0;
test.beforeAll(async () => {
  rtmpPort = await freePort();
});
test.use({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies destructured.
  serverConfig: async ({}, use) => use(`${minimalConfig}rtmp ${rtmpPort};\nlive live {\n}\n`),
});

test('a published stream: read-only name, output URLs, clients, link to its location', async ({
  page,
  server,
}) => {
  await new ConsoleShell(page, server.url).rememberLogin();
  await page.goto(`${server.url}/admin/published/live%2Fcam`);
  const tabs = page.getByRole('navigation', { name: 'published tabs' });
  // Nobody publishes yet: no location holds the stream, the page is empty.
  await expect(page.getByRole('link', { name: 'back to list' })).toBeVisible();
  await expect(tabs).toHaveCount(0);

  const publisher = rtmpPublisher(`rtmp://127.0.0.1:${rtmpPort}/live/cam`);
  try {
    await expect(tabs).toBeVisible({ timeout: 20_000 });
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('live/cam');
    await expect(page.getByLabel('Name', { exact: true })).not.toBeEditable();

    await tabs.getByRole('link', { name: 'Output', exact: true }).click();
    await expect(page.getByLabel('hls url').first()).toHaveValue(`${server.url}/live/cam/index.m3u8`);
    await expect(page.getByLabel('rtmp url')).toHaveValue(`rtmp://127.0.0.1:${rtmpPort}/live/cam`);

    await tabs.getByRole('link', { name: 'Clients', exact: true }).click();
    await expect(page.getByText('No information about clients was recorded.')).toBeVisible();

    // A player of the published stream is a client of it and of its location.
    const player = new AbortController();
    const response = await fetch(`${server.url}/live/cam/mpegts`, { signal: player.signal });
    expect(response.ok).toBe(true);
    const clients = page.getByRole('table', { name: 'clients' });
    await expect(clients.getByRole('cell', { name: 'mpegts', exact: true })).toBeVisible({ timeout: 20_000 });

    await page.getByRole('link', { name: 'Location config' }).click();
    await expect(page).toHaveURL(/\/admin\/location\/live$/);
    await page
      .getByRole('navigation', { name: 'location tabs' })
      .getByRole('link', { name: 'Clients', exact: true })
      .click();
    await expect(clients.getByRole('cell', { name: 'mpegts', exact: true })).toBeVisible({ timeout: 20_000 });
    player.abort();
  } finally {
    await publisher.stop();
  }
});
