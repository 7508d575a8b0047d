import { chromium } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { streamStats } from './media-helpers.js';

/** The embed page in a real browser (Debian's Chromium): the stream must actually play. */
describe('embed.html in Chromium', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream demo {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\n`,
    });
    await waitFor(async () => (await streamStats(server, 'demo')).alive, 20_000);
  });
  afterAll(() => server?.cleanup());

  it('plays the stream: the video advances and has the stream size', async () => {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
    try {
      const page = await browser.newPage();
      await page.goto(`${server.url}/demo/embed.html?version=3&autoplay=true&token=browser1`);
      await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 2, null, {
        timeout: 30_000,
      });
      const size = await page.evaluate(() => {
        const video = document.querySelector('video')!;
        return [video.videoWidth, video.videoHeight, video.error?.message ?? null];
      });
      expect(size).toEqual([320, 180, null]);
      // The page's playlist and segment requests carry the token: one session.
      const stats = await streamStats(server, 'demo');
      expect(stats.client_count).toBe(1);
    } finally {
      await browser.close();
    }
  });
});
