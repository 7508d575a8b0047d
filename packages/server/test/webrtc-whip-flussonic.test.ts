import { readdirSync, readFileSync } from 'node:fs';
import { type Browser, chromium, type Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, probeStreams, streamStats } from './media-helpers.js';
import { serveFlussonicPage, serveTlsFront } from './whip-publisher-page.js';

/** The argument lists of the server's ffmpeg children now (Linux /proc). */
function childFfmpegs(pid: number): string[][] {
  const out: string[][] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // pid (comm) state ppid …: the comm may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (ppid === pid && /ffmpeg$/.test(args[0] ?? '')) out.push(args);
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

/**
 * Flussonic's own WebRTC Publisher (npm @flussonic/flussonic-webrtc-player, unchanged) publishes
 * Chromium's fake camera and microphone through WHIP, from a page of another origin, over HTTPS
 * (it always calls https://…/whip), with the stream's password.
 */
describe('WHIP publish from Flussonic’s Publisher in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Awaited<ReturnType<typeof serveFlussonicPage>>;
  let front: Awaited<ReturnType<typeof serveTlsFront>>;
  /** The page publishing, left publishing by the first test for the second. */
  let publisherTab: Page;

  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream cam {\n  publish_enabled true;\n  password s3cret;\n  static true;\n}\n`,
    });
    [page, front] = await Promise.all([serveFlussonicPage(), serveTlsFront(server.url)]);
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        '--ignore-certificate-errors',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([page?.close(), front?.close()]);
    await server?.cleanup();
  });

  it('publishes H.264 passed through (no re-encode) and Opus as AAC: the stream plays as HLS', async () => {
    const tab = await browser.newPage();
    publisherTab = tab;
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(page.url);
    await tab.waitForFunction(() => 'FlussonicWebRTC' in window);
    await tab.evaluate((url) => {
      const { Publisher } = (
        window as unknown as { FlussonicWebRTC: { Publisher: new (...a: unknown[]) => { start(): void } } }
      ).FlussonicWebRTC;
      const publisher = new Publisher(url, {
        preview: document.getElementById('v'),
        constraints: { video: { width: 320, height: 240 }, audio: true },
        password: 's3cret',
      });
      (window as unknown as { publisher: unknown }).publisher = publisher;
      publisher.start();
    }, `${front.url}/cam`);

    const stats = await waitFor(async () => {
      const s = await streamStats(server, 'cam');
      return s.alive && s.media_info?.tracks.length === 2 ? s : undefined;
    }, 60_000);
    expect(stats).toMatchObject({ published_from: '127.0.0.1', published_via: 'webrtc' });
    expect(server.output()).toMatch(
      /webrtc publish cam from 127\.0\.0\.1 answered: H264 passed through \(no re-encode\), Opus encoded to AAC/,
    );
    // The publish's ffmpeg copies the video: no H.264 encoder runs for it.
    const ingest = childFfmpegs(server.process.pid!).find((args) => args.includes('sdp'));
    expect(ingest).toBeDefined();
    expect(ingest!.join(' ')).toContain('-c:v copy');
    expect(ingest).not.toContain('libx264');

    await waitFor(async () => (await getText(`${server.url}/cam/index.m3u8`)).status === 200, 20_000);
    const streams = probeStreams(`${server.url}/cam/index.m3u8`);
    expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    expect(streams.find((s) => s.codec_name === 'h264')?.width).toBe(320);
    expect(errors).toEqual([]);
  }, 150_000);

  it('plays back what it publishes in a second page with Flussonic’s Player (WHEP); its stop ends the publish', async () => {
    const tab = await browser.newPage();
    await tab.goto(page.url);
    await tab.waitForFunction(() => 'FlussonicWebRTC' in window);
    await tab.evaluate((url) => {
      const w = window as unknown as {
        FlussonicWebRTC: { Player: new (...a: unknown[]) => { play(): void } };
      };
      const video = document.getElementById('v') as HTMLVideoElement;
      new w.FlussonicWebRTC.Player(video, url, { autoplay: true }, false).play();
    }, `${server.url}/cam`);
    // The picture advances at the camera's size, frames decode, the sound track is there.
    await tab.waitForFunction(
      () => (document.getElementById('v') as HTMLVideoElement).currentTime > 3,
      null,
      {
        timeout: 45_000,
      },
    );
    const played = await tab.evaluate(() => {
      const video = document.getElementById('v') as HTMLVideoElement;
      return {
        size: [video.videoWidth, video.videoHeight],
        frames: video.getVideoPlaybackQuality().totalVideoFrames,
        audioTracks: (video.srcObject as MediaStream).getAudioTracks().length,
      };
    });
    expect(played.size).toEqual([320, 240]);
    expect(played.frames).toBeGreaterThan(30);
    expect(played.audioTracks).toBe(1);
    await tab.close();

    // The Publisher's stop closes its peer connection (it sends no DELETE): the publish ends.
    await publisherTab.evaluate(() =>
      (window as unknown as { publisher: { stop(): void } }).publisher.stop(),
    );
    await waitFor(async () => (await streamStats(server, 'cam')).published_from === undefined, 45_000);
    await publisherTab.close();
  }, 150_000);
});
