import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTimelines } from '../src/delivery/dash-mpd.js';
import { fetchMpd, videoTimeline } from './dash-helpers.js';
import { type PlayerReport, playerReport, servePlayerPage, startDashJs } from './dash-player-page.js';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { streamStats } from './media-helpers.js';
import { FEED_GOP_MS, spliceFeed, udpRelay } from './media-splice-helpers.js';

/**
 * The DASH twin of media-splice-hlsjs: ten failovers and switch-backs under dash.js 4.7.4 in
 * Chromium, cross-origin. Two UDP feeds of one stream, source timeout 1 s, a keyframe every
 * 0.48 s; the backup's timestamps run 30 s ahead of the main's (as two headends do). The main feed
 * goes silent until the backup plays, then comes back until the stream is on it again.
 */
describe('failover splices played by dash.js', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Awaited<ReturnType<typeof servePlayerPage>>;
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
    const encoders = [spliceFeed(mainIn, 440), spliceFeed(backupIn, 880, ['-output_ts_offset', '30'])];
    stops.push(main.stop, backup.stop, ...encoders.map((e) => e.stop));
    server = await startServer({
      config: `${minimalConfig}stream tv {\n  url ${mainUrl};\n  url ${backupUrl};\n  source_timeout 1;\n  static true;\n}\n`,
    });
    page = await servePlayerPage();
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  });
  afterAll(async () => {
    await browser?.close();
    await page?.close();
    await Promise.all(stops.map((stop) => stop()));
    await server?.cleanup();
  });

  const activeUrl = async () => {
    const stats = await streamStats(server, 'tv');
    return stats.alive ? stats.url : undefined;
  };

  it('plays through ten failovers and switch-backs without an error or a stall longer than the outage', async () => {
    expect(await waitFor(activeUrl, 15_000)).toBe(mainUrl);
    const mpdUrl = `${server.url}/tv/index.mpd`;
    // A viewer joins a stream whose DASH output has been running: a full window of segments.
    await waitFor(async () => {
      const mpd = await fetchMpd(mpdUrl);
      return mpd && (videoTimeline(mpd)?.segments.length ?? 0) >= 5;
    }, 30_000);
    const edges = new EdgeWatch(mpdUrl);
    const tab = await browser.newPage();
    const consoleErrors: string[] = [];
    const warnings: string[] = [];
    tab.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
      // dash.js's GapController says where it jumped, at its default (warning) level.
      if (m.type() === 'warning') warnings.push(`${Date.now()} ${m.text()}`);
    });
    await tab.goto(page.url);
    await startDashJs(tab, mpdUrl);
    await tab.waitForFunction(() => (window as unknown as { dashReport: PlayerReport }).dashReport.playing);

    /** When the main feed went silent, each cycle (ms since epoch). */
    const silences: number[] = [];
    /** As media-splice-hlsjs counts it: from the silence to the switch and the backup's next keyframe. */
    let longestOutageMs = 0;
    for (let cycle = 0; cycle < 10; cycle++) {
      main.forwarding = false;
      silences.push(Date.now());
      await waitFor(async () => (await activeUrl()) === backupUrl, 20_000, 100);
      longestOutageMs = Math.max(longestOutageMs, Date.now() - silences.at(-1)! + FEED_GOP_MS);
      main.forwarding = true;
      await waitFor(async () => (await activeUrl()) === mainUrl, 20_000, 100);
      // The main feed stays a segment before it goes again, as a feed that comes back does.
      const seen = edges.segmentsSeen;
      await waitFor(() => edges.segmentsSeen >= seen + 1, 15_000, 100);
    }
    // The last switch-back reaches the player.
    const seen = edges.segmentsSeen;
    await waitFor(() => edges.segmentsSeen >= seen + 2, 15_000, 100);
    const report = await playerReport(tab);
    await edges.stop();

    // Each outage: from the main feed's silence to the backup's first keyframe at the server, which
    // is where the Period that follows starts (its @start is that keyframe's ingest wall clock).
    const starts = [...edges.periodStartsMs.values()].sort((a, b) => a - b);
    const outagesMs = silences.map((at) => (starts.find((s) => s > at) ?? Number.NaN) - at);
    const firstMs = report.samples[0]?.nowMs ?? 0;
    const stalls = report.stalls.map((s) => `${s.ms} ms at ${((s.atMs - firstMs) / 1000).toFixed(1)} s`);
    const latencies = report.samples.map((s) => s.reportedLatencyS);
    // Each with where the player stood and each SourceBuffer's ranges, append window and offset.
    const events = report.events.map(
      (e) => `${e.type} at ${((e.atMs - firstMs) / 1000).toFixed(2)} s ${e.detail ?? ''}`,
    );
    console.log(
      `dash.js over 10 failovers: outages ${outagesMs.map((ms) => Math.round(ms)).join(', ')} ms ` +
        `(to the switch and a GOP: up to ${longestOutageMs} ms); ` +
        `stalls over 250 ms: ${stalls.join(', ') || 'none'}; reported latency ` +
        `${Math.min(...latencies).toFixed(2)}–${Math.max(...latencies).toFixed(2)} s; ` +
        `newest segment end against the wall clock ${edges.range()}; where it stood still: ` +
        events
          .filter((e) => e.startsWith('video waiting'))
          .map((e) => e.split(' | ')[0])
          .join(', '),
    );
    // What the player read, kept for a failure: the MPD versions in order, with when they came.
    const creptS = Math.min(...latencies.slice(-10)) - Math.min(...latencies.slice(0, 10));
    if (creptS >= 4 || report.longestStallMs >= Math.max(...outagesMs) + STALL_EDGES_MS) {
      const dump = join(tmpdir(), `splice-dashjs-${Date.now()}.txt`);
      const mpds = edges.history.map((h) => `=== ${h.atMs - firstMs} ms\n${h.text}`);
      writeFileSync(
        dump,
        [...mpds, '=== player events', ...events, '=== dash.js warnings', ...warnings].join('\n'),
      );
      console.log(`MPD versions written to ${dump}; samples: ${JSON.stringify(report.samples)}`);
    }
    // Every MPD version places its newest segment where the wall clock is (before: 28 s behind).
    expect(edges.violations).toEqual([]);
    expect([...report.errors, ...consoleErrors]).toEqual([]);
    expect(outagesMs.every((ms) => ms > 0)).toBe(true);
    // The picture stands still for the outage, for how early the server dated the old source's
    // last frames (each period's clock is its least delayed packet; the frames before the silence
    // came 0.1–0.45 s later than that under load) and, now and then, for the new period's first
    // video segment still on its way (a new ffmpeg per period, a 2 s MPD refresh): excess up to
    // 1.25 s in 6 runs at load 10–20, so this bound is not the outage. Before: the new period's first
    // GOP was dropped too (Chromium, see dash-periods.ts FIRST_FRAME_LEAD_S), outage + 0.7–1.9 s.
    expect(report.longestStallMs, stalls.join(', ')).toBeLessThan(Math.max(...outagesMs) + STALL_EDGES_MS);
    // The latency does not creep up by each outage (before: 3.8 s → 32.7 s). dash.js waits out each
    // gap a little longer than it is: some 0.2 s per splice stays.
    expect(Math.min(...latencies.slice(-10)) - Math.min(...latencies.slice(0, 10))).toBeLessThan(4);
  }, 200_000);
});

