import { chromium, type Browser } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { streamStats } from './media-helpers.js';
import { serveFlussonicPage } from './whip-publisher-page.js';

interface PlayReport {
  currentTimeS: number;
  width: number;
  height: number;
  framesDecoded: number;
  audioTracks: number;
  /** Loudest sample level of the received audio (0–1) through WebAudio: the tone is heard. */
  audioPeak: number;
  longestStallMs: number;
  samples: number;
  failures: string[];
}

/**
 * Flussonic's WebRTC Player (its npm bundle, unchanged) plays a test:// stream through Sluice's
 * WHEP in Chromium: a client nobody here wrote.
 */
describe("Flussonic's WebRTC player over WHEP", () => {
  let server: RunningServer;
  let page: { url: string; close: () => Promise<void> };
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream demo {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\n`,
    });
    page = await serveFlussonicPage();
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--autoplay-policy=no-user-gesture-required'],
    });
    await waitFor(async () => (await streamStats(server, 'demo')).alive, 20_000);
  });
  afterAll(async () => {
    await browser?.close();
    await page?.close();
    await server?.cleanup();
  });

  it('plays: the picture advances at the stream size, frames decode, the sound is heard, no stall', async () => {
    const tab = await browser.newPage();
    await tab.goto(page.url);
    await tab.waitForFunction(() => 'FlussonicWebRTC' in window);
    await tab.evaluate((streamUrl) => {
      const w = window as unknown as {
        FlussonicWebRTC: {
          Player: new (...a: unknown[]) => { play(): void; on(e: string, f: (m: unknown) => void): void };
        };
        report: PlayReport;
      };
      const video = document.getElementById('v') as HTMLVideoElement;
      const report: PlayReport = {
        currentTimeS: 0,
        width: 0,
        height: 0,
        framesDecoded: 0,
        audioTracks: 0,
        audioPeak: 0,
        longestStallMs: 0,
        samples: 0,
        failures: [],
      };
      w.report = report;
      const player = new w.FlussonicWebRTC.Player(video, streamUrl, { autoplay: true }, false);
      player.on('FAIL', (message) => report.failures.push(String(message)));
      player.play();
      // The picture's progress, sampled; a stall is the longest time currentTime stood still once playing.
      let lastMoveAt = 0;
      let lastTime = 0;
      setInterval(() => {
        const now = performance.now();
        if (video.currentTime !== lastTime) {
          if (lastMoveAt > 0) report.longestStallMs = Math.max(report.longestStallMs, now - lastMoveAt);
          lastMoveAt = now;
          lastTime = video.currentTime;
        }
        report.currentTimeS = video.currentTime;
        report.width = video.videoWidth;
        report.height = video.videoHeight;
        report.framesDecoded = video.getVideoPlaybackQuality().totalVideoFrames;
        report.samples++;
      }, 50);
      // The received audio through an analyser: the test source's 1 kHz tone gives a clear level.
      const listen = setInterval(() => {
        const stream = video.srcObject as MediaStream | null;
        if (!stream || stream.getAudioTracks().length === 0) return;
        clearInterval(listen);
        report.audioTracks = stream.getAudioTracks().length;
        const context = new AudioContext();
        const analyser = context.createAnalyser();
        context.createMediaStreamSource(stream).connect(analyser);
        const data = new Float32Array(analyser.fftSize);
        setInterval(() => {
          analyser.getFloatTimeDomainData(data);
          for (const v of data) report.audioPeak = Math.max(report.audioPeak, Math.abs(v));
        }, 100);
      }, 100);
    }, `${server.url}/demo`);
    // Five seconds of picture once it started (the first keyframe comes within a 2 s GOP).
    await tab.waitForFunction(
      () => (window as unknown as { report: PlayReport }).report.currentTimeS > 5,
      null,
      {
        timeout: 45_000,
      },
    );
    const report = await tab.evaluate(() => (window as unknown as { report: PlayReport }).report);
    expect(report.failures).toEqual([]);
    expect([report.width, report.height]).toEqual([320, 180]);
    expect(report.framesDecoded).toBeGreaterThan(75);
    expect(report.audioTracks).toBe(1);
    expect(report.audioPeak).toBeGreaterThan(0.03);
    // At 25 fps a frame is 40 ms; a WebRTC picture standing still for a second is a stall.
    expect(report.longestStallMs).toBeLessThan(1000);
    // The player is a session of the stream, of type webrtc.
    await waitFor(async () => (await streamStats(server, 'demo')).client_count === 1);
    await tab.close();
  });
});
