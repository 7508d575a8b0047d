import { createRequire } from 'node:module';
import type { Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LiveFmp4Fixture, startLiveFmp4 } from './fmp4-live-fixture.js';
import type { RunningServer } from './harness.js';

/**
 * Flussonic's DVR player (npm @flussonic/flussonic-dvr-player, ISC; a test dependency, loaded as
 * its own bundle) pointed at a Sluice stream with proto hls plays it live through
 * /{name}/index.fmp4.m3u8 with its bundled hls.js 1.5. The package's own dependencies name a
 * version of @flussonic/flussonic-mse-player that npm does not have; the root package.json
 * overrides it (the bundle is self-contained and never loads it).
 */
const bundle = createRequire(import.meta.url).resolve(
  '@flussonic/flussonic-dvr-player/dist/FlussonicDvrPlayer.js',
);

describe('Flussonic DVR player on live fMP4 HLS', () => {
  let fixture: LiveFmp4Fixture;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    fixture = await startLiveFmp4();
    ({ server, browser } = fixture);
  });
  afterAll(() => fixture?.close());

  it('plays the live stream from index.fmp4.m3u8: 5 s of picture, fragments and no TS', async () => {
    const page = await browser.newPage();
    const loaded: string[] = [];
    page.on('requestfinished', (request) => loaded.push(request.url()));
    await page.goto(`${server.url}/embed/hls.min.js`);
    await page.setContent('<div id="player" style="width:640px;height:480px"></div>');
    await page.addScriptTag({ path: bundle });
    await page.evaluate((streamerHttp) => {
      type Player = { default: { load: (options: object, element: HTMLElement | null) => unknown } };
      const player = (window as unknown as { FlussonicDvrPlayer: Player }).FlussonicDvrPlayer;
      player.default.load(
        { name: 'cam', streamer_http: streamerHttp, proto: 'hls', autoplay: true },
        document.getElementById('player'),
      );
    }, server.url);
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 5, null, {
      timeout: 40_000,
    });
    expect(loaded.some((url) => url.endsWith('/cam/index.fmp4.m3u8'))).toBe(true);
    expect(loaded.filter((url) => /\/cam\/fmp4-\d+\.m4s$/.test(url)).length).toBeGreaterThanOrEqual(5);
    expect(loaded.some((url) => url.endsWith('.ts'))).toBe(false);
  }, 90_000);
});
