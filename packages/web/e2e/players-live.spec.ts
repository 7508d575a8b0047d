import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import {
  countMediaRequests,
  expectPlayingNearLive,
  setPageHidden,
  viewers,
  waitForMoreMedia,
} from './pages/live-player.js';
import { PlayModal, StreamsList } from './pages/media-list-page.js';
import { StreamPage } from './pages/stream-page.js';

const WAITING = 'Waiting for the stream…';

/**
 * Issue 17, players: the Overview player and the play modal start at the live edge without a
 * click, load nothing (and hold no viewer session) while they can't be seen, and play again by
 * themselves after the server restarts.
 */
test.describe('live players', () => {
  test.use({
    serverConfig:
      `${minimalConfig}session_idle_seconds 2;\n` +
      `stream demo {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\n`,
    // While the restarted server's stream starts again, its playlist is not there yet.
    allowedConsoleErrors: [/status of (404|502|503)/],
  });
  test.setTimeout(240_000);

  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
  });
  // The player keeps loading: leave the page before the test's server stops.
  test.afterEach(async ({ page }) => {
    await page.close();
  });

  test('Overview player: live edge when scrolled to, nothing loaded out of view, back after a restart', async ({
    page,
    server,
  }) => {
    await page.setViewportSize({ width: 1280, height: 600 });
    const requests = countMediaRequests(page, 'demo');
    await page.goto(`${server.url}/admin/standalone/demo`);
    const video = new StreamPage(page).video;
    await expect(video).toBeAttached({ timeout: 30_000 });
    await expect(video).not.toBeInViewport();
    // Below the fold: while the stream makes 6 s of media, the player asks for none, and no viewer counts.
    await waitForMoreMedia(server, 'demo', 6);
    expect(requests()).toBe(0);
    expect(await viewers(server, 'demo')).toBe(0);

    await video.scrollIntoViewIfNeeded();
    await expectPlayingNearLive(video);
    await expect.poll(() => viewers(server, 'demo'), { timeout: 30_000 }).toBe(1);

    // Scrolled away: loading stops and the viewer session ends.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(video).not.toBeInViewport();
    await expect.poll(() => viewers(server, 'demo'), { timeout: 30_000 }).toBe(0);
    const before = requests();
    await waitForMoreMedia(server, 'demo', 6);
    expect(requests()).toBe(before);

    // Back in view: from the live edge again, not where it stopped.
    await video.scrollIntoViewIfNeeded();
    await expectPlayingNearLive(video);

    // The server restarts: the player waits calmly and plays again by itself, no reload.
    await server.restart();
    await expectPlayingNearLive(video);
    await expect(page.getByText(/Playback failed/)).toHaveCount(0);
    await expect(page.getByText(WAITING)).toHaveCount(0);
  });

  test('play modal: live edge, nothing loaded while the page is hidden, back after a restart', async ({
    page,
    server,
  }) => {
    const shell = new ConsoleShell(page, server.url);
    await shell.open();
    const list = new StreamsList(page);
    await expect(list.status('demo')).toHaveText('online', { timeout: 30_000 });
    await list.row('demo').getByRole('button', { name: 'Play demo' }).click();
    const modal = new PlayModal(page);
    await expectPlayingNearLive(modal.video);
    await expect.poll(() => viewers(server, 'demo'), { timeout: 30_000 }).toBe(1);

    const requests = countMediaRequests(page, 'demo');
    await setPageHidden(page, true);
    await expect.poll(() => viewers(server, 'demo'), { timeout: 30_000 }).toBe(0);
    const before = requests();
    await waitForMoreMedia(server, 'demo', 6);
    expect(requests()).toBe(before);

    await setPageHidden(page, false);
    await expectPlayingNearLive(modal.video);

    await server.restart();
    await expectPlayingNearLive(modal.video);
    await expect(modal.dialog.getByText(/Playback failed/)).toHaveCount(0);
  });
});
