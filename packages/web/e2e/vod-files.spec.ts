import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { expectPlaying } from './pages/stream-page.js';
import { FilePage } from './pages/vod-page.js';

/** A library of one 40 s MP4 (long enough to be playing while the test looks at its figures). */
let library = '';

test.beforeAll(async () => {
  library = await mkdtemp(join(tmpdir(), 'sluice-e2e-vod-files-'));
  const result = spawnSync(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-t', '40', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '50'],
      ...['-c:a', 'aac', '-b:a', '64k', '-movflags', '+faststart'],
      join(library, 'clip.mp4'),
    ],
    { timeout: 120_000 },
  );
  if (result.status !== 0) throw new Error(`ffmpeg: ${result.stderr.toString()}`);
});
test.afterAll(async () => {
  await rm(library, { recursive: true, force: true });
});

const FILE = 'vod/clip.mp4';

test.describe('a played VOD file', () => {
  test.use({
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies destructured.
    serverConfig: async ({}, use) => use(`${minimalConfig}file vod {\n  path ${library};\n}\n`),
  });

  test('plays on its page, shows in the opened files and the header, with its client and output links', async ({
    page,
    server,
  }) => {
    const shell = new ConsoleShell(page, server.url);
    await shell.rememberLogin();
    await page.goto(`${server.url}/admin/file/${encodeURIComponent(FILE)}`);
    const file = new FilePage(page);
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue(FILE);
    await expect(file.stat('Clients')).toHaveText('0');

    await page.getByRole('button', { name: 'Play', exact: true }).click();
    await expectPlaying(file.video);
    await expect(file.stat('Clients')).toHaveText('1');
    await expect(file.stat('Bytes out')).not.toHaveText('0 B');
    const tracks = page.getByRole('table', { name: 'media info' });
    await expect(tracks.getByRole('cell', { name: 'h264', exact: true })).toBeVisible();
    await expect(tracks.getByRole('cell', { name: 'aac', exact: true })).toBeVisible();
    await expect(shell.status).toContainText('Files: 1');

    // The media list's VOD row counts the file's client, and the opened file's row links to its page.
    const table = page.getByRole('table', { name: 'VOD locations' });
    const row = table.getByRole('row', { name: FILE, exact: true });
    await expect(row.getByRole('link', { name: FILE })).toHaveAttribute(
      'href',
      `/admin/file/${encodeURIComponent(FILE)}`,
    );

    await file.tab('Clients').click();
    const clients = page.getByRole('table', { name: 'clients' });
    await expect(clients.getByRole('cell', { name: 'hls', exact: true })).toBeVisible();

    await file.tab('Output').click();
    const origin = server.url;
    const links: [label: string, url: string][] = [
      ['HLS', `${origin}/vod/clip.mp4/index.m3u8`],
      ['DASH', `${origin}/vod/clip.mp4/index.mpd`],
      ['MPEG-TS', `${origin}/vod/clip.mp4/mpegts`],
      ['MP4', `${origin}/vod/clip.mp4`],
      ['Preview', `${origin}/vod/clip.mp4/preview.jpg`],
    ];
    for (const [label, url] of links) {
      await expect(
        file.links.getByRole('row', { name: label, exact: true }).getByRole('link'),
      ).toHaveAttribute('href', url);
    }
    // The listed HLS link plays: the master playlist answers.
    const master = await fetch(`${origin}/vod/clip.mp4/index.m3u8`);
    expect(master.status).toBe(200);
    expect(await master.text()).toMatch(/^#EXTM3U/);
  });

  test('the media list shows a file played by another client under its VOD, with its clients', async ({
    page,
    server,
  }) => {
    const shell = new ConsoleShell(page, server.url);
    await shell.rememberLogin();
    await shell.open();
    const table = page.getByRole('table', { name: 'VOD locations' });
    await expect(table.getByRole('row', { name: 'vod', exact: true })).toContainText(library);

    // A player elsewhere asks for the file's HLS: the file is opened while its session lasts.
    const master = await fetch(`${server.url}/vod/clip.mp4/index.m3u8`);
    expect(master.status).toBe(200);
    const playlist = (await master.text()).split('\n').find((line) => line && !line.startsWith('#'));
    expect(playlist).toBeTruthy();
    expect((await fetch(new URL(playlist!, `${server.url}/vod/clip.mp4/index.m3u8`))).status).toBe(200);

    const row = table.getByRole('row', { name: FILE, exact: true });
    await expect(row.getByRole('cell').nth(1)).toHaveText('1');
    await expect(table.getByRole('row', { name: 'vod', exact: true }).getByRole('cell').nth(1)).toHaveText(
      '1',
    );
    await expect(shell.status).toContainText('Files: 1');
    await row.getByRole('link', { name: FILE }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/file/${encodeURIComponent(FILE)}$`));
    await expect(new FilePage(page).stat('Clients')).toHaveText('1');
  });
});
