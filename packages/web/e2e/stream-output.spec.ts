import { readFile } from 'node:fs/promises';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { expectConfigFile, StreamPage } from './pages/stream-page.js';

test.describe('stream output', () => {
  test.use({
    serverConfig: `${minimalConfig}stream demo {\n  url test://?size=320x180&bitrate=300;\n}\nstream pub {\n  url publish://;\n  publish_enabled true;\n}\n`,
  });

  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
  });

  test('switches, limits, options and push URLs are saved to the config file', async ({ page, server }) => {
    await page.goto(`${server.url}/admin/standalone/demo/output`);
    const stream = new StreamPage(page);
    const hlsUrls = page.getByLabel('hls url');
    await expect(hlsUrls.first()).toHaveValue(`${server.url}/demo/index.m3u8`);
    await expect(
      page.getByText('RTMP is not configured, please enable it on global config page'),
    ).toBeVisible();

    // 'only' DASH: unset protocols are disabled; 'except' HLS: its URLs are hidden.
    await page.getByLabel('dash switch').getByText('only').click();
    await expect(page.getByLabel('mpegts url')).toBeDisabled();
    await page.getByLabel('hls switch').getByText('except').click();
    await expect(hlsUrls).toHaveCount(0);

    await stream.field('Max sessions').fill('5');
    await stream.field('Segment duration').fill('2');
    await page.getByLabel('Prepush', { exact: true }).selectOption('seconds');
    await expect(page.getByLabel('Prepush seconds')).toHaveValue('3');
    await page.getByLabel('New push URL').fill('rtmp://example.invalid/live/x');
    await page.getByLabel('New push URL').blur();
    await expect(page.getByLabel('Push URL 1')).toHaveValue('rtmp://example.invalid/live/x');
    await expect(page.getByLabel('New push URL')).toHaveValue('');

    await stream.saveAndWait();
    await expectConfigFile(
      server.configPath,
      (text) =>
        text.includes('max_sessions 5') &&
        text.includes('segment_duration 2000') &&
        text.includes('prepush 3') &&
        text.includes('rtmp://example.invalid/live/x'),
    );
    const text = await readFile(server.configPath, 'utf8');
    expect(text).toMatch(/dash/);
    expect(text).toMatch(/hls/);

    // An emptied push URL is deleted on blur.
    await page.getByLabel('Push URL 1').fill('');
    await page.getByLabel('Push URL 1').blur();
    await expect(page.getByLabel('Push URL 1')).toHaveCount(0);
    await stream.saveAndWait();
    await expectConfigFile(server.configPath, (t) => !t.includes('example.invalid'));
  });

  test('a stream accepting publishing shows its publish URLs and settings', async ({ page, server }) => {
    await page.goto(`${server.url}/admin/standalone/pub/output`);
    const stream = new StreamPage(page);
    // No RTMP port: only the HTTP MPEG-TS publish URL is offered, with the way to configure RTMP;
    // output-urls-work.spec.ts publishes to each URL.
    await expect(
      page.getByText('RTMP/RTSP not configured yet, please follow global config page'),
    ).toBeVisible();
    await expect(page.locator('input[aria-label$=" publish url"]')).toHaveCount(1);
    await expect(page.getByLabel('HTTP MPEG-TS publish url')).toHaveValue(`${server.url}/pub/mpegts`);
    await stream.field('Password').fill('secret');
    await stream.field('Password').blur();
    await stream.field('Max bitrate (Kbit/s)').fill('2000');
    await stream.saveAndWait();
    await expectConfigFile(
      server.configPath,
      (t) => t.includes('password secret') && t.includes('max_bitrate 2000'),
    );
    await page.goto(`${server.url}/admin/standalone/demo/output`);
    await expect(page.getByLabel('hls url').first()).toBeVisible();
    await expect(page.getByLabel('publishing', { exact: true })).toHaveCount(0);
  });
});
