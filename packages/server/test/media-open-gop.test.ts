import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getBytes, getText, segmentUris, stopChild } from './media-helpers.js';

/**
 * Open-GOP encoders start a GOP with an I-frame that is no IDR (H.264: a recovery point SEI; HEVC: a
 * CRA picture), and only the stream's first picture is an IDR. Those I-frames are the only cut points
 * such a stream has: each HLS segment must start on one and decode alone.
 */

/** A keyframe every 2 s (50 frames at 25 fps), B-frames so that the GOPs are really open. */
const X264_OPEN_GOP = ['-bf', '2', '-x264-params', 'open_gop=1:keyint=50:min-keyint=50:scenecut=0'];
const X265_OPEN_GOP = ['-x265-params', 'open-gop=1:keyint=50:min-keyint=50:scenecut=0:log-level=none'];

function encoderArgs(codec: string[]): string[] {
  return [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
    ...['-re', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25'],
    ...['-re', '-f', 'lavfi', '-i', 'sine=frequency=440'],
    ...['-c:v', ...codec, '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
  ];
}

/** Sends MPEG-TS over UDP; the encoder repeats its parameter sets before every keyframe. */
function udpEncoder(port: number, codec: string[]): ChildProcess {
  const target = `udp://127.0.0.1:${port}?pkt_size=1316`;
  return spawn('ffmpeg', [...encoderArgs(codec), '-f', 'mpegts', target], { stdio: 'ignore' });
}

/**
 * Serves MPEG-TS over HTTP from a fresh encoder per request, with +global_header: x264 then writes
 * SPS/PPS once, and ffmpeg's TS muxer sends them only with the first IDR (as encoders with header
 * repetition off do). Later segments must get them from the server.
 */
function headersOnceServer(): { server: Server; children: Set<ChildProcess> } {
  const children = new Set<ChildProcess>();
  const server = createServer((request, response) => {
    const args = [...encoderArgs(['libx264', '-preset', 'ultrafast', ...X264_OPEN_GOP])];
    const child = spawn('ffmpeg', [...args, '-flags', '+global_header', '-f', 'mpegts', 'pipe:1'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    children.add(child);
    child.once('exit', () => children.delete(child));
    response.writeHead(200, { 'content-type': 'video/mp2t' });
    child.stdout.pipe(response);
    request.once('close', () => void stopChild(child));
  });
  return { server, children };
}

/**
 * ffmpeg's complaints decoding one segment alone ("non-existing PPS 0 referenced"…); empty when clean.
 * The B-frames after an open-GOP I-frame reference the GOP before it: a decoder starting at the
 * I-frame skips them, and with x264's b-pyramid ffmpeg says so ("mmco: unref short failure"). That
 * comes with open GOPs wherever they are cut, and is left out; anything else is a bad cut.
 */
function decodeErrors(segment: Buffer): string {
  const result = spawnSync('ffmpeg', ['-v', 'error', '-i', 'pipe:0', '-f', 'null', '-'], {
    input: segment,
    timeout: 20_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const lines = (result.stderr?.toString() ?? '')
    .split('\n')
    .filter((line) => line && !/mmco: unref short failure|Last message repeated/.test(line));
  if (result.status !== 0) lines.push(`exit ${result.status}`);
  return lines.join('\n');
}

/** Picture types ffprobe decodes from a segment, in order, e.g. "IBBPBBP…". */
function pictureTypes(segment: Buffer): string {
  const result = spawnSync(
    'ffprobe',
    [
      ...['-v', 'error', '-select_streams', 'v', '-show_entries', 'frame=pict_type'],
      ...['-of', 'csv=p=0', '-i', 'pipe:0'],
    ],
    { input: segment, timeout: 20_000, maxBuffer: 16 * 1024 * 1024 },
  );
  return result.stdout.toString().replace(/\s/g, '');
}

const targetDuration = (playlist: string): number =>
  Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(playlist)?.[1]);
const durations = (playlist: string): number[] =>
  [...playlist.matchAll(/#EXTINF:([\d.]+),/g)].map((m) => Number(m[1]));

describe('open-GOP sources are cut at their recovery points', () => {
  let server: RunningServer;
  const encoders: ChildProcess[] = [];
  let http: { server: Server; children: Set<ChildProcess> };

  beforeAll(async () => {
    const [h264Port, hevcPort] = [await freePort(), await freePort()];
    http = headersOnceServer();
    await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', resolve));
    const httpPort = (http.server.address() as AddressInfo).port;
    const stream = (name: string, url: string) =>
      `stream ${name} {\n  url ${url};\n  static true;\n  segment_duration 2000;\n  segment_count 3;\n}\n`;
    server = await startServer({
      config:
        minimalConfig +
        stream('h264', `udp://127.0.0.1:${h264Port}`) +
        stream('hevc', `udp://127.0.0.1:${hevcPort}`) +
        stream('once', `tshttp://127.0.0.1:${httpPort}/live.ts`),
    });
    encoders.push(udpEncoder(h264Port, ['libx264', '-preset', 'ultrafast', ...X264_OPEN_GOP]));
    encoders.push(udpEncoder(hevcPort, ['libx265', '-preset', 'ultrafast', ...X265_OPEN_GOP]));
  });
  afterAll(async () => {
    await Promise.all(encoders.map(stopChild));
    await Promise.all([...(http?.children ?? [])].map(stopChild));
    http?.server.closeAllConnections();
    await new Promise((resolve) => http?.server.close(resolve));
    await server?.cleanup();
  });

  /**
   * Waits for three segments, then checks what a player notices: segments near the configured 2 s,
   * TARGETDURATION 2, each segment starting on an I-frame and decoding with no error.
   */
  async function expectCutAtRecoveryPoints(name: string): Promise<void> {
    const base = `${server.url}/${name}`;
    const first = await waitFor(async () => {
      const r = await getText(`${base}/video.m3u8`);
      return r.status === 200 ? r.text : undefined;
    }, 40_000);
    expect(targetDuration(first)).toBe(2);
    for (const d of durations(first)) expect(d).toBeLessThanOrEqual(2.5);
    const playlist = await waitFor(async () => {
      const text = (await getText(`${base}/video.m3u8`)).text;
      return segmentUris(text).length >= 3 ? text : undefined;
    }, 30_000);
    expect(targetDuration(playlist)).toBe(2);
    for (const d of durations(playlist)) expect(Math.abs(d - 2)).toBeLessThan(0.25);
    for (const uri of segmentUris(playlist)) {
      const segment = await getBytes(`${base}/${uri}`);
      expect({ uri, errors: decodeErrors(segment) }).toEqual({ uri, errors: '' });
      expect({ uri, first: pictureTypes(segment)[0] }).toEqual({ uri, first: 'I' });
    }
  }

  it('H.264 with recovery point SEIs (headers repeated): 2 s segments, each decodable alone', async () => {
    await expectCutAtRecoveryPoints('h264');
  });

  it('H.264 whose SPS/PPS came only with the first IDR: every segment still decodes alone', async () => {
    await expectCutAtRecoveryPoints('once');
  });

  it('HEVC with CRA pictures: 2 s segments, each decodable alone', async () => {
    await expectCutAtRecoveryPoints('hevc');
  });
});
