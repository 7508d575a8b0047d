import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { chromium } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientSession } from '@sluice/api';
import { playerReport, startDashJs } from './dash-player-page.js';
import { EventsClient } from './events-client.js';
import { basicAuth, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getText, modifyConfig } from './media-helpers.js';

const PLAY_MS = 12_000;

/** A page on another origin with dash.js and its Smooth Streaming module (dist/dash.mss.min.js). */
async function serveMssPage(): Promise<{ url: string; close: () => Promise<void> }> {
  const resolve = createRequire(import.meta.url).resolve;
  const scripts: Record<string, Buffer> = {
    '/dash.js': readFileSync(resolve('dashjs/dist/dash.all.min.js')),
    '/dash.mss.js': readFileSync(resolve('dashjs/dist/dash.mss.min.js')),
  };
  const server: Server = createServer((req, res) => {
    const script = scripts[req.url ?? ''];
    res.writeHead(200, { 'content-type': script ? 'text/javascript' : 'text/html' });
    res.end(
      script ??
        '<!doctype html><video id="v" muted playsinline></video><script src="/dash.js"></script><script src="/dash.mss.js"></script>',
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/**
 * Smooth Streaming (issue 18) in a player nobody here wrote: dash.js 4.7.4 with its MSS module, in
 * Chromium, on a live test:// stream (H.264 + AAC, 2 s segments), cross-origin.
 */
describe('Smooth Streaming in dash.js', () => {
  let server: RunningServer;
  let page: Awaited<ReturnType<typeof serveMssPage>>;
  const manifestUrl = () => `${server.url}/mss/demo.isml/manifest`;

  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream mss/demo {\n  url test://?size=320x180&bitrate=300;\n  static true;\n  segment_duration 2000;\n}\n`,
    });
    page = await serveMssPage();
    await waitFor(async () => (await getText(manifestUrl())).status === 200, 30_000);
  });
  afterAll(async () => {
    await page?.close();
    await server?.cleanup();
  });

  it('plays live: the picture advances for several seconds with no error', async () => {
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
    try {
      const tab = await browser.newPage();
      const consoleErrors: string[] = [];
      const requests: string[] = [];
      tab.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
      tab.on('response', (r) => requests.push(`${r.status()} ${r.url().replace(/^.*isml\//, '')}`));
      await tab.goto(page.url);
      // The manifest as the browser's strict XML parser reads it: well-formed, the live fields dash.js needs.
      const manifest = await tab.evaluate(async (url) => {
        const text = await (await fetch(url)).text();
        const doc = new DOMParser().parseFromString(text, 'application/xml');
        const root = doc.documentElement;
        const levels = [...doc.getElementsByTagName('QualityLevel')];
        return {
          error: doc.getElementsByTagName('parsererror')[0]?.textContent ?? null,
          root: root.nodeName,
          attrs: Object.fromEntries([...root.attributes].map((a) => [a.name, a.value])),
          streams: [...doc.getElementsByTagName('StreamIndex')].map((s) => s.getAttribute('Type')),
          fourCc: levels.map((l) => l.getAttribute('FourCC')),
          privateData: levels.map((l) => l.getAttribute('CodecPrivateData')),
          chunks: doc.getElementsByTagName('c').length,
        };
      }, manifestUrl());
      expect(manifest.error).toBeNull();
      expect(manifest.root).toBe('SmoothStreamingMedia');
      expect(manifest.attrs).toMatchObject({ TimeScale: '10000000', IsLive: 'TRUE', Duration: '0' });
      expect(Number(manifest.attrs.DVRWindowLength)).toBeGreaterThan(0);
      expect(Number(manifest.attrs.LookAheadFragmentCount)).toBeGreaterThan(0);
      expect(manifest.streams).toEqual(['video', 'audio']);
      expect(manifest.fourCc).toEqual(['AVC1', 'AACL']);
      // AVC1: start code, SPS (type 7), start code, PPS (type 8); AACL: AudioSpecificConfig of AAC-LC.
      expect(manifest.privateData[0]).toMatch(/^00000001[0-9A-F]7[0-9A-F]+00000001[0-9A-F]8[0-9A-F]+$/);
      expect(manifest.privateData[1]).toMatch(/^1[0-9A-F]{3}$/);
      expect(manifest.chunks).toBeGreaterThanOrEqual(2);

      await startDashJs(tab, manifestUrl());
      await tab.waitForFunction(
        () => (window as unknown as { dashReport: { playing: boolean } }).dashReport.playing,
        null,
        {
          timeout: 30_000,
        },
      );
      const startS = await tab.evaluate(() => (document.getElementById('v') as HTMLVideoElement).currentTime);
      // Wait until it has played PLAY_MS more of media, however long that takes on a busy machine.
      await tab
        .waitForFunction(
          ([from, ms]) =>
            (document.getElementById('v') as HTMLVideoElement).currentTime >= from! + ms! / 1000,
          [startS, PLAY_MS],
          { timeout: PLAY_MS * 4 },
        )
        .catch(async (e: Error) => {
          const r = await playerReport(tab);
          const t = await tab.evaluate(() => (document.getElementById('v') as HTMLVideoElement).currentTime);
          throw new Error(
            `${e.message}\nat ${t} s: ${JSON.stringify(r.events)} ${r.errors.join('; ')} ${consoleErrors.join('; ')}\n${requests.slice(0, 60).join('\n')}`,
          );
        });
      const report = await playerReport(tab);
      const frames = await tab.evaluate(
        () => (document.getElementById('v') as HTMLVideoElement).getVideoPlaybackQuality().totalVideoFrames,
      );
      console.log(
        `mss in dash.js: ${frames} frames, longest stall ${report.longestStallMs} ms, events ${report.events.map((e) => e.type).join(', ') || 'none'}`,
      );
      // Smooth Streaming has no UTCTiming: dash.js first asks its default time source
      // (time.akamai.com, not resolvable on this closed network), then takes the manifest's Date
      // header; without that header readable cross-origin it would report error 16.
      const unresolved = (e: string) => e === 'Failed to load resource: net::ERR_NAME_NOT_RESOLVED';
      expect([...report.errors, ...consoleErrors.filter((e) => !unresolved(e))]).toEqual([]);
      expect(report.longestStallMs).toBeLessThan(1_000);
      // test:// is 25 fps: PLAY_MS of media is ~300 frames decoded.
      expect(frames).toBeGreaterThan((PLAY_MS / 1000) * 20);
      // The player is one client session of type mss (beside the test's own), with the bytes it was sent.
      const events = await EventsClient.open(`${server.url}/flussonic/api/events`, {
        authorization: basicAuth(),
      });
      try {
        const { sessions } = (await events.request('sessions?name=mss/demo', 'sessions')) as unknown as {
          sessions: ClientSession[];
        };
        const player = sessions.filter((s) => s.type === 'mss' && /Chrome/.test(String(s.user_agent)));
        expect(player).toHaveLength(1);
        expect(player[0]!.bytes_sent).toBeGreaterThan(100_000);
      } finally {
        events.close();
      }
    } finally {
      await browser.close();
    }
  });

  it('answers malformed fragment URLs with 400 or 404 saying why, and the mss switch off with 403', async () => {
    const base = `${server.url}/mss/demo.isml`;
    const manifest = (await getText(manifestUrl())).text;
    const videoRate = /Bitrate="(\d+)" FourCC="AVC1"/.exec(manifest)![1]!;
    const firstT = Number(/<c t="(\d+)"/.exec(manifest)![1]);
    const answers = await Promise.all(
      [
        `QualityLevels(abc)/Fragments(video=${firstT})`,
        `QualityLevels(${videoRate})/Fragments(video=1e9)`,
        `QualityLevels(${videoRate})/Fragments(subtitles=${firstT})`,
        `QualityLevels(12345)/Fragments(video=${firstT})`,
        `QualityLevels(${videoRate})/Fragments(video=1)`,
        `QualityLevels(${videoRate})/Fragments(video=${firstT + 1})`,
      ].map(async (path) => {
        const answer = await fetch(`${base}/${path}`);
        return `${answer.status} ${(await answer.text()).trim()}`;
      }),
    );
    expect(answers).toEqual([
      '400 bad bitrate "abc": a positive integer is expected',
      '400 bad fragment time "1e9": an integer of 100 ns units is expected',
      '400 bad fragment "subtitles=' + firstT + '": video={time} or audio={time} is expected',
      `404 no quality level 12345 in the video of stream mss/demo (it has ${videoRate})`,
      '404 no video fragment starts at 1 (no longer in the window)',
      `404 no video fragment starts at ${firstT + 1} (not in the window)`,
    ]);
    // A listed fragment is served, moof first.
    const fragment = Buffer.from(
      await (await fetch(`${base}/QualityLevels(${videoRate})/Fragments(video=${firstT})`)).arrayBuffer(),
    );
    expect(fragment.toString('latin1', 4, 8)).toBe('moof');
    await modifyConfig(server, { streams: { 'mss/demo': { protocols: { mss: false } } } });
    await waitFor(async () => (await getText(manifestUrl())).status === 403, 15_000);
    expect((await getText(manifestUrl())).text).toBe('mss is switched off for stream mss/demo\n');
    // The other outputs go on.
    expect((await getText(`${server.url}/mss/demo/index.m3u8`)).status).toBe(200);
  });
});
