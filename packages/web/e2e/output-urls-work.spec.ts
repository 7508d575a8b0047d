import { freePort, waitFor } from '../../server/test/harness.js';
import { spawn } from 'node:child_process';
import { rtmpPublisher, stopChild, streamStats, testEncoderArgs } from '../../server/test/media-helpers.js';
import { expect, minimalConfig, test } from './fixtures.js';
import { ConsoleShell } from './pages/console-shell.js';
import { StreamPage } from './pages/stream-page.js';
import { expectHttpPlays, expectMssPlays, probeTracks, shownUrls } from './pages/url-checks.js';

const NOT_CONFIGURED = 'RTMP/RTSP not configured yet, please follow global config page';
const SOURCE = 'test://?size=320x180&bitrate=300';
/** URLs checked at once by expectAllPlay. */
const URLS_AT_ONCE = 4;

/**
 * Every URL shown answers with media: HTTP ones fetched (200, their content type) and read by
 * ffprobe (a video track), RTMP and RTSP ones (and any other scheme a protocol adds) by ffprobe;
 * Smooth Streaming, which ffprobe does not read, by its manifest and a fragment.
 */
async function expectAllPlay(urls: string[]): Promise<void> {
  const expectPlays = async (url: string) => {
    if (url.startsWith('http')) await expectHttpPlays(url);
    if (url.endsWith('.isml/manifest')) return expectMssPlays(url);
    const { tracks, error } = await probeTracks(url);
    expect(tracks, `${url}: ${error}`).toContain('video');
  };
  // A few at once: each mostly waits for its first second of media (one after the other, a
  // dozen URLs took ~20 s), and a player's start is what is checked, not a machine's worth of them.
  const queue = [...urls];
  const worker = async () => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) await expectPlays(url);
  };
  await Promise.all(Array.from({ length: URLS_AT_ONCE }, worker));
}

/** An encoder publishing the test pattern over RTSP (TCP) to `url`. */
function rtspPublisher(url: string): { stop: () => Promise<void> } {
  const child = spawn('ffmpeg', [...testEncoderArgs(), '-f', 'rtsp', '-rtsp_transport', 'tcp', url], {
    stdio: 'ignore',
  });
  return { stop: () => stopChild(child) };
}

/** An encoder PUTting the test pattern as MPEG-TS to `url` (ffmpeg's HTTP output). */
function httpTsPublisher(url: string): { stop: () => Promise<void> } {
  const child = spawn('ffmpeg', [...testEncoderArgs(), '-f', 'mpegts', '-method', 'PUT', url], {
    stdio: 'ignore',
  });
  return { stop: () => stopChild(child) };
}

/**
 * Issues 17 and 18: every URL an Output tab shows works — answers with media, or takes a publisher —
 * on this server, and what it does not serve (HDS: capabilities.outputs) is not shown.
 */
