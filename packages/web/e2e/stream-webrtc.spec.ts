import { spawnSync } from 'node:child_process';
import { expect, failedLoad, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';

interface Probed {
  codec_type: string;
  codec_name: string;
  width?: number;
}

/** ffprobe's streams of the server's HLS of a stream, as a player would read it. */
function probeHls(url: string): Probed[] {
  const result = spawnSync(
    'ffprobe',
    ['-hide_banner', '-loglevel', 'error', '-of', 'json', '-show_streams', '-i', url],
    { timeout: 20_000 },
  );
  if (result.status !== 0) throw new Error(`ffprobe: ${result.stderr.toString()}`);
  return (JSON.parse(result.stdout.toString()) as { streams: Probed[] }).streams;
}

test.use({
  // Chromium's fake camera (a test pattern and a beep), allowed without asking, and a peer
  // connection to the server on this machine.
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      '--allow-loopback-in-peer-connection',
    ],
  },
});

/**
 * The browser's camera through ICE, DTLS and the server's ffmpeg to a first HLS segment: seconds
 * alone, but half a minute was seen pass with every core busy (CI saw a 404 at 30 s).
 */
const FIRST_MEDIA_MS = 60_000;

test.describe('stream webrtc publishing', () => {
  // Room for a first-media wait of a minute beside the test's other steps.
  test.describe.configure({ timeout: 150_000 });
  test.use({
    serverConfig: `${minimalConfig}stream cam {\n  url publish://;\n  publish_enabled true;\n  password s3cret;\n}\nstream other {\n  url publish://;\n  publish_enabled true;\n}\n`,
  });

  test('publishes the webcam from the Output tab, plays over HLS, and stops', async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
    await page.goto(`${server.url}/admin/standalone/cam/output`);
    const block = page.getByLabel('webrtc publishing');
    await expect(block).toHaveAttribute('data-status', 'idle');

    await block.getByRole('button', { name: 'Start publishing' }).click();
    await expect(block).toHaveAttribute('data-status', 'publishing');
    const preview = block.getByLabel('webcam preview');
    await expect(preview).toHaveAttribute('width', '640');
    await expect(preview).toHaveAttribute('height', '480');
    // The preview plays the camera itself.
    await expect.poll(() => preview.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(0);

    // The server's HLS of the stream carries the webcam: H.264 video and AAC audio.
    const playlist = `${server.url}/cam/index.m3u8`;
    await expect
      .poll(async () => (await fetch(playlist)).status, { timeout: FIRST_MEDIA_MS, intervals: [250] })
      .toBe(200);
    const streams = probeHls(playlist);
    expect(streams.find((s) => s.codec_type === 'video')?.codec_name).toBe('h264');
    expect(streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    const stats = async () => {
      const config = (await (await server.api('/flussonic/api/read_config')).json()) as {
        streams: Record<string, { stats?: { published_via?: string } }>;
      };
      return config.streams.cam?.stats?.published_via;
    };
    expect(await stats()).toBe('webrtc');

    await block.getByRole('button', { name: 'Stop publishing' }).click();
    await expect(block).toHaveAttribute('data-status', 'idle');
    await expect(preview).toHaveCount(0);
    await expect(block.getByRole('alert')).toHaveCount(0);
    // The server's publish ends with the WHIP DELETE.
    await expect.poll(stats).toBeUndefined();
  });

  test('stops and says why when the server ends the publish', async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
    await page.goto(`${server.url}/admin/standalone/cam/output`);
    const block = page.getByLabel('webrtc publishing');
    await block.getByRole('button', { name: 'Start publishing' }).click();
    await expect
      .poll(async () => (await fetch(`${server.url}/cam/index.m3u8`)).status, { timeout: FIRST_MEDIA_MS })
      .toBe(200);
    // A restart of the stream disconnects its publisher: the server ends the publish and closes
    // the peer connection, which the browser sees (WHIP has no other channel back).
    const restart = await server.api('/flussonic/api/stream_restart/cam', { method: 'POST' });
    expect(restart.ok).toBe(true);
    await expect(block.getByRole('alert')).toHaveText(/^Connection (failed|to the server closed)$/, {
      timeout: 45_000,
    });
    await expect(block).toHaveAttribute('data-status', 'idle');
    await expect(block.getByLabel('webcam preview')).toHaveCount(0);
  });

  test('stops when the page moves to another stream', async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
    await page.goto(`${server.url}/admin/standalone/cam/output`);
    const block = page.getByLabel('webrtc publishing');
    await block.getByRole('button', { name: 'Start publishing' }).click();
    await expect
      .poll(async () => (await fetch(`${server.url}/cam/index.m3u8`)).status, { timeout: FIRST_MEDIA_MS })
      .toBe(200);
    // In-app navigation (as the browser's back/forward does): the Output tab stays, its stream changes.
    await page.evaluate(() => {
      window.history.pushState({}, '', '/admin/standalone/other/output');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page.getByLabel('hls url').first()).toHaveValue(/\/other\/index\.m3u8/);
    await expect(block).toHaveAttribute('data-status', 'idle');
    await expect(block.getByRole('alert')).toHaveCount(0);
    const publishedVia = async () => {
      const config = (await (await server.api('/flussonic/api/read_config')).json()) as {
        streams: Record<string, { stats?: { published_via?: string } }>;
      };
      return config.streams.cam?.stats?.published_via;
    };
    await expect.poll(publishedVia).toBeUndefined();
  });

  test.describe('refused', () => {
    // The WHIP POST's 403 is the refusal shown: the browser logs it as a failed load.
    test.use({ allowedConsoleErrors: [failedLoad(403)] });
    test('shows the server refusing the publish', async ({ page, server }) => {
      await new ConsoleShell(page, server.url).rememberLogin();
      await page.goto(`${server.url}/admin/standalone/cam/output`);
      // The console publishes with the password in the form; a wrong one is refused by the server.
      await page.getByLabel('Password', { exact: true }).fill('wrong');
      const block = page.getByLabel('webrtc publishing');
      await block.getByRole('button', { name: 'Start publishing' }).click();
      await expect(block.getByRole('alert')).toHaveText('wrong or missing password', { timeout: 30_000 });
      await expect(block).toHaveAttribute('data-status', 'idle');
    });
  });
});
