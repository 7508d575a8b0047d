import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { expectPlaying, StreamPage } from './pages/stream-page.js';

/** The Overview's player choice: the stream over WebRTC (WHEP) beside HLS. */
test.describe('stream overview, WebRTC player', () => {
  test.use({
    serverConfig: `${minimalConfig}stream demo {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\n`,
  });
  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
  });
  test.afterEach(async ({ page }) => {
    await page.close();
  });

  test('plays the stream over WHEP; going back to HLS ends the WebRTC session', async ({ page, server }) => {
    await page.goto(`${server.url}/admin/standalone/demo`);
    const stream = new StreamPage(page);
    await page.getByText('WebRTC', { exact: true }).click();
    await expectPlaying(stream.video);
    expect(await stream.video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual([
      320, 180,
    ]);
    expect(await stream.video.evaluate((v: HTMLVideoElement) => v.srcObject instanceof MediaStream)).toBe(
      true,
    );
    // Back to HLS: the WebRTC session is DELETEd and the HLS player plays.
    await page.getByText('HLS', { exact: true }).click();
    await expectPlaying(stream.video);
    expect(await stream.video.evaluate((v: HTMLVideoElement) => v.srcObject)).toBeNull();
    await expect
      .poll(() => server.output(), { timeout: 20_000 })
      .toMatch(/WebRTC viewer \w+ from \S+ ended \(ended by the player \(DELETE\)\)/);
  });
});
