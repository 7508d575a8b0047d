import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getBytes, getText, segmentUris, stopChild } from './media-helpers.js';

/**
 * A picture whose brightness says which 2 s GOP it belongs to: one of 8 grey levels, the level
 * stepping at each keyframe (every 2 s, one per segment), B-frames as a usual encoder sends them.
 */
const LEVELS = 8;
const gopSource = (port: number) => [
  ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re', '-f', 'lavfi'],
  ...['-i', `color=c=gray:size=160x120:rate=25,geq=lum='16+28*mod(floor(T/2),${LEVELS})':cb=128:cr=128`],
  ...[
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-bf',
    '3',
    '-g',
    '50',
    '-keyint_min',
    '50',
    '-sc_threshold',
    '0',
  ],
  ...['-f', 'mpegts', `udp://127.0.0.1:${port}?pkt_size=1316`],
];

/** The grey level (0..7) of the first picture in `input` (a JPEG, or a TS segment), as ffmpeg decodes it. */
function greyLevel(input: Buffer): number {
  const run = spawnSync(
    'ffmpeg',
    [
      '-loglevel',
      'quiet',
      '-i',
      'pipe:0',
      '-frames:v',
      '1',
      '-vf',
      'scale=1:1',
      '-pix_fmt',
      'gray',
      '-f',
      'rawvideo',
      'pipe:1',
    ],
    { input, timeout: 20_000 },
  );
  // Both decode to full-range grey: level k is 32.6 k.
  return Math.round(run.stdout[0]! / 32.6) % LEVELS;
}

describe('stream previews', () => {
  let server: RunningServer;
  let source: ChildProcess;

  beforeAll(async () => {
    const port = await freePort();
    source = spawn('ffmpeg', gopSource(port), { stdio: 'ignore' });
    server = await startServer({
      config: `${minimalConfig}stream gop {\n  url udp://127.0.0.1:${port};\n  static true;\n  thumbnails { enabled; }\n}\n`,
    });
  });
  afterAll(async () => {
    await stopChild(source);
    await server?.cleanup();
  });

  it('shows the newest keyframe: never older than the newest listed segment', async () => {
    const base = `${server.url}/gop`;
    await waitFor(async () => (await fetch(`${base}/preview.jpg`)).ok, 30_000);
    const lags: number[] = [];
    // Three looks, a segment apart, each: the playlist, then the preview.
    for (let look = 0; look < 3; look++) {
      const playlist = (await getText(`${base}/video.m3u8`)).text;
      const newest = segmentUris(playlist).at(-1)!;
      const preview = await getBytes(`${base}/preview.jpg`);
      const segmentLevel = greyLevel(await getBytes(`${base}/${newest}`));
      // How many GOPs the preview is behind the newest segment's keyframe (negative: newer).
      const behind = (segmentLevel - greyLevel(preview) + LEVELS) % LEVELS;
      lags.push(behind > LEVELS / 2 ? behind - LEVELS : behind);
      await waitFor(async () => segmentUris((await getText(`${base}/video.m3u8`)).text).at(-1) !== newest);
    }
    // Before: 3 GOPs behind the live edge (2 to 3 behind the newest listed segment).
    expect(
      lags.every((lag) => lag <= 0 && lag >= -2),
      `GOPs behind: ${lags.join(', ')}`,
    ).toBe(true);
  });
});
