import { type Browser, chromium, type Page } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, streamStats, udpSender } from './media-helpers.js';
import { PlaylistWatch, startsWithKeyframe, udpRelay, videoPacketCount } from './media-splice-helpers.js';

/**
 * Ten failovers and switch-backs under hls.js in Chromium. Two UDP feeds of one stream, source
 * timeout 2 s; the main feed goes silent (its relay stops forwarding) until the backup plays, then
 * comes back (mid-GOP, as a real feed does) until the stream is on it again. The player sits near
 * the live edge (each outage eats into its buffer), so it does stall at each failover: for no
 * longer than the outage, and never for good.
 */
describe('failover splices played by hls.js', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const stops: (() => Promise<void>)[] = [];
  let main: ReturnType<typeof udpRelay>;
  let mainUrl: string;
  let backupUrl: string;

  beforeAll(async () => {
    const [mainPort, backupPort, mainIn, backupIn] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    mainUrl = `udp://127.0.0.1:${mainPort}`;
    backupUrl = `udp://127.0.0.1:${backupPort}`;
    main = udpRelay(mainIn, mainPort);
    const backup = udpRelay(backupIn, backupPort);
    const encoders = [udpSender(mainIn, 440), udpSender(backupIn, 880)];
    stops.push(main.stop, backup.stop, ...encoders.map((e) => e.stop));
    server = await startServer({
      config: `${minimalConfig}stream tv {\n  url ${mainUrl};\n  url ${backupUrl};\n  source_timeout 2;\n  static true;\n}\n`,
    });
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--autoplay-policy=no-user-gesture-required'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(stops.map((stop) => stop()));
    await server?.cleanup();
  });

  const activeUrl = async () => {
    const stats = await streamStats(server, 'tv');
    return stats.alive ? stats.url : undefined;
  };

  it('plays through ten failovers and switch-backs, no stall longer than the outage, its first segment and a playlist refresh', async () => {
    expect(await waitFor(activeUrl, 15_000)).toBe(mainUrl);
    const playlist = `${server.url}/tv/video.m3u8`;
    await waitFor(async () => (await getText(playlist)).text.includes('#EXTINF:'), 15_000);
    const watch = new PlaylistWatch(playlist);
    page = await browser.newPage();
    // A page of the server's origin running the hls.js the server ships for embed.html.
    await page.goto(`${server.url}/embed/hls.min.js`);
    await page.setContent('<video muted playsinline></video>');
    await page.addScriptTag({ url: '/embed/hls.min.js' });
    await page.evaluate(startPlayer, playlist);
    await page.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 1, null, {
      timeout: 30_000,
    });

    const playingFrom = Date.now();
    let longestOutageMs = 0;
    for (let cycle = 0; cycle < 10; cycle++) {
      main.forwarding = false;
      const silentFrom = Date.now();
      await waitFor(async () => (await activeUrl()) === backupUrl, 20_000, 100);
      // Nothing plays until the switch and the backup's next keyframe (its encoder sends one a second).
      longestOutageMs = Math.max(longestOutageMs, Date.now() - silentFrom + GOP_MS);
      main.forwarding = true;
      await waitFor(async () => (await activeUrl()) === mainUrl, 20_000, 100);
      // The main feed plays a segment before it goes again, as a feed that comes back stays a while.
      const back = (await watch.next()).lastSequence;
      await waitFor(async () => (await watch.next()).lastSequence >= back + 2, 15_000, 100);
    }
    // The last switch-back's segment reaches the player.
    const endSequence = (await watch.next()).lastSequence;
    await waitFor(async () => (await watch.next()).lastSequence >= endSequence + 2, 15_000, 250);
    const played = await page.evaluate(() => {
      const stats = (window as unknown as { player: PlayerStats }).player;
      return { ...stats, currentTime: document.querySelector('video')!.currentTime };
    });
    await watch.stop();

    // Playlists: every rule a strict parser checks, in every version fetched while switching.
    expect(watch.violations).toEqual([]);
    // A discontinuity on the first segment of each new source: 20 switches.
    expect(watch.discontinuities.length).toBeGreaterThanOrEqual(20);
    for (const { before, first } of watch.discontinuities) {
      // The old source's last segment lasts what its frames last; the new one starts at a keyframe.
      // (Its last frame may be cut short by the outage: one frame either way.)
      const framesMs = videoPacketCount(before.data) * 40;
      expect(Math.abs(framesMs - before.durationMs), before.url).toBeLessThanOrEqual(40);
      expect(startsWithKeyframe(first.data), first.url).toBe(true);
    }
    // hls.js: no fatal error, and the picture stood still no longer than the outage as a segment
    // player sees it: the source outage, the new source's first segment (one GOP, cut short after a
    // switch) and one playlist refresh (hls.js reloads a changed live playlist every target
    // duration). Each outage eats the buffer for good (the media timeline runs on without the
    // gap), so after the first few hls.js is at the live edge and stalls about that long; under
    // load, 0.2-0.4 s longer than the source outage alone.
    expect(played.fatal).toEqual([]);
    const bound = longestOutageMs + GOP_MS + TARGET_MS;
    expect(played.maxStallMs, played.stalls.join(', ')).toBeLessThan(bound);
    // …and it kept going: the picture advanced through most of the run (it froze for good before).
    expect(played.currentTime).toBeGreaterThan((Date.now() - playingFrom) / 2000);
  }, 240_000);
});

/** Keyframe interval of the test encoders (media-helpers.ts testEncoderArgs: -g 25 at 25 fps). */
const GOP_MS = 1000;
/** The stream's segment_duration (the default). */
const TARGET_MS = 2000;

interface PlayerStats {
  fatal: string[];
  maxStallMs: number;
  /** Stalls over a second: at what position and how long, for the failure message. */
  stalls: string[];
}

/** In the page: hls.js on the playlist, noting fatal errors and the longest time currentTime stood still. */
function startPlayer(playlist: string): void {
  type HlsInstance = {
    loadSource: (url: string) => void;
    attachMedia: (video: HTMLVideoElement) => void;
    on: (event: string, listener: (event: string, data: { fatal: boolean; details: string }) => void) => void;
  };
  const Hls = (window as unknown as { Hls: { new (): HlsInstance; Events: { ERROR: string } } }).Hls;
  const video = document.querySelector('video')!;
  const stats: PlayerStats = { fatal: [], maxStallMs: 0, stalls: [] };
  (window as unknown as { player: PlayerStats }).player = stats;
  const hls = new Hls();
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (data.fatal) stats.fatal.push(data.details);
  });
  hls.loadSource(playlist);
  hls.attachMedia(video);
  void video.play().catch(() => undefined);
  let last = 0;
  let advancedAt = 0;
  setInterval(() => {
    const now = performance.now();
    if (video.currentTime > last) {
      const stallMs = now - advancedAt - 50;
      if (advancedAt > 0 && stallMs > 1000)
        stats.stalls.push(`${Math.round(stallMs)} ms at ${last.toFixed(2)} s`);
      last = video.currentTime;
      advancedAt = now;
    } else if (advancedAt > 0) {
      stats.maxStallMs = Math.max(stats.maxStallMs, now - advancedAt);
    }
  }, 50);
}