/** What a stall may take beyond the outage: see the test. */
const STALL_EDGES_MS = 2000;

/**
 * Polls the MPD and checks, for each version, where its newest video segment ends on the wall
 * clock (availabilityStartTime + Period@start + segment end − presentationTimeOffset) against
 * when the MPD arrived: at most 0.5 s ahead (announced before it exists) and at most 10 s behind
 * (during an outage nothing new comes: the outage, a segment, a refresh; before: 28 s).
 */
class EdgeWatch {
  readonly violations: string[] = [];
  /** How many times a new newest segment was listed. */
  segmentsSeen = 0;
  /** Wall time (ms since epoch) each Period starts at, by id. */
  readonly periodStartsMs = new Map<number, number>();
  /** Each MPD version that differed from the one before, and when it came (ms since epoch). */
  readonly history: { atMs: number; text: string }[] = [];
  private newest = '';
  private readonly gapsMs: number[] = [];
  private running = true;
  private readonly loop: Promise<void>;

  constructor(private readonly url: string) {
    this.loop = this.poll();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  range(): string {
    return `${Math.min(...this.gapsMs)}…${Math.max(...this.gapsMs)} ms`;
  }

  private async poll(): Promise<void> {
    while (this.running) {
      const mpd = await fetchMpd(this.url).catch(() => undefined);
      const last = mpd?.text.split('<Period').at(-1);
      const video = mpd && last && videoTimeline({ ...mpd, timelines: parseTimelines(last) });
      const newest = video?.segments.at(-1);
      if (mpd) {
        const text = mpd.text.replace(/publishTime="[^"]*"|<UTCTiming[^>]*>/g, '');
        if (this.history.at(-1)?.text !== text) this.history.push({ atMs: mpd.atMs, text });
      }
      for (const [, id, startS] of mpd?.text.matchAll(/<Period id="(\d+)" start="PT([\d.]+)S"/g) ?? [])
        this.periodStartsMs.set(Number(id), mpd!.availabilityStartMs + Number(startS) * 1000);
      if (mpd && last && video && newest) {
        const pto = Number(/presentationTimeOffset="(\d+)"/.exec(last)?.[1] ?? 0);
        const endS = periodStartS(last) + (newest.t + newest.d - pto) / video.timescale;
        const aheadMs = Math.round(mpd.availabilityStartMs + endS * 1000 - mpd.atMs);
        this.gapsMs.push(aheadMs);
        if (aheadMs > 500 || aheadMs < -10_000)
          this.violations.push(`newest segment ends ${aheadMs} ms from now`);
        const key = `${/id="(\d+)"/.exec(last)?.[1]}/${newest.number}`;
        if (key !== this.newest) this.segmentsSeen++;
        this.newest = key;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** Period@start as seconds (xs:duration PTnHnMn.nS), 0 when absent. */
function periodStartS(period: string): number {
  const start = /^[^>]*\bstart="PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?"/.exec(period);
  if (!start) return 0;
  return Number(start[1] ?? 0) * 3600 + Number(start[2] ?? 0) * 60 + Number(start[3] ?? 0);
}
