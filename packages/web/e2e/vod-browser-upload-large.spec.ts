import { mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { recordProgress } from './pages/progress-recorder.js';
import { expectPlaying } from './pages/stream-page.js';
import { VodBrowserPage } from './pages/vod-browser-page.js';
import { makeSampleMp4, test, VOD_PREFIX } from './vod-browser-fixture.js';

const GIB = 1024 ** 3;

/**
 * A playable 1 GiB MP4 made in a second: the short sample (moov first) followed by one top-level
 * `free` box that pads the file to 1 GiB. Players skip a free box; its zeros are written sparse,
 * so only the upload itself puts a real gigabyte on the disk.
 */
async function makeGibMp4(path: string): Promise<Buffer> {
  const sample = await readFile(await makeSampleMp4());
  const header = Buffer.alloc(8);
  header.writeUInt32BE(GIB - sample.length, 0);
  header.write('free', 4, 'latin1');
  const file = await open(path, 'w');
  try {
    await file.write(sample, 0, sample.length, 0);
    await file.write(header, 0, header.length, sample.length);
    await file.truncate(GIB);
  } finally {
    await file.close();
  }
  return sample;
}

test.describe('VOD browser: a 1 GiB upload', () => {
  // Reading, sending and writing a gigabyte (fsync'd) on a machine shared with other tests.
  test.setTimeout(300_000);

  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
  });

  test('shows its progress, lands whole, and plays', async ({ page, server, vodDir }) => {
    const work = await mkdtemp(join(tmpdir(), 'sluice-e2e-vod-large-'));
    try {
      const source = join(work, 'big.mp4');
      const sample = await makeGibMp4(source);

      const browser = new VodBrowserPage(page);
      await browser.open(server.url, VOD_PREFIX);
      await expect(browser.video('clip.mp4')).toBeVisible();
      const seen = await recordProgress(page);
      await browser.filesToUpload.setInputFiles(source);
      await browser.uploadButton.click();

      await expect(browser.uploadForm.getByText('Upload complete.')).toBeVisible({ timeout: 240_000 });
      const values = (await seen())['upload big.mp4'] ?? [];
      // The bar moved through the upload, not only from empty to full.
      expect(values.filter((v) => v > 0 && v < 100).length, `bar values ${values.join(',')}`).toBeGreaterThan(
        2,
      );
      expect(values).toEqual([...values].sort((a, b) => a - b));

      const landed = join(vodDir, 'big.mp4');
      expect((await stat(landed)).size).toBe(GIB);
      const head = Buffer.alloc(sample.length);
      const file = await open(landed, 'r');
      await file.read(head, 0, head.length, 0).finally(() => file.close());
      expect(head.equals(sample)).toBe(true);

      await browser.video('big.mp4').click();
      await expectPlaying(browser.player);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
