import { type Browser, chromium } from '@playwright/test';
import { bframePublisher } from './dash-helpers.js';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText } from './media-helpers.js';

export interface LiveFmp4Fixture {
  server: RunningServer;
  browser: Browser;
  close: () => Promise<void>;
}

/**
 * A server with stream `cam` published over RTMP with B-frames (1 s segments, a keyframe every 2 s,
 * so every other fragment starts inside a GOP), its fMP4 HLS playlist up, and a Chromium that
 * autoplays: what the browser tests of live fMP4 HLS play.
 */
export async function startLiveFmp4(): Promise<LiveFmp4Fixture> {
  const port = await freePort();
  const server = await startServer({
    config: `${minimalConfig}rtmp ${port};\nstream cam {\n  publish_enabled true;\n  static true;\n  segment_duration 1;\n}\n`,
  });
  const publisher = bframePublisher(`rtmp://127.0.0.1:${port}/static/cam`, 25);
  await waitFor(async () => (await getText(`${server.url}/cam/index.fmp4.m3u8`)).status === 200, 30_000);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--autoplay-policy=no-user-gesture-required'],
  });
  return {
    server,
    browser,
    close: async () => {
      await browser.close();
      await publisher.stop();
      await server.cleanup();
    },
  };
}
