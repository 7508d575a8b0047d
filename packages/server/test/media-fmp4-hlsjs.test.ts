import type { Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LiveFmp4Fixture, startLiveFmp4 } from './fmp4-live-fixture.js';
import type { RunningServer } from './harness.js';

/**
 * hls.js in Chromium plays the live fMP4 HLS of an RTMP publish with B-frames, as Flussonic's DVR
 * player does with proto hls (/{name}/index.fmp4.m3u8). Segments of 1 s with a keyframe every 2 s:
 * every other fragment starts inside a GOP, as the segmenter cuts them.
 */
describe('live fMP4 HLS played by hls.js', () => {
  let fixture: LiveFmp4Fixture;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    fixture = await startLiveFmp4();
    ({ server, browser } = fixture);
  });
  afterAll(() => fixture?.close());

  it('plays index.fmp4.m3u8: the picture advances 5 s, no fatal error, fragments and not TS loaded', async () => {
    const page = await browser.newPage();
    const loaded: string[] = [];
    page.on('requestfinished', (request) => loaded.push(request.url()));
    // A page of the server's origin running the hls.js the server ships for embed.html.
    await page.goto(`${server.url}/embed/hls.min.js`);
    await page.setContent('<video muted playsinline></video>');
    await page.addScriptTag({ url: '/embed/hls.min.js' });
    await page.evaluate(startPlayer, `${server.url}/cam/index.fmp4.m3u8`);
    const start = await page.waitForFunction(
      () => {
        const t = document.querySelector('video')!.currentTime;
        return t > 0 ? t : undefined;
      },
      null,
      { timeout: 30_000 },
    );
    const from = (await start.jsonValue())!;
    await page.waitForFunction((t) => document.querySelector('video')!.currentTime > t + 5, from, {
      timeout: 30_000,
    });
    const seen = await page.evaluate(() => {
      const video = document.querySelector('video')!;
      const state = (window as unknown as { player: PlayerState }).player;
      return { ...state, width: video.videoWidth, height: video.videoHeight, ranges: video.buffered.length };
    });
    expect(seen.fatal).toEqual([]);
    expect({ width: seen.width, height: seen.height }).toEqual({ width: 640, height: 360 });
    // Fragments join end to end: one buffered range, no hole at any fragment boundary.
    expect(seen.ranges).toBe(1);
    expect(loaded.some((url) => /fmp4-init-[0-9a-f]{8}\.mp4$/.test(url))).toBe(true);
    expect(loaded.filter((url) => /fmp4-\d+\.m4s$/.test(url)).length).toBeGreaterThanOrEqual(5);
    expect(loaded.some((url) => url.endsWith('.ts'))).toBe(false);
  }, 90_000);
});

interface PlayerState {
  fatal: string[];
}

/** In the page: hls.js on the playlist, noting fatal errors. */
function startPlayer(playlist: string): void {
  type Listener = (
    event: string,
    data: { fatal?: boolean; details?: string; frag?: { url: string } },
  ) => void;
  type HlsInstance = {
    loadSource: (url: string) => void;
    attachMedia: (video: HTMLVideoElement) => void;
    on: (event: string, listener: Listener) => void;
  };
  const Hls = (window as unknown as { Hls: { new (): HlsInstance; Events: { ERROR: string } } }).Hls;
  const video = document.querySelector('video')!;
  const state: PlayerState = { fatal: [] };
  (window as unknown as { player: PlayerState }).player = state;
  const hls = new Hls();
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (data.fatal) state.fatal.push(data.details);
  });
  hls.loadSource(playlist);
  hls.attachMedia(video);
  void video.play().catch(() => undefined);
}
