import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bframePublisher, fetchMpd, measureMediaClock, videoTimeline } from './dash-helpers.js';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getBytes, getText, streamStats } from './media-helpers.js';

const FPS = 30;
const FRAME_S = 1 / FPS;
const TARGET_S = 2;

/** DASH of RTMP publishes with B-frames: segments cut where the MPD says, on a clock players can trust. */
describe('DASH of an RTMP publish with B-frames', () => {
  let server: RunningServer;
  let rtmp: string;
  const publishers: { stop: () => Promise<void> }[] = [];

  beforeAll(async () => {
    const port = await freePort();
    rtmp = `rtmp://127.0.0.1:${port}`;
    server = await startServer({
      config: `${minimalConfig}rtmp ${port};\nlive live {\n  source_timeout 4;\n}\n`,
    });
  });
  afterAll(async () => {
    await Promise.all(publishers.map((p) => p.stop()));
    await server?.cleanup();
  });

  const publish = async (name: string) => {
    publishers.push(bframePublisher(`${rtmp}/live/${name}`, FPS));
    // The stream has a whole segment: what a player finds when it comes a little after the start.
    await waitFor(
      async () => (await getText(`${server.url}/live/${name}/video.m3u8`)).status === 200,
      30_000,
    );
  };

  it('answers the first MPD fast, with a UTCTiming and the Date header exposed to other origins', async () => {
    await publish('first');
    const startedMs = Date.now();
    // Two players at once: one packager, one timeline, one clock.
    const [mpd, other] = await Promise.all([
      fetchMpd(`${server.url}/live/first/index.mpd`),
      fetchMpd(`${server.url}/live/first/index.mpd`),
    ]);
    const tookMs = Date.now() - startedMs;
    expect(other?.availabilityStartMs).toBe(mpd?.availabilityStartMs);
    const packagers = spawnSync('pgrep', ['-P', String(server.process.pid), '-f', 'dash -seg_duration'], {
      encoding: 'utf8',
    });
    expect(packagers.stdout.trim().split('\n').filter(Boolean)).toHaveLength(1);
    console.log(`first MPD answered in ${tookMs} ms`);
    expect(mpd).toBeDefined();
    expect(tookMs).toBeLessThan(1500);
    expect(mpd!.text).toMatch(/<UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="[^"]+Z"\/>/);
    expect(mpd!.headers.get('access-control-expose-headers')).toMatch(/\bDate\b/i);
    // A segment is announced once it can be fetched, and every one listed can be.
    const video = videoTimeline(mpd!)!;
    const newest = video.segments.at(-1)!;
    const newestAvailableMs = mpd!.availabilityStartMs + ((newest.t + newest.d) / video.timescale) * 1000;
    expect(newestAvailableMs).toBeLessThanOrEqual(mpd!.atMs + 250);
    const segment = await fetch(
      `${server.url}/live/first/chunk-stream0-${String(newest.number).padStart(5, '0')}.m4s`,
    );
    expect(segment.status).toBe(200);
  });

  it('puts availabilityStartTime where the media really becomes available, within 0.5 s', async () => {
    const url = `${server.url}/live/first/index.mpd`;
    const measuredMs = await measureMediaClock(url, 9_000);
    const mpd = (await fetchMpd(url))!;
    console.log(
      `availabilityStartTime minus the measured media clock: ${mpd.availabilityStartMs - measuredMs} ms`,
    );
    expect(Math.abs(mpd.availabilityStartMs - measuredMs)).toBeLessThan(500);
    // And it stays put: dash.js reads it on every refresh.
    expect((await fetchMpd(url))!.availabilityStartMs).toBe(mpd.availabilityStartMs);
  });

  it('cuts 2 s video segments on the keyframes, and maxSegmentDuration bounds them', async () => {
    await publish('cuts');
    const url = `${server.url}/live/cuts/index.mpd`;
    const mpd = await waitFor(async () => {
      const answer = await fetchMpd(url);
      return answer && videoTimeline(answer)!.segments.length >= 4 ? answer : undefined;
    }, 40_000);
    const video = videoTimeline(mpd)!;
    const durations = video.segments.map((s) => s.d / video.timescale);
    for (const d of durations) expect(Math.abs(d - TARGET_S)).toBeLessThanOrEqual(FRAME_S);
    expect(mpd.maxSegmentS).toBeGreaterThanOrEqual(Math.max(...durations));
    expect(mpd.maxSegmentS).toBeLessThanOrEqual(TARGET_S + FRAME_S);
    // What is served is what the timeline says: a segment holds 2 s of frames.
    const newest = video.segments.at(-1)!;
    const init = await getBytes(`${server.url}/live/cuts/init-stream0.m4s`);
    const chunk = await getBytes(
      `${server.url}/live/cuts/chunk-stream0-${String(newest.number).padStart(5, '0')}.m4s`,
    );
    const probe = spawnSync(
      'ffprobe',
      [
        '-v',
        'error',
        '-select_streams',
        'v',
        '-count_packets',
        '-show_entries',
        'stream=nb_read_packets',
        'pipe:0',
      ],
      { input: Buffer.concat([init, chunk]), encoding: 'utf8' },
    );
    expect(Number(/nb_read_packets=(\d+)/.exec(probe.stdout)?.[1])).toBe(TARGET_S * FPS);
    expect((await streamStats(server, 'live/cuts', 'live')).alive).toBe(true);
  });
});
