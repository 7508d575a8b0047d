import { spawn, spawnSync } from 'node:child_process';
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { getBytes, getText, modifyConfig, probeStreams, segmentUris, stopChild } from './media-helpers.js';

const PREPUSH_S = 5;

/** Seconds between the first and last video PTS in MPEG-TS bytes, as ffprobe reads them. */
function videoSpanSeconds(ts: Buffer): number {
  const result = spawnSync(
    'ffprobe',
    [
      ...['-hide_banner', '-loglevel', 'error', '-select_streams', 'v', '-show_entries', 'packet=pts_time'],
      ...['-of', 'csv=p=0', '-i', 'pipe:0'],
    ],
    { input: ts, timeout: 20_000, maxBuffer: 64 * 1024 * 1024 },
  );
  const times = result.stdout
    .toString()
    .split('\n')
    .map(Number.parseFloat)
    .filter((t) => Number.isFinite(t));
  return times.length < 2 ? 0 : Math.max(...times) - Math.min(...times);
}

/** What an MPEG-TS player receives in its first `windowMs` after the response headers. */
function firstBytes(url: string, windowMs: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const request = get(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      setTimeout(() => {
        request.destroy();
        resolve(Buffer.concat(chunks));
      }, windowMs);
    });
    request.on('error', reject);
  });
}

/**
 * prepush (new MPEG-TS and RTMP players start with the last N seconds at once) and add_audio_only
 * (an audio-only variant in the HLS master), measured with ffprobe on what a player receives.
 */
describe('prepush and the audio-only variant', () => {
  let server: RunningServer;
  let rtmpPort: number;

  beforeAll(async () => {
    rtmpPort = await freePort();
    server = await startServer({
      config:
        `${minimalConfig}rtmp ${rtmpPort};\n` +
        `stream tv {\n  url test://?size=320x180&bitrate=300;\n  prepush ${PREPUSH_S};\n  add_audio_only;\n  static true;\n}\n`,
    });
    // Enough media kept for the prepush: three whole 2 s segments besides the open one.
    await waitFor(
      async () => segmentUris((await getText(`${server.url}/tv/video.m3u8`)).text).length >= 3,
      30_000,
    );
  });
  afterAll(async () => {
    await server?.cleanup();
  });

  it(`gives a new MPEG-TS player at least ${PREPUSH_S} s of media within 300 ms`, async () => {
    const bytes = await firstBytes(`${server.url}/tv/mpegts`, 300);
    expect(videoSpanSeconds(bytes)).toBeGreaterThanOrEqual(PREPUSH_S - 0.1);
  });

  it(`gives a new RTMP player its ${PREPUSH_S} s ahead of real time`, async () => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    const child = spawn(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-i', `rtmp://127.0.0.1:${rtmpPort}/static/tv`],
        ...['-c', 'copy', '-f', 'mpegts', 'pipe:1'],
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    try {
      // Media received beyond the wall time spent is what came at once: the prepush.
      const ahead = await waitFor(() => {
        const lead = videoSpanSeconds(Buffer.concat(chunks)) - (Date.now() - started) / 1000;
        return lead >= PREPUSH_S - 1 ? lead : undefined;
      }, 15_000);
      expect(ahead).toBeGreaterThanOrEqual(PREPUSH_S - 1);
    } finally {
      await stopChild(child);
    }
  });

  it('lists an audio-only variant in the HLS master whose playlist ffprobe reads as audio alone', async () => {
    const master = (await getText(`${server.url}/tv/index.m3u8`)).text;
    const lines = master.split('\n');
    const audioAt = lines.indexOf('audio.m3u8');
    expect(audioAt).toBeGreaterThan(0);
    expect(lines[audioAt - 1]).toMatch(
      /^#EXT-X-STREAM-INF:BANDWIDTH=\d+,AVERAGE-BANDWIDTH=\d+,CODECS="mp4a\.40\.2"$/,
    );
    expect(lines).toContain('video.m3u8');
    const streams = probeStreams(`${server.url}/tv/audio.m3u8`);
    expect(streams.map((s) => s.codec_name)).toEqual(['aac']);
    const uri = segmentUris((await getText(`${server.url}/tv/audio.m3u8`)).text).at(-1)!;
    expect(uri).toMatch(/^audio-\d+\.ts$/);
    expect(probeStreams(await getBytes(`${server.url}/tv/${uri}`)).map((s) => s.codec_name)).toEqual(['aac']);
  });

  it('applies prepush false and add_audio_only off at once: the open GOP only, no audio variant', async () => {
    await modifyConfig(server, { streams: { tv: { prepush: false, add_audio_only: false } } });
    const plain = await waitFor(async () => {
      const master = (await getText(`${server.url}/tv/index.m3u8`)).text;
      return master.includes('audio.m3u8') ? undefined : master;
    });
    expect(plain).toContain('video.m3u8');
    expect((await getText(`${server.url}/tv/audio.m3u8`)).status).toBe(404);
    const bytes = await firstBytes(`${server.url}/tv/mpegts`, 300);
    // The test source's GOP is 2 s: without prepush a player gets at most that at once.
    expect(videoSpanSeconds(bytes)).toBeLessThan(2.2);
  });
});