test.describe('output URLs work', () => {
  let rtmpPort = 0;
  let rtspPort = 0;
  test.beforeAll(async () => {
    rtmpPort = await freePort();
    rtspPort = await freePort();
  });
  test.use({
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies destructured.
    serverConfig: async ({}, use) =>
      use(
        `${minimalConfig}rtmp ${rtmpPort};\nrtsp ${rtspPort};\nlive live {\n}\n` +
          `stream demo {\n  url ${SOURCE};\n  static true;\n}\n` +
          `stream inbox {\n  url publish://;\n  password s3cret;\n}\n` +
          `stream backed {\n  url ${SOURCE};\n  publish_enabled true;\n  static true;\n}\n`,
      ),
  });

  test.beforeEach(async ({ page, server }) => {
    await new ConsoleShell(page, server.url).rememberLogin();
  });

  test('a stream with a source: every protocol URL plays', async ({ page, server }) => {
    await waitFor(async () => (await streamStats(server, 'demo')).alive === true, 30_000);
    await page.goto(`${server.url}/admin/standalone/demo/output`);
    const urls = await shownUrls(page);
    expect(urls).toContain(`rtmp://127.0.0.1:${rtmpPort}/static/demo`);
    // Spec 001 §9's shapes: RTSP host/name on the RTSP port, MSS {name}.isml/manifest.
    expect(urls).toContain(`rtsp://127.0.0.1:${rtspPort}/demo`);
    expect(urls).toContain(`${server.url}/demo.isml/manifest`);
    // HDS is not served (docs/media.md): not in capabilities.outputs, so not shown.
    expect(urls.some((u) => /manifest\.f4m/.test(u))).toBe(false);
    await expectAllPlay(urls);
  });

  test("a stream published into a location: every URL plays, RTMP's without 'static/'", async ({
    page,
    server,
  }) => {
    const publisher = rtmpPublisher(`rtmp://127.0.0.1:${rtmpPort}/live/cam`);
    try {
      await waitFor(async () => (await streamStats(server, 'live/cam', 'live')).alive === true, 30_000);
      await page.goto(`${server.url}/admin/published/live%2Fcam/output`);
      const urls = await shownUrls(page);
      expect(urls).toContain(`rtmp://127.0.0.1:${rtmpPort}/live/cam`);
      expect(urls).toContain(`rtsp://127.0.0.1:${rtspPort}/live/cam`);
      await expectAllPlay(urls);
    } finally {
      await publisher.stop();
    }
  });

  test('a stream accepting publishing: each publish URL (RTMP, RTSP, HTTP MPEG-TS) takes a publisher and the stream comes alive', async ({
    page,
    server,
  }) => {
    await page.goto(`${server.url}/admin/standalone/inbox/output`);
    const publishing = page.getByLabel('publishing', { exact: true });
    await expect(publishing).toBeVisible();
    // RTMP and RTSP are on: the hint about configuring them is not shown.
    await expect(page.getByText(NOT_CONFIGURED)).toHaveCount(0);
    const urls = await shownUrls(page, ' publish url');
    expect(urls).toEqual([
      `rtmp://127.0.0.1:${rtmpPort}/static/inbox?password=s3cret`,
      `rtsp://127.0.0.1:${rtspPort}/inbox?password=s3cret`,
      `${server.url}/inbox/mpegts?password=s3cret`,
    ]);
    // Each publish URL takes a publisher (issue 18: RTSP and HTTP MPEG-TS publish), one after the other.
    const rtsp = rtspPublisher(urls[1]!);
    try {
      await waitFor(async () => (await streamStats(server, 'inbox')).published_via === 'rtsp', 30_000);
    } finally {
      await rtsp.stop();
    }
    await waitFor(async () => (await streamStats(server, 'inbox')).published_from === undefined, 30_000);
    const httpPublisher = httpTsPublisher(urls[2]!);
    try {
      await waitFor(async () => (await streamStats(server, 'inbox')).published_via === 'mpegts', 30_000);
    } finally {
      await httpPublisher.stop();
    }
    await waitFor(async () => (await streamStats(server, 'inbox')).published_from === undefined, 30_000);
    const publisher = rtmpPublisher(urls[0]!);
    try {
      await waitFor(async () => (await streamStats(server, 'inbox')).published_via === 'rtmp', 30_000);
      await expect(page.getByLabel('rtmp url')).toHaveValue(`rtmp://127.0.0.1:${rtmpPort}/static/inbox`);
      const playing = (await shownUrls(page)).filter((url) => !urls.includes(url));
      expect(playing.length).toBeGreaterThan(3);
      await expectAllPlay(playing);
    } finally {
      await publisher.stop();
    }
  });

  test('a protocol switched off in the tab: its URL goes, and the server refuses it, saying why', async ({
    page,
    server,
  }) => {
    await waitFor(async () => (await streamStats(server, 'demo')).alive === true, 30_000);
    await page.goto(`${server.url}/admin/standalone/demo/output`);
    await expect(page.getByLabel('mpegts url')).toBeVisible();
    await page.getByLabel('mpegts switch').getByText('except').click();
    await new StreamPage(page).saveAndWait();
    await expect(page.getByLabel('mpegts url')).toHaveCount(0);
    await waitFor(async () => (await fetch(`${server.url}/demo/mpegts`)).status === 403, 15_000);
    expect(await (await fetch(`${server.url}/demo/mpegts`)).text()).toBe(
      'mpegts is switched off for stream demo\n',
    );
    // RTSP too: its URL goes, and a player is refused (403 to DESCRIBE).
    const rtspUrl = await page.getByLabel('rtsp url').inputValue();
    await page.getByLabel('rtsp switch').getByText('except').click();
    await new StreamPage(page).saveAndWait();
    await expect(page.getByLabel('rtsp url')).toHaveCount(0);
    await waitFor(async () => /403 Forbidden/.test((await probeTracks(rtspUrl)).error), 30_000);
    // The others still play.
    await expectAllPlay(await shownUrls(page));
  });

  test('a stream pulling from its source: its publish URL is marked as not taken now, and it is not', async ({
    page,
    server,
  }) => {
    await waitFor(async () => (await streamStats(server, 'backed')).alive === true, 30_000);
    await page.goto(`${server.url}/admin/standalone/backed/output`);
    const field = page.getByLabel('RTMP publish url');
    await expect(field).toBeDisabled();
    // Every publish URL (RTMP, RTSP, HTTP MPEG-TS) carries the note: the same rule refuses them all.
    await expect(page.getByLabel('HTTP MPEG-TS publish url')).toBeDisabled();
    await expect(page.getByLabel('RTSP publish url')).toBeDisabled();
    await expect(page.getByText(/Not taken now: the stream pulls from its source/)).toHaveCount(3);
    // What the note says is what the server does: a publisher is refused while the source feeds it.
    const publisher = rtmpPublisher(await field.inputValue());
    expect(await publisher.exited).not.toBe(0);
    expect((await probeTracks(`rtmp://127.0.0.1:${rtmpPort}/static/backed`)).tracks).toContain('video');
  });
});
