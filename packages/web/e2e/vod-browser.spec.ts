import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { waitFor } from '../../server/test/harness.js';
import { expect, failedLoad } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { recordProgress } from './pages/progress-recorder.js';
import { expectPlaying } from './pages/stream-page.js';
import { VodBrowserPage } from './pages/vod-browser-page.js';
import { test, VOD_PREFIX } from './vod-browser-fixture.js';

const ROOT_LISTING = ['clip.mp4', 'zeta.mkv', 'archive/', 'notes.txt'];
const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

test.describe('VOD file browser', () => {
  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
  });

  test('lists videos, then directories, then other files; goes into a directory and back up', async ({
    page,
    server,
  }) => {
    const browser = new VodBrowserPage(page);
    await browser.open(server.url, VOD_PREFIX);
    await browser.expectNames(ROOT_LISTING);
    await expect(browser.path).toHaveValue('/');
    await expect(browser.parent).toHaveCount(0);
    await expect(browser.backToSettings).toHaveAttribute('href', `/admin/vod/${VOD_PREFIX}`);

    await browser.directory('archive').click();
    await browser.expectNames(['old.mp4']);
    await expect(browser.path).toHaveValue('/archive');

    await browser.parent.click();
    await browser.expectNames(ROOT_LISTING);
    await expect(browser.path).toHaveValue('/');

    // A directory typed into the path field opens on Enter.
    await browser.path.fill('/archive/');
    await browser.path.press('Enter');
    await browser.expectNames(['old.mp4']);
  });

  test.describe('a new directory', () => {
    // The server's 409 for a name taken on disk is logged by the browser as a failed load.
    test.use({ allowedConsoleErrors: [failedLoad(409)] });

    test('creates a directory, listed after the videos; a name already taken says so', async ({
      page,
      server,
      vodDir,
    }) => {
      const browser = new VodBrowserPage(page);
      await browser.open(server.url, VOD_PREFIX);
      await browser.expectNames(ROOT_LISTING);
      await expect(browser.saveDirectory).toBeDisabled();

      await browser.newDirectory.fill('archive');
      await expect(browser.section.getByText('This name is already taken')).toBeVisible();
      await expect(browser.saveDirectory).toBeDisabled();

      await browser.newDirectory.fill('fresh');
      await expect(browser.section.getByText('This name is already taken')).toHaveCount(0);
      await browser.saveDirectory.click();
      await browser.expectNames(['clip.mp4', 'zeta.mkv', 'fresh/', 'archive/', 'notes.txt']);
      expect((await stat(join(vodDir, 'fresh'))).isDirectory()).toBe(true);
      await expect(browser.newDirectory).toHaveValue('');

      // Made on disk behind the console's back: the list does not have it, the server answers 409.
      await mkdir(join(vodDir, 'late'));
      await browser.newDirectory.fill('late');
      await browser.saveDirectory.click();
      await expect(browser.section.getByText('This name is already taken')).toBeVisible();
    });
  });

  test('removes a file only after the operator confirms', async ({ page, server, vodDir }) => {
    const browser = new VodBrowserPage(page);
    await browser.open(server.url, VOD_PREFIX);
    await browser.expectNames(ROOT_LISTING);

    await browser.table.getByRole('button', { name: 'remove notes.txt' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove file' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect(await exists(join(vodDir, 'notes.txt'))).toBe(true);

    await browser.remove('notes.txt');
    await browser.expectNames(['clip.mp4', 'zeta.mkv', 'archive/']);
    expect(await exists(join(vodDir, 'notes.txt'))).toBe(false);
  });

  test('uploads two files with a progress bar each, then Upload complete.; the form resets after 3 s', async ({
    page,
    server,
    vodDir,
  }) => {
    const browser = new VodBrowserPage(page);
    await browser.open(server.url, VOD_PREFIX, 0, 'archive');
    await browser.expectNames(['old.mp4']);
    const seen = await recordProgress(page);

    const video = await readFile(join(vodDir, 'clip.mp4'));
    const text = Buffer.alloc(8 * 1024 * 1024, 'sluice ');
    await browser.filesToUpload.setInputFiles([
      { name: 'new clip.mp4', mimeType: 'video/mp4', buffer: video },
      { name: 'big.txt', mimeType: 'text/plain', buffer: text },
    ]);
    await browser.uploadButton.click();

    const complete = browser.uploadForm.getByText('Upload complete.');
    await expect(complete).toBeVisible();
    const completeAtMs = Date.now();
    // Each file had its own bar while running; both stay drawn full beside the message.
    const bars = await seen();
    expect(Object.keys(bars).sort()).toEqual(['upload big.txt', 'upload new clip.mp4']);
    await expect(browser.progress('new clip.mp4')).toHaveAttribute('aria-valuenow', '100');
    await expect(browser.progress('big.txt')).toHaveAttribute('aria-valuenow', '100');

    expect((await stat(join(vodDir, 'archive', 'new clip.mp4'))).size).toBe(video.length);
    expect((await stat(join(vodDir, 'archive', 'big.txt'))).size).toBe(text.length);
    await browser.expectNames(['new clip.mp4', 'old.mp4', 'big.txt']);

    // The form resets: the message goes and the chosen files are cleared.
    await expect(complete).toBeHidden({ timeout: 20_000 });
    expect(Date.now() - completeAtMs).toBeGreaterThan(2500);
    await expect(browser.filesToUpload).toHaveValue('');
    await expect(browser.uploadButton).toBeDisabled();
  });

  test.describe('a refused upload', () => {
    // One pattern: Playwright reads a two-element array given to an option as [value, options].
    test.use({ allowedConsoleErrors: [/status of [45]\d\d/] });

    test('shows Something went wrong and resets', async ({ page, server, vodDir }) => {
      const browser = new VodBrowserPage(page);
      await browser.open(server.url, VOD_PREFIX, 0, 'archive');
      await browser.expectNames(['old.mp4']);
      // Another operator removed the directory: the server has nowhere to put the file.
      await rm(join(vodDir, 'archive'), { recursive: true });

      await browser.filesToUpload.setInputFiles([
        { name: 'a.mp4', mimeType: 'video/mp4', buffer: Buffer.alloc(1000) },
      ]);
      await browser.uploadButton.click();
      const failed = browser.uploadForm.getByText('Something went wrong');
      await expect(failed).toBeVisible();
      expect(await exists(join(vodDir, 'archive', 'a.mp4'))).toBe(false);
      await expect(failed).toBeHidden({ timeout: 20_000 });
      await expect(browser.uploadButton).toBeDisabled();
    });
  });

  test('while the list is slow to come the loading notice shows and the upload control is hidden', async ({
    page,
    server,
  }) => {
    // The server's answer is held until the notice has been seen: a slow disk, without a timer.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/flussonic/api/list_files?**', async (route) => {
      await released;
      await route.continue();
    });
    const browser = new VodBrowserPage(page);
    await browser.open(server.url, VOD_PREFIX);
    await expect(browser.loadingNotice).toBeVisible();
    await expect(browser.uploadForm).toHaveCount(0);

    release();
    await browser.expectNames(ROOT_LISTING);
    await expect(browser.loadingNotice).toHaveCount(0);
    await expect(browser.uploadForm).toBeVisible();
  });

  test('a video opens the player and output links beside the list, and closes on a second click', async ({
    page,
    server,
  }) => {
    const browser = new VodBrowserPage(page);
    await browser.open(server.url, VOD_PREFIX, 0, 'archive');
    await browser.video('old.mp4').click();
    await expect(browser.player).toBeVisible();
    const base = `${server.url}/${VOD_PREFIX}/archive/old.mp4`;
    await expect(browser.outputLink('HLS')).toHaveAttribute('href', `${base}/index.m3u8`);
    await expect(browser.outputLink('DASH')).toHaveAttribute('href', `${base}/index.mpd`);
    await expect(browser.outputLink('MPEG-TS')).toHaveAttribute('href', `${base}/mpegts`);
    await expect(browser.outputLink('MP4')).toHaveAttribute('href', base);
    await expectPlaying(browser.player);

    await browser.video('old.mp4').click();
    await expect(browser.player).toHaveCount(0);
    await expect(browser.outputLinks).toHaveCount(0);
  });

  test('an emptied directory is removed like a file', async ({ page, server, vodDir }) => {
    const browser = new VodBrowserPage(page);
    await browser.open(server.url, VOD_PREFIX, 0, 'archive');
    await browser.remove('old.mp4');
    await browser.expectNames([]);
    await browser.parent.click();
    await browser.remove('archive');
    await browser.expectNames(['clip.mp4', 'zeta.mkv', 'notes.txt']);
    await waitFor(async () => !(await exists(join(vodDir, 'archive'))));
  });
});
