// DASH played by dash.js in Chromium for a long run: an RTMP publish with B-frames (30 fps, a
// keyframe every 2 s, the millisecond-timestamp case), the player page on another origin.
// Prints dash.js errors, stalls, its reported latency against the measured one, and the segment
// durations the MPD listed. Usage: npm run bench -- dash-play [MINUTES=10]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { chromium } from '@playwright/test';
import { parseTimelines } from '../packages/server/dist/delivery/dash-mpd.js';
import { freePort, sleep, startSluice, stop } from './lib/media.mjs';

const MINUTES = Number(process.argv[2] ?? 10);
const rtmpPort = await freePort();
const sluice = await startSluice(
  `http {http};\nedit_auth admin bench-pw;\nrtmp ${rtmpPort};\nlive live {\n  source_timeout 4;\n}\n`,
);
const publisher = spawn(
  'ffmpeg',
  [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
    ...['-re', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30'],
    ...['-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p'],
    ...['-bf', '2', '-g', '60', '-keyint_min', '60', '-sc_threshold', '0', '-c:a', 'aac'],
    ...['-f', 'flv', `rtmp://127.0.0.1:${rtmpPort}/live/bench`],
  ],
  { stdio: 'ignore' },
);
const mpdUrl = `${sluice.base}/live/bench/index.mpd`;
for (let i = 0; i < 300; i++) {
  if ((await fetch(`${sluice.base}/live/bench/video.m3u8`)).ok) break;
  await sleep(100);
}

// The player page, on an origin of its own.
const dashJs = readFileSync(createRequire(import.meta.url).resolve('dashjs/dist/dash.all.min.js'));
const pageServer = createServer((req, res) =>
  req.url === '/dash.js'
    ? res.end(dashJs)
    : res.end('<!doctype html><video id="v" muted playsinline></video><script src="/dash.js"></script>'),
);
await new Promise((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const page = await browser.newPage();
const consoleErrors = [];
page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
await page.goto(`http://127.0.0.1:${pageServer.address().port}/`);
// Runs in the page: `globalThis` is the window there.
await page.waitForFunction(() => 'dashjs' in globalThis);
await page.evaluate((url) => {
  const report = { errors: [], stalls: [], samples: [], playing: false };
  globalThis.dashReport = report;
  const video = globalThis.document.getElementById('v');
  const player = globalThis.dashjs.MediaPlayer().create();
  player.on('error', (e) => report.errors.push(`dash.js error ${e.error?.code}: ${e.error?.message}`));
  player.initialize(video, url, true);
  let last = -1;
  let stillSince = Date.now();
  setInterval(() => {
    const now = Date.now();
    if (video.currentTime !== last || video.paused) {
      if (report.playing && now - stillSince > 250) report.stalls.push(now - stillSince);
      if (video.currentTime > 0 && last >= 0) report.playing = true;
      last = video.currentTime;
      stillSince = now;
    }
  }, 50);
  setInterval(() => {
    if (report.playing) report.samples.push([Date.now(), video.currentTime, player.getCurrentLiveLatency()]);
  }, 1000);
}, mpdUrl);

// Meanwhile: the media clock as the server makes media available (a segment's end against when
// it first shows in the MPD), and every segment duration listed.
const seen = new Set();
const durations = [];
let mediaClockMs = Infinity;
let first = true;
const until = Date.now() + MINUTES * 60_000;
while (Date.now() < until) {
  const response = await fetch(mpdUrl);
  const atMs = Date.now();
  const video = response.ok
    ? parseTimelines(await response.text()).find((t) => t.contentType === 'video')
    : undefined;
  for (const s of video?.segments ?? []) {
    if (seen.has(s.number)) continue;
    seen.add(s.number);
    durations.push(s.d / video.timescale);
    if (!first) mediaClockMs = Math.min(mediaClockMs, atMs - ((s.t + s.d) / video.timescale) * 1000);
  }
  if (video) first = false;
  await sleep(100);
}

const report = await page.evaluate(() => globalThis.dashReport);
await browser.close();
pageServer.close();
await stop(publisher);
await sluice.stop();

const settled = report.samples.filter(([nowMs]) => nowMs > report.samples[0][0] + 10_000);
const gaps = settled.map(
  ([nowMs, currentS, reportedS]) => reportedS - ((nowMs - mediaClockMs) / 1000 - currentS),
);
const sorted = (values) => [...values].sort((a, b) => a - b);
const at = (values, q) => sorted(values)[Math.floor(q * (values.length - 1))] ?? NaN;
const latest = settled.at(-1) ?? [0, 0, NaN];
console.log(`dash.js over ${MINUTES} min of an RTMP publish with B-frames (30 fps, 2 s GOP), cross-origin`);
console.log(`  errors: ${report.errors.length + consoleErrors.length}`);
for (const e of [...report.errors, ...consoleErrors].slice(0, 10)) console.log(`    ${e}`);
console.log(
  `  stalls over 250 ms: ${report.stalls.length}, longest ${Math.max(0, ...report.stalls)} ms, ` +
    `total ${report.stalls.reduce((a, b) => a + b, 0)} ms`,
);
console.log(
  `  latency: reported ${latest[2].toFixed(2)} s, measured ${((latest[0] - mediaClockMs) / 1000 - latest[1]).toFixed(2)} s; ` +
    `reported minus measured: median ${at(gaps, 0.5).toFixed(3)} s, min ${at(gaps, 0).toFixed(3)} s, max ${at(gaps, 1).toFixed(3)} s`,
);
console.log(
  `  video segments: ${durations.length}, duration min ${at(durations, 0).toFixed(4)} s, ` +
    `max ${at(durations, 1).toFixed(4)} s (target 2 s, a frame 0.0333 s)`,
);
