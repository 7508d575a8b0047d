import { type Browser, chromium } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText } from './media-helpers.js';

interface Sample {
  /** hls.js's own estimate: distance from the playlist's live edge (s). */
  latency: number;
  /** Wall clock minus the program date time of the picture shown (s): what a viewer waits. */
  wall: number;
}

interface PlayerState {
  fatal: string[];
  samples: Sample[];
  stalls: number;
}

/**
 * hls.js 1.7.4 in low-latency mode plays a test:// stream's LL-HLS (index.ll.m3u8, 2 s segments,
 * 0.5 s parts) in Chromium, through blocking playlist reloads and parts, and stays under 3 s
 * behind: both by hls.js's latency and by the wall clock against EXT-X-PROGRAM-DATE-TIME (the
 * server's clock when the frames arrived), measured over the last 6 s of 12 s of playback.
 */
describe('LL-HLS played by hls.js in low-latency mode', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream ll {\n  url test://?size=320x180&bitrate=300;\n  static true;\n  segment_duration 2000;\n}\n`,
    });
    await waitFor(async () => (await getText(`${server.url}/ll/index.ll.m3u8`)).status === 200, 30_000);
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--autoplay-policy=no-user-gesture-required'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.cleanup();
  });

  it('plays index.ll.m3u8 under 3 s of latency, through parts and blocking reloads', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`${server.url}/embed/hls.min.js`);
    await page.setContent('<video muted playsinline></video>');
    await page.addScriptTag({ url: '/embed/hls.min.js' });
    await page.evaluate(startPlayer, `${server.url}/ll/index.ll.m3u8`);
    const start = await page.waitForFunction(
      () => {
        const t = document.querySelector('video')!.currentTime;
        return t > 0 ? t : undefined;
      },
      null,
      { timeout: 30_000 },
    );
    const from = (await start.jsonValue())!;
    await page.waitForFunction((t) => document.querySelector('video')!.currentTime > t + 12, from, {
      timeout: 40_000,
    });
    const state = await page.evaluate(() => (window as unknown as { player: PlayerState }).player);
    expect(state.fatal).toEqual([]);
    // The last 6 s (twelve samples at 0.5 s), once the player has settled at its target.
    const recent = state.samples.slice(-12);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
    const typical = {
      latency: median(recent.map((s) => s.latency)),
      wall: median(recent.map((s) => s.wall)),
    };
    const worstWall = Math.max(...recent.map((s) => s.wall));
    console.log(`hls.js LL-HLS latency over the last 6 s: ${JSON.stringify(recent)}; stalls ${state.stalls}`);
    expect(recent.length).toBe(12);
    // The live latency it plays at is under 3 s (plain HLS at 2 s segments sits at ~6 s). On a loaded
    // machine one stall may push a sample past it while hls.js catches up, but never to plain-HLS levels.
    expect(typical.latency).toBeLessThan(3);
    expect(typical.wall).toBeLessThan(3);
    expect(typical.wall).toBeGreaterThan(0);
    expect(worstWall).toBeLessThan(4.5);
    // It was LL-HLS: parts, and playlist reloads blocking on the next part.
    expect(requested.filter((u) => /\/ll-part-\d+\.m4s/.test(u)).length).toBeGreaterThan(10);
    expect(requested.some((u) => /video\.ll\.m3u8\?_HLS_msn=\d+&_HLS_part=\d+/.test(u))).toBe(true);
  }, 120_000);
});

/** In the page: hls.js in low-latency mode on the playlist, sampling its latency every 0.5 s. */
function startPlayer(playlist: string): void {
  type HlsInstance = {
    loadSource: (url: string) => void;
    attachMedia: (video: HTMLVideoElement) => void;
    on: (
      event: string,
      listener: (event: string, data: { fatal?: boolean; details: string }) => void,
    ) => void;
    latency: number;
    playingDate: Date | null;
  };
  type HlsClass = { new (config: object): HlsInstance; Events: { ERROR: string } };
  const Hls = (window as unknown as { Hls: HlsClass }).Hls;
  const video = document.querySelector('video')!;
  const state: PlayerState = { fatal: [], samples: [], stalls: 0 };
  (window as unknown as { player: PlayerState }).player = state;
  // As an LL-HLS player is set up: it may play up to 1.5x to get back to its target latency after a
  // stall (hls.js's default, 1, never catches up, so one stall on a loaded machine kept it ~0.4 s late
  // for the rest of the run).
  const hls = new Hls({ lowLatencyMode: true, maxLiveSyncPlaybackRate: 1.5 });
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (data.fatal) state.fatal.push(data.details);
  });
  video.addEventListener('waiting', () => state.stalls++);
  hls.loadSource(playlist);
  hls.attachMedia(video);
  void video.play().catch(() => undefined);
  setInterval(() => {
    if (video.currentTime === 0 || !hls.playingDate) return;
    state.samples.push({ latency: hls.latency, wall: (Date.now() - hls.playingDate.getTime()) / 1000 });
  }, 500);
}
