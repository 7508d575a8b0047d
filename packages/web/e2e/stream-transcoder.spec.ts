import { readFile } from 'node:fs/promises';
import { ADMIN, expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { expectConfigFile, expectPlaying, StreamPage } from './pages/stream-page.js';
import { TranscoderTab } from './pages/transcoder-tab.js';

const TRANSCODED =
  'transcoder {\n    global { hw cpu; }\n    audio { bitrate 64000; codec aac; }\n    video { 0 { bitrate 1000000; codec h264; } }\n  }';

/** A 2x2 red PNG, as an operator's logo file. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==',
  'base64',
);

/** The text of one stream's block in the config file. */
const streamBlock = (text: string, name: string): string => {
  const start = text.indexOf(`stream ${name} {`);
  if (start < 0) return '';
  const next = text.indexOf('\nstream ', start + 1);
  return text.slice(start, next < 0 ? undefined : next);
};

test.describe('stream transcoder', () => {
  test.use({
    serverConfig: `${minimalConfig}stream demo {\n  url test://?size=320x180&bitrate=300;\n}\nstream copied {\n  url test://?size=320x180&bitrate=300;\n  ${TRANSCODED}\n}\nstream live {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\nstream gpu {\n  url test://?size=320x180&bitrate=300;\n  transcoder {\n    global { hw nvenc; external; }\n    video { 0 { bitrate 1000000; preset llhq; } }\n  }\n}\n`,
  });

  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
  });

  test('enable, a 360p track edited with every message, saved to the config file', async ({
    page,
    server,
  }) => {
    const tab = new TranscoderTab(page);
    await tab.open(server.url, 'demo');
    await expect(tab.button('Disable transcoder')).toHaveCount(0);
    await tab.button('Enable transcoder').click();

    // The spec's defaults: cpu, track 0 at 1000 K h264, 64 K aac audio.
    await expect(tab.field('Hardware')).toHaveValue('cpu');
    await expect(tab.field('Hardware').locator('option')).toHaveText(['cpu']);
    await expect(tab.trackField(0, 'Bitrate')).toHaveValue('1000');
    await expect(tab.trackField(0, 'Codec')).toHaveValue('h264');
    await expect(tab.audio.getByLabel('Bitrate', { exact: true })).toHaveValue('64');
    await expect(tab.audio.getByLabel('Audio codec')).toHaveValue('aac');

    // A preset track takes index 1, opens, and closes track 0.
    await tab.addPreset('700k 360p');
    await expect(tab.trackField(1, 'Bitrate')).toHaveValue('700');
    await expect(tab.trackField(1, 'Height')).toHaveValue('360');
    await expect(tab.trackField(1, 'Width')).toHaveValue('');
    await expect(tab.trackField(1, 'Width')).toHaveAttribute('placeholder', 'auto');
    await expect(tab.trackField(0, 'Bitrate')).toBeHidden();

    const bitrate = tab.trackField(1, 'Bitrate');
    await tab.expectMessage(bitrate, '', 'Bitrate is required.');
    await expect(tab.save).toBeDisabled();
    await tab.expectMessage(bitrate, '0', 'Should be greater than zero.');
    await tab.expectMessage(bitrate, '800', null);

    const width = tab.trackField(1, 'Width');
    const height = tab.trackField(1, 'Height');
    await tab.expectMessage(width, '641', 'Width should be multiple of 2.');
    await tab.expectMessage(width, '-2', 'Width should be -1 or greater than zero.');
    await tab.expectMessage(height, '-4', 'Height should be -1 or greater than zero.');
    await tab.expectMessage(height, '363', 'Height should be multiple of 2.');
    await tab.expectMessage(height, '360', null);
    await tab.expectMessage(width, '640', null);

    await tab.expectMessage(tab.trackField(1, 'Frames in GOP'), '0', 'Should be greater than zero.');
    await tab.expectMessage(tab.trackField(1, 'Frames in GOP'), '50', null);
    await tab.trackField(1, 'Aspect x').fill('16');
    await expect(tab.track(1).getByText('Required, if aspect set.')).toBeVisible();
    await tab.trackField(1, 'Aspect y').fill('9');
    await expect(tab.track(1).getByText('Required, if aspect set.')).toHaveCount(0);
    await tab.trackField(1, 'Preset').selectOption('veryfast');
    await tab.trackField(1, 'Profile').selectOption('main');
    await tab.trackField(1, 'Level').selectOption('3.1');

    const key = tab.track(1).getByLabel('key').first();
    await key.fill('tune!');
    await expect(
      tab.track(1).getByText('Key should start with character, not digit or special symbol.'),
    ).toBeVisible();
    await key.fill('tune');
    await tab.track(1).getByLabel('value').first().fill('zero#');
    await expect(tab.track(1).getByText('Value should not include # symbol.')).toBeVisible();
    await tab.track(1).getByLabel('value').first().fill('zerolatency');

    const audioBitrate = tab.audio.getByLabel('Bitrate', { exact: true });
    await tab.expectMessage(audioBitrate, '', 'Bitrate is required.');
    await tab.expectMessage(audioBitrate, '96', null);
    await tab.audio.getByLabel('Sample rate').selectOption('48000');

    await tab.other.getByLabel('Crop left').fill('8');
    await expect(tab.other.getByText('Required, if crop set.')).toHaveCount(3);
    await tab.other.getByLabel('Crop left').fill('0');
    await expect(tab.other.getByText('Should be greater than zero.')).toBeVisible();
    await tab.other.getByLabel('Crop left').fill('');
    await expect(tab.other.getByText('Required, if crop set.')).toHaveCount(0);
    await tab.expectMessage(tab.other.getByLabel('Decoder threads'), '0', 'Should be greater than zero.');
    await tab.expectMessage(tab.other.getByLabel('Decoder threads'), '2', null);

    await tab.saveAndWait();
    await expectConfigFile(server.configPath, (text) => {
      const block = streamBlock(text, 'demo');
      return ['bitrate 800000', 'width 640', 'height 360', 'g 50', 'tune zerolatency', 'bitrate 96000'].every(
        (s) => block.includes(s),
      );
    });
    const block = streamBlock(await readFile(server.configPath, 'utf8'), 'demo');
    for (const expected of ['hw cpu', 'bitrate 1000000', 'preset veryfast', 'sample_rate 48000', 'threads 2'])
      expect(block).toContain(expected);
    expect(block).not.toContain('crop');
  });

  test('copy from origin, the no-track confirmation and disable', async ({ page, server }) => {
    const tab = new TranscoderTab(page);
    await tab.open(server.url, 'copied');
    await tab
      .track(0)
      .getByRole('button', { name: /^Track 0/ })
      .click();
    const copy = tab.track(0).getByLabel('Copy from origin');

    // A copied track is not encoded: the hardware selectors go off; turning copy off restores it.
    await copy.check({ force: true });
    await expect(tab.trackField(0, 'Bitrate')).toHaveAttribute('placeholder', 'copy');
    await expect(tab.field('Hardware')).toBeDisabled();
    await copy.uncheck({ force: true });
    await expect(tab.trackField(0, 'Bitrate')).toHaveValue('1000');
    await expect(tab.field('Hardware')).toBeEnabled();

    // Duplicate opens the copy at the next index.
    await tab.track(0).getByRole('button', { name: 'Duplicate' }).click();
    await expect(tab.trackField(1, 'Bitrate')).toHaveValue('1000');
    await tab.track(1).getByRole('button', { name: 'Remove' }).click();
    await expect(tab.track(1)).toHaveCount(0);

    // Audio defaults: no audio block.
    await tab.audio.getByLabel('Use defaults').check({ force: true });
    await expect(tab.audio.getByLabel('Bitrate', { exact: true })).toHaveCount(0);

    // With no video track left, Save asks first.
    await tab.track(0).getByRole('button', { name: 'Remove' }).click();
    await tab.save.click();
    await expect(
      tab.dialog.getByText(
        'No video tracks configured (only audio will be in the output). Save this configuration?',
      ),
    ).toBeVisible();
    await tab.dialog.getByRole('button', { name: 'Save' }).click();
    await expect(tab.saved).toBeVisible();
    await expectConfigFile(server.configPath, (text) => {
      const block = streamBlock(text, 'copied');
      return block.includes('hw cpu') && !block.includes('video') && !block.includes('audio');
    });

    // Disable asks, then resets and saves at once.
    await tab.button('Disable transcoder').click();
    await expect(
      tab.dialog.getByText(
        'Config will be reseted and saved, no restoration options available. Reset and save?',
      ),
    ).toBeVisible();
    // The save's answer is awaited: the file is written before it, and the test must not end (and
    // stop the server) while the console still waits for it.
    const answered = page.waitForResponse(
      (r) => r.url().endsWith('/flussonic/api/modify_config') && r.request().method() === 'POST',
    );
    await tab.dialog.getByRole('button', { name: 'Reset and save' }).click();
    expect((await answered).ok()).toBe(true);
    await expect(tab.button('Enable transcoder')).toBeVisible();
    await expectConfigFile(server.configPath, (text) => !streamBlock(text, 'copied').includes('transcoder'));
  });

  test('hardware: nvenc lists and external, cleared on leaving the selector for cpu', async ({
    page,
    server,
  }) => {
    const tab = new TranscoderTab(page);
    await tab.open(server.url, 'gpu');
    // No nvenc device on this machine: nvenc is offered only because it is saved.
    await expect(tab.field('Hardware').locator('option')).toHaveText(['cpu', 'nvenc']);
    await expect(tab.field('Deinterlace mode').locator('option')).toHaveText([
      'default',
      'off',
      'on',
      'bob',
      'adaptive',
      'weave',
    ]);
    await expect(tab.field('Device ID').locator('option')).toHaveText(['default']);
    await tab
      .track(0)
      .getByRole('button', { name: /^Track 0/ })
      .click();
    await expect(tab.trackField(0, 'Preset')).toHaveValue('llhq');

    await tab.field('Hardware').focus();
    await tab.field('Hardware').selectOption('cpu');
    await tab.field('Hardware').blur();
    await expect(tab.field('Deinterlace mode').locator('option')).toHaveText(['default', 'off', 'on']);
    await expect(tab.trackField(0, 'Preset').locator('option', { hasText: 'veryslow' })).toHaveCount(1);
    await tab.saveAndWait();
    await expectConfigFile(server.configPath, (text) => {
      const block = streamBlock(text, 'gpu');
      return block.includes('hw cpu') && !block.includes('external');
    });
  });

  test('copy settings from one stream and paste them into another', async ({ page, server }) => {
    const tab = new TranscoderTab(page);
    await tab.open(server.url, 'demo');
    await expect(tab.button('Enable and paste settings')).toBeDisabled();

    await tab.open(server.url, 'copied');
    await tab.button('Copy settings').click();
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('transcoder'))) ?? 'null')).toEqual({
      global: { hw: 'cpu' },
      audio: { bitrate: 64000, codec: 'aac' },
      video: { '0': { bitrate: 1000000, codec: 'h264' } },
    });

    await page.getByRole('navigation', { name: 'stream tabs' }).click();
    await tab.open(server.url, 'demo');
    await tab.button('Enable and paste settings').click();
    await expect(tab.trackField(0, 'Bitrate')).toHaveValue('1000');
    await tab.saveAndWait();
    await expectConfigFile(server.configPath, (text) => {
      const block = streamBlock(text, 'demo');
      return block.includes('bitrate 1000000') && block.includes('bitrate 64000') && block.includes('hw cpu');
    });

    // Paste settings over an enabled transcoder replaces it.
    await tab.addPreset('1500k 576p');
    await expect(tab.trackField(1, 'Height')).toHaveValue('576');
    await tab.button('Paste settings').click();
    await expect(tab.track(1)).toHaveCount(0);
  });

  test('logos are uploaded, chosen, pinned to a corner and deleted while unused', async ({
    page,
    server,
  }) => {
    const tab = new TranscoderTab(page);
    await tab.open(server.url, 'demo');
    await tab.button('Enable transcoder').click();
    const upload = tab.track(0).locator('input[type=file]');
    const logoFile = tab.trackField(0, 'Logo file');

    await upload.setInputFiles({ name: 'corner.png', mimeType: 'image/png', buffer: PNG });
    await expect(logoFile.locator('option', { hasText: 'corner.png' })).toHaveCount(1);
    await upload.setInputFiles({ name: 'spare.png', mimeType: 'image/png', buffer: PNG });
    await expect(logoFile.locator('option', { hasText: 'spare.png' })).toHaveCount(1);

    // A logo no stream uses can be deleted.
    await logoFile.selectOption('spare.png');
    await expect(tab.trackField(0, 'Logo path')).toHaveValue('@spare.png');
    await tab.track(0).getByRole('button', { name: 'Delete logo' }).click();
    await expect(logoFile.locator('option', { hasText: 'spare.png' })).toHaveCount(0);

    await logoFile.selectOption('corner.png');
    await expect(tab.trackField(0, 'Logo path')).toHaveValue('@corner.png');
    await tab.trackField(0, 'Logo position').selectOption('bottom_right');
    await tab.saveAndWait();
    await expectConfigFile(server.configPath, (text) => {
      const block = streamBlock(text, 'demo');
      return (
        block.includes('path "@corner.png"') &&
        block.includes('main_w-overlay_w-10') &&
        block.includes('main_h-overlay_h-10')
      );
    });
    // Now a stream uses it: no Delete.
    await expect(tab.track(0).getByRole('button', { name: 'Delete logo' })).toHaveCount(0);
    const list = await page.request.get(`${server.url}/flussonic/api/logo`, {
      headers: {
        authorization: `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}`,
      },
    });
    expect(await list.json()).toEqual({ 'corner.png': { streams: ['demo'] } });

    // Position none keeps the file; Remove logo takes it off the track; a typed path is trimmed.
    await tab.trackField(0, 'Logo position').selectOption('');
    await tab.track(0).getByRole('button', { name: 'Remove logo' }).click();
    await expect(tab.trackField(0, 'Logo path')).toHaveValue('');
    await tab.trackField(0, 'Logo path').fill('  @corner.png  ');
    await tab.trackField(0, 'Logo path').blur();
    await expect(tab.trackField(0, 'Logo path')).toHaveValue('@corner.png');
    await tab.saveAndWait();
    await expectConfigFile(server.configPath, (text) => {
      const block = streamBlock(text, 'demo');
      return block.includes('path "@corner.png"') && !block.includes('overlay_w');
    });
  });

  test("a rendition saved from the tab is in the stream's HLS and plays", async ({ page, server }) => {
    const tab = new TranscoderTab(page);
    await tab.open(server.url, 'live');
    await tab.button('Enable transcoder').click();
    await tab.addPreset('700k 360p');
    await expect(tab.trackField(1, 'Height')).toHaveValue('360');
    await tab.saveAndWait();

    // The master playlist lists one variant per track: the source-sized one and the 360p rendition.
    await expect
      .poll(
        async () => {
          const answer = await page.request.get(`${server.url}/live/index.m3u8`);
          return answer.ok() ? (await answer.text()).match(/RESOLUTION=\d+x\d+/g) : null;
        },
        { timeout: 30_000 },
      )
      .toEqual(['RESOLUTION=320x180', 'RESOLUTION=640x360']);

    await page
      .getByRole('navigation', { name: 'stream tabs' })
      .getByRole('link', { name: 'Overview' })
      .click();
    const stream = new StreamPage(page);
    await expectPlaying(stream.video);
  });
});
