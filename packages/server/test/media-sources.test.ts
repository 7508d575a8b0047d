import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { minimalConfig, type RunningServer, startServer, waitFor } from './harness.js';
import { modifyConfig, probeStreams, streamStats } from './media-helpers.js';

/**
 * The other source kinds, fed from this same server so no outside service is needed: MPEG-TS over
 * HTTP read by Node (tshttp://), HLS and a file remuxed by ffmpeg (hls://, file://).
 */
describe('tshttp, hls and file sources', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({
      config: `${minimalConfig}stream origin {\n  url test://?size=320x180&bitrate=300;\n  static true;\n}\n`,
    });
    await waitFor(async () => (await streamStats(server, 'origin')).alive, 20_000);
  });
  afterAll(() => server?.cleanup());

  const playsAsH264AndAac = async (name: string) => {
    const stats = await waitFor(async () => {
      const s = await streamStats(server, name);
      // The bitrate counts whole seconds: it shows once the first second of data is in.
      return s.alive && s.media_info?.tracks.length === 2 && (s.bitrate ?? 0) > 0 ? s : undefined;
    }, 25_000);
    expect(stats.media_info?.tracks.map((t) => t.codec)).toEqual(['h264', 'aac']);
    const streams = probeStreams(`${server.url}/${name}/index.m3u8`);
    expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
    return stats;
  };

  it('reads MPEG-TS over HTTP (tshttp://)', async () => {
    const source = `tshttp://127.0.0.1:${server.port}/origin/mpegts`;
    await modifyConfig(server, { streams: { relay: { urls: [{ url: source }], static: true } } });
    const stats = await playsAsH264AndAac('relay');
    expect(stats.url).toBe(source);
    // The relay is a client of the origin, counted in its sessions.
    expect((await streamStats(server, 'origin')).client_count).toBeGreaterThanOrEqual(1);
  });

  it('remuxes an HLS source (hls://) through ffmpeg', async () => {
    await modifyConfig(server, {
      streams: {
        mirror: { urls: [{ url: `hls://127.0.0.1:${server.port}/origin/index.m3u8` }], static: true },
      },
    });
    await playsAsH264AndAac('mirror');
  });

  it('plays a file as a live stream (file://)', async () => {
    const file = join(server.dir, 'clip.mp4');
    const made = spawnSync('ffmpeg', [
      ...[
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=320x240:rate=25:duration=4',
      ],
      ...['-f', 'lavfi', '-i', 'sine=duration=4', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '25'],
      ...['-pix_fmt', 'yuv420p', '-c:a', 'aac', file],
    ]);
    expect(made.status).toBe(0);
    await modifyConfig(server, { streams: { movie: { urls: [{ url: `file://${file}` }], static: true } } });
    const stats = await playsAsH264AndAac('movie');
    expect(stats.media_info).toMatchObject({ width: 320, height: 240 });
  });
});
