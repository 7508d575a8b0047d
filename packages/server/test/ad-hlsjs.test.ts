import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adCounts, localTimeOfDay, makeAdFile, saveAdSchedules } from './ad-helpers.js';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, modifyConfig, streamStats } from './media-helpers.js';

const SLOT_S = 4;

/** Issue 25's done-when: hls.js plays live → ad → live without a stall. */
describe('hls.js through an ad break', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream live {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\n`,
    });
    const vodDir = join(server.dir, 'vod');
    await makeAdFile(join(vodDir, 'spots'), 'cola.mp4', 3);
    await modifyConfig(server, { vods: { ads: { prefix: 'ads', urls: [{ url: vodDir }] } } });
    const schedule = (from: string) => [
      {
        name: 'brk',
        slots: [{ from, duration: SLOT_S }],
        files: [{ name: 'ads/spots/cola.mp4', weight: 1 }],
      },
    ];
    await saveAdSchedules(server, schedule(localTimeOfDay(Date.now() + 3 * 3600_000)));
    await modifyConfig(server, { streams: { live: { ad_schedule: 'brk' } } });
    await waitFor(async () => (await streamStats(server, 'live')).alive, 30_000);
    await waitFor(
      async () =>
        (await readdir(join(server.dir, 'ad-cache')).catch(() => [])).some((f) => f.endsWith('.ts')),
      30_000,
    );
    // A channel on air for a while: hls.js starts three segments back from the live edge, not on a
    // playlist of one or two, where it runs dry at the second segment (a wait before any switch).
    await waitFor(
      async () =>
        ((await getText(`${server.url}/live/video.m3u8`)).text.match(/#EXTINF:/g)?.length ?? 0) >= 3,
      30_000,
    );
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--autoplay-policy=no-user-gesture-required'],
    });
    // The slot starts once the player is playing (a few seconds from now).
    await saveAdSchedules(server, schedule(localTimeOfDay(Math.ceil((Date.now() + 8000) / 1000) * 1000)));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.cleanup();
  });

  it('plays live, the ad, then live again with no stall and no fatal error, and counts its view', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/embed/hls.min.js`);
    await page.setContent('<video muted playsinline></video>');
    await page.addScriptTag({ url: '/embed/hls.min.js' });
    await page.evaluate(play, `${server.url}/live/index.m3u8`);
    await page.waitForFunction(
      () => (window as unknown as { playingAt?: number }).playingAt !== undefined,
      null,
      {
        timeout: 30_000,
      },
    );
    // The player crosses both switches (live → ad → live: two new timelines on screen), then its
    // picture moves 2 s on. A player far behind the live edge on a loaded machine gets there late.
    await page
      .waitForFunction(() => (window as unknown as { discontinuities: number }).discontinuities >= 2, null, {
        timeout: 60_000,
      })
      .catch(() => undefined);
    const at = await page.evaluate(() => document.querySelector('video')!.currentTime);
    await page.waitForFunction((t) => document.querySelector('video')!.currentTime > t + 2, at, {
      timeout: 30_000,
    });
    const seen = await page.evaluate(() => {
      const w = window as unknown as { fatal: string[]; stalls: string[]; discontinuities: number };
      return {
        fatal: w.fatal,
        stalls: w.stalls.filter((x) => x.startsWith('waiting')),
        crossed: w.discontinuities >= 2,
      };
    });
    // A planned switch leaves no hole in the media: not one wait, at either switch.
    expect(seen).toEqual({ fatal: [], stalls: [], crossed: true });
    await page.close();
    const counts = await waitFor(async () => (await adCounts(server)).live?.find((f) => f.view_count > 0));
    expect(counts).toMatchObject({ name: 'ads/spots/cola.mp4', view_count: 1 });
  }, 120_000);
});

/** In the page: hls.js on `url`, noting fatal errors, stalls once playing, and the discontinuities it crossed. */
function play(url: string): void {
  type Hls = {
    loadSource: (u: string) => void;
    attachMedia: (v: HTMLVideoElement) => void;
    on: (
      e: string,
      l: (e: string, d: { fatal?: boolean; details?: string; frag?: { cc: number } }) => void,
    ) => void;
  };
  const w = window as unknown as {
    Hls: { new (): Hls; Events: { ERROR: string; FRAG_CHANGED: string } };
    fatal: string[];
    stalls: string[];
    discontinuities: number;
    playingAt?: number;
  };
  const video = document.querySelector('video')!;
  w.fatal = [];
  w.stalls = [];
  w.discontinuities = 0;
  let cc: number | undefined;
  video.addEventListener('playing', () => (w.playingAt ??= video.currentTime));
  video.addEventListener('waiting', () => {
    if (w.playingAt === undefined) return;
    const b = video.buffered;
    const ranges = Array.from(
      { length: b.length },
      (_, i) => `${b.start(i).toFixed(2)}-${b.end(i).toFixed(2)}`,
    );
    w.stalls.push(
      `waiting at ${video.currentTime.toFixed(2)} (timeline ${cc}, buffered ${ranges.join(' ')})`,
    );
  });
  const hls = new w.Hls();
  hls.on(w.Hls.Events.ERROR, (_e, data) => {
    if (data.fatal) w.fatal.push(data.details ?? 'fatal');
    else if (data.details === 'bufferStalledError' && w.playingAt !== undefined)
      w.stalls.push('bufferStalledError');
  });
  // The fragment on screen changes timeline (cc) at each switch: live → ad → live crosses two.
  hls.on(w.Hls.Events.FRAG_CHANGED, (_e, data) => {
    const next = data.frag?.cc;
    if (cc !== undefined && next !== undefined && next !== cc) w.discontinuities++;
    cc = next;
  });
  hls.loadSource(url);
  hls.attachMedia(video);
  void video.play().catch(() => undefined);
}
