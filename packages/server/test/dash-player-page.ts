import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

/**
 * A player page on an origin of its own (another port), as an embed on a customer's site: every
 * MPD and segment request dash.js makes to Sluice is cross-origin.
 */
export async function servePlayerPage(): Promise<{ url: string; close: () => Promise<void> }> {
  const dashJs = readFileSync(createRequire(import.meta.url).resolve('dashjs/dist/dash.all.min.js'));
  const server: Server = createServer((req, res) => {
    if (req.url === '/dash.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(dashJs);
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><video id="v" muted playsinline></video><script src="/dash.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface PlayerSample {
  /** Browser wall clock (ms since epoch) and the presented media time (s). */
  nowMs: number;
  currentTimeS: number;
  /** dash.js's own latency figure, player.getCurrentLiveLatency(). */
  reportedLatencyS: number;
}

export interface PlayerReport {
  errors: string[];
  /** The longest time (ms) the picture stood still while playing, after it first moved. */
  longestStallMs: number;
  /** Each time it stood still over 200 ms: when it moved again (ms since epoch), for how long. */
  stalls: { atMs: number; ms: number; currentTimeS: number }[];
  samples: PlayerSample[];
  playing: boolean;
  /** What dash.js and the video element said besides playing (ended, pause, period switches…). */
  events: { atMs: number; type: string; detail?: string }[];
}

/** Starts dash.js on `mpdUrl` in the page; the page keeps its findings in window.dashReport. */
export async function startDashJs(page: Page, mpdUrl: string): Promise<void> {
  await page.waitForFunction(() => 'dashjs' in window);
  await page.evaluate((url) => {
    const w = window as unknown as {
      dashjs: {
        MediaPlayer: () => { create: () => DashPlayer };
        Debug: { LOG_LEVEL_WARNING: number };
      };
      dashReport: PlayerReport;
      dashPlayer: DashPlayer;
    };
    interface DashPlayer {
      on: (event: string, listener: (e: { error?: { code?: number; message?: string } }) => void) => void;
      initialize: (video: HTMLVideoElement, url: string, autoPlay: boolean) => void;
      updateSettings: (settings: object) => void;
      getCurrentLiveLatency: () => number;
    }
    const report: PlayerReport = {
      errors: [],
      longestStallMs: 0,
      stalls: [],
      samples: [],
      playing: false,
      events: [],
    };
    w.dashReport = report;
    const video = document.getElementById('v') as HTMLVideoElement;
    const buffers: { mime: string; buffer: SourceBuffer }[] = [];
    const add = MediaSource.prototype.addSourceBuffer;
    MediaSource.prototype.addSourceBuffer = function (this: MediaSource, mime: string) {
      const buffer = add.call(this, mime);
      buffers.push({ mime, buffer });
      return buffer;
    };
    const player = w.dashjs.MediaPlayer().create();
    w.dashPlayer = player;
    player.updateSettings({ debug: { logLevel: w.dashjs.Debug.LOG_LEVEL_WARNING } });
    player.on('error', (e) => report.errors.push(`dash.js error ${e.error?.code}: ${e.error?.message}`));
    player.on('playbackError', (e) => report.errors.push(`playback error ${JSON.stringify(e)}`));
    for (const type of ['playbackEnded', 'playbackPaused', 'periodSwitchStarted', 'bufferStalled']) {
      player.on(type, (e) => {
        const detail = JSON.stringify(e, (key, value: unknown) =>
          key === 'type' || typeof value === 'object' ? (key === '' ? value : undefined) : value,
        );
        report.events.push({ atMs: Date.now(), type, detail });
      });
    }
    // Where it stands and what it holds at each stop and start: what a stall waits for.
    const where = () => {
      const ranges: string[] = [];
      for (let i = 0; i < video.buffered.length; i++)
        ranges.push(`${video.buffered.start(i).toFixed(2)}-${video.buffered.end(i).toFixed(2)}`);
      const tracks = buffers.map(({ mime, buffer }) => {
        const parts: string[] = [];
        for (let i = 0; i < buffer.buffered.length; i++)
          parts.push(`${buffer.buffered.start(i).toFixed(3)}-${buffer.buffered.end(i).toFixed(3)}`);
        return `${mime.slice(0, 5)} win ${buffer.appendWindowStart.toFixed(3)} off ${buffer.timestampOffset.toFixed(3)} ${parts.slice(-3).join(' ')}`;
      });
      return `at ${video.currentTime.toFixed(2)} buffered ${ranges.slice(-3).join(' ')} | ${tracks.join(' | ')}`;
    };
    for (const type of ['ended', 'pause', 'waiting', 'playing'])
      video.addEventListener(type, () =>
        report.events.push({ atMs: Date.now(), type: `video ${type}`, detail: where() }),
      );
    player.initialize(video, url, true);
    let lastTime = -1;
    let stillSince = 0;
    setInterval(() => {
      const now = Date.now();
      // Before it first plays, a paused video is waiting for autoplay; after, paused or ended is a stop.
      if (video.currentTime !== lastTime || (video.paused && !report.playing)) {
        if (report.playing && now - stillSince > 250)
          report.stalls.push({ atMs: now, ms: now - stillSince, currentTimeS: video.currentTime });
        if (video.currentTime > 0 && lastTime >= 0) report.playing = true;
        lastTime = video.currentTime;
        stillSince = now;
      } else if (report.playing) {
        report.longestStallMs = Math.max(report.longestStallMs, now - stillSince);
      }
    }, 50);
    setInterval(() => {
      if (!report.playing) return;
      report.samples.push({
        nowMs: Date.now(),
        currentTimeS: video.currentTime,
        reportedLatencyS: player.getCurrentLiveLatency(),
      });
    }, 1000);
  }, mpdUrl);
}

export const playerReport = (page: Page): Promise<PlayerReport> =>
  page.evaluate(() => (window as unknown as { dashReport: PlayerReport }).dashReport);
