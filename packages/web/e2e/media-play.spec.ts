import type { Locator } from '@playwright/test';
import { freePort } from '../../server/test/harness.js';
import { rtmpPublisher } from '../../server/test/media-helpers.js';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { LocationsList, PlayModal, StreamsList } from './pages/media-list-page.js';

/** The decoded frame count, the play position and a small grey picture of what the video shows. */
function sample(video: HTMLVideoElement) {
  const canvas = document.createElement('canvas');
  canvas.width = 64;
  canvas.height = 36;
  const context = canvas.getContext('2d')!;
  context.drawImage(video, 0, 0, canvas.width, canvas.height);
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
  const grey: number[] = [];
  for (let i = 0; i < pixels.length; i += 4) grey.push((pixels[i]! + pixels[i + 1]! + pixels[i + 2]!) / 3);
  return { frames: video.getVideoPlaybackQuality().totalVideoFrames, time: video.currentTime, grey };
}

/** Waits until the modal's video plays a moving picture. */
async function expectMovingVideo(video: Locator): Promise<void> {
  // Playing: frames are decoded and the position moves on.
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.getVideoPlaybackQuality().totalVideoFrames), {
      timeout: 20_000,
    })
    .toBeGreaterThan(10);
  const first = await video.evaluate(sample);
  // And the picture moves: the test pattern changes from frame to frame.
  await expect
    .poll(async () => {
      const now = await video.evaluate(sample);
      const changed = now.grey.filter((g, i) => Math.abs(g - first.grey[i]!) > 8).length;
      return now.frames > first.frames && now.time > first.time && changed > 20;
    })
    .toBe(true);
}

test.describe('a configured stream', () => {
  test.use({
    serverConfig: `${minimalConfig}stream demo {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\n`,
  });

  test('the play modal shows moving video and closes', async ({ page, server }) => {
    const shell = new ConsoleShell(page, server.url);
    await shell.rememberLogin();
    await shell.open();
    const list = new StreamsList(page);
    await expect(list.status('demo')).toHaveText('online', { timeout: 20_000 });

    await list.row('demo').getByRole('button', { name: 'Play demo' }).click();
    const modal = new PlayModal(page);
    await expect(modal.dialog).toBeVisible();
    await expect(modal.dialog).toContainText('demo');
    await expectMovingVideo(modal.video);

    await modal.close.click();
    await expect(modal.dialog).toBeHidden();
  });
});

test.describe('a stream published into a location', () => {
  let rtmpPort = 0;
  test.beforeAll(async () => {
    rtmpPort = await freePort();
  });
  test.use({
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies destructured.
    serverConfig: async ({}, use) => use(`${minimalConfig}rtmp ${rtmpPort};\nlive live {\n}\n`),
  });

  test('shows under its location with its publisher, and plays', async ({ page, server }) => {
    const shell = new ConsoleShell(page, server.url);
    await shell.rememberLogin();
    await shell.open();
    const publisher = rtmpPublisher(`rtmp://127.0.0.1:${rtmpPort}/live/cam`);
    try {
      const locations = new LocationsList(page);
      const row = locations.row('live/cam');
      await expect(row).toBeVisible({ timeout: 20_000 });
      await expect(row).toContainText('127.0.0.1 (rtmp)');
      await expect(row.getByRole('cell').nth(2)).toHaveText(/kbit\/s$/);

      await row.getByRole('button', { name: 'Play live/cam' }).click();
      const modal = new PlayModal(page);
      await expectMovingVideo(modal.video);
      // Watching counts as a client of the stream and of its location.
      await expect(row.getByRole('cell').nth(1)).toHaveText('1');
      await expect(locations.row('live').getByRole('cell').nth(1)).toHaveText('1');
    } finally {
      await publisher.stop();
    }
  });
});
